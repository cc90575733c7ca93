/**
 * The evidence of a conformance test (CONTRIBUTING "Evidence"): what decided it, attached as
 * 'ccs-evidence'. One definition for the suites that write it and the reports that read it.
 * Secrets are redacted before it is attached (spec/redact.ts).
 */

export const EVIDENCE_ATTACHMENT = 'ccs-evidence';

/** One request a test made, with the curl line that replays it. */
export interface RequestEvidence {
  method: string;
  url: string;
  /** Absent when no answer came (then failure names what happened). */
  status?: number;
  curl: string;
  failure?: string;
  elapsedMs?: number;
  operationId?: string;
  /** Whether the response matched spec/openapi.yaml. */
  specValid?: boolean;
}

/** One sentence of a test with what backs it. */
export interface EvidenceItem {
  sentence: string;
  seqs?: number[];
  /** Journal entry summaries. */
  entries?: unknown[];
  requests?: RequestEvidence[];
}

export interface Evidence {
  sentence: string;
  /** Journal entry summaries. */
  entries?: unknown[];
  requests?: RequestEvidence[];
  /** The sentences one by one, when a test gave several. */
  items?: EvidenceItem[];
  /** A property test's replay: fast-check seed and path. */
  seed?: number | string;
  path?: string;
}
