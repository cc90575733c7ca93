/** One known-answer vector of `ccs-conformance vectors`: vectors.ts writes them, fault-vectors.ts adds the model's. */
export type Verdict = 'valid' | 'invalid' | 'stale' | 'future' | 'unknown-kid' | 'malformed' | 'absent';

export interface Vector {
  name: string;
  /** callback: verify `body` (UTF-8 bytes) as a lifecycle callback; facts: verify "GET " + requestTarget. */
  kind: 'callback' | 'facts';
  /** The X-Service-Signature value; null: the header is missing. */
  header: string | null;
  body?: string;
  requestTarget?: string;
  /** The verifier's clock, unix seconds. */
  now: number;
  /** HMAC only: the names (in `secrets`) of the secrets the verifier accepts, current first. */
  secrets?: string[];
  verdict: Verdict;
  clauses: string[];
  /** A vector of the host fault model: its row (spec/faults/host.yaml) and the check of that row. */
  row?: string;
  check?: string;
}
