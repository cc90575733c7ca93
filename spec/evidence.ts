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

/**
 * One expected interval of a timing clause: the start of `attempt` measured from the end of the
 * previous attempt (`from: 'previous-end'`, DELIV-8), or the end of `attempt` measured from its own
 * start (`from: 'start'`, a whole-request or fetch timeout: DELIV-3, FACTS-5). Times are the run's (scaled).
 */
export interface TimelineWindow {
  attempt: number;
  from: 'previous-end' | 'start';
  expectedMs: number;
  toleranceMs: number;
  /** The contract's duration before time scaling, for the label ("about 5 s"). */
  contractMs?: number;
  label?: string;
}

/** Expected windows of a timing clause, drawn by the report against the evidence's entries. */
export interface TimelineSpec {
  timeScale?: number;
  windows: TimelineWindow[];
}

/** One sentence of a test with what backs it. */
export interface EvidenceItem {
  sentence: string;
  seqs?: number[];
  /** Journal entry summaries. */
  entries?: unknown[];
  requests?: RequestEvidence[];
  /** The clause this part is about; must name a clause of spec/clauses.yaml (the reporter fails the run otherwise). */
  clause?: string;
  timeline?: TimelineSpec;
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
  /** The clause this evidence is about; must name a clause of spec/clauses.yaml. */
  clause?: string;
  timeline?: TimelineSpec;
}
