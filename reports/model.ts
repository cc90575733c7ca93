/**
 * The shape of reports/out/conformance.json (schema: reports/conformance.schema.json).
 * One record per clause of spec/clauses.yaml, decided by the tests that cite it in their tags.
 */
export type ClauseLevel = 'MUST' | 'SHOULD' | 'MAY' | 'UNSPECIFIED';
export type ClauseStatus = 'passed' | 'failed' | 'not-exercised' | 'unspecified';
export type TestStatusName = 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted' | 'not-run';

/** A clause as the reporter needs it (a subset of spec/index.ts Clause). */
export interface ClauseInput {
  id: string;
  section: string;
  level: ClauseLevel;
  side: string;
  text: string;
  reading?: string;
  unobservable?: string;
}

/** What a test attached as `ccs-evidence` (CONTRIBUTING.md, "Evidence"). */
export interface Evidence {
  sentence: string;
  entries?: unknown[];
  requests?: Array<{ method?: string; url?: string; status?: number; curl?: string }>;
  seed?: number | string;
  path?: string;
  [key: string]: unknown;
}

/** One test as collected from Playwright (or built by hand in tests). */
export interface TestRecord {
  title: string;
  file: string;
  line: number;
  project: string;
  clauses: string[];
  status: TestStatusName;
  /** Playwright outcome: flaky counts as failed (the harness allows no flaky test). */
  ok: boolean;
  durationMs: number;
  errors: string[];
  skipReasons: string[];
  evidence: Evidence[];
}

export interface Reproduction {
  command: string;
  seed?: string;
  path?: string;
  curl: string[];
  entries: unknown[];
}

export interface ClauseRecord {
  id: string;
  area: string;
  section: string;
  level: ClauseLevel;
  side: string;
  text: string;
  reading?: string;
  status: ClauseStatus;
  tests: Array<{ title: string; project: string; file: string; status: TestStatusName }>;
  failures?: Array<{ test: string; error: string }>;
  notExercisedReasons?: string[];
  evidence: Evidence[];
  expectedFailure?: { reason: string };
  staleExpectation?: { reason: string };
  reproduction?: Reproduction;
}

export type StatusTotals = Record<ClauseStatus, number>;

export interface ConformanceReport {
  schemaVersion: 1;
  runId: string;
  startedAt: string;
  endedAt: string;
  target: { description: string };
  /** What ran: the harness package's version and the clause catalogue's (spec/clauses.yaml `version:`). */
  versions?: { harness: string; clauses: string };
  projects: string[];
  verdict: 'pass' | 'fail';
  totals: StatusTotals & { byLevel: Record<ClauseLevel, StatusTotals> };
  staleExpectations: string[];
  /** Seeded faults of the embedded reference this run had on, with the clause each breaks. */
  seededFaults?: Array<{ name: string; clause: string }>;
  clauses: ClauseRecord[];
  tests: Array<{ title: string; project: string; file: string; line: number; clauses: string[]; status: TestStatusName; ok: boolean; durationMs: number; errors: string[] }>;
}

export interface ExpectedOutcomes {
  target?: string;
  expectedFailures: Array<{ clause: string; reason: string }>;
}

/** Projects whose tests are conformance evidence; `self` and `mutants` are not (issue 7). */
export const CONFORMANCE_PROJECTS = ['service', 'service-realtime', 'host'] as const;

/** A clause tag: '@EVT-3'. '@realtime' and '@mutant' are markers, not clauses. */
export const CLAUSE_TAG = /^@([A-Z]+-\d+)$/;

export function areaOf(clauseId: string): string {
  return clauseId.replace(/-\d+$/, '');
}
