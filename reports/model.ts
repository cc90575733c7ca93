/**
 * The shape of reports/out/conformance.json (schema: reports/conformance.schema.json).
 * One record per clause of spec/clauses.yaml, decided by the tests that cite it in their tags.
 */
export type ClauseLevel = 'MUST' | 'SHOULD' | 'MAY' | 'UNSPECIFIED';
/**
 * not-in-run: a clause of a side the run did not test (a service run and the host clauses): kept in
 * conformance.json so nothing is lost, but never "not exercised" (a gate's --require-all skips it).
 */
export type ClauseStatus = 'passed' | 'failed' | 'not-exercised' | 'unspecified' | 'not-in-run';
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
  /** The clause this evidence is about; must name a clause of the list (the reporter fails the run otherwise). */
  clause?: string;
  /** Expected windows of a timing clause, drawn as a timeline against `entries` (render-timeline.ts). */
  timeline?: TimelineSpec;
  /** The service suites attach one evidence with its parts in `items`, each possibly with a timeline. */
  items?: Evidence[];
  [key: string]: unknown;
}

/**
 * A journal entry summary as the timeline reads it: `arrivalMs` (harness monotonic clock, ms; else
 * `arrival` as an ISO time), `durationMs` until the attempt ended (answer, reset or timeout), `attempt`.
 */
export interface TimelineEntry {
  seq?: number;
  attempt?: number;
  arrival?: string;
  arrivalMs?: number;
  durationMs?: number;
  status?: number;
  outcome?: string;
  event?: string;
}

/**
 * One expected interval: the start of `attempt` measured from the end of the previous attempt
 * (`from: 'previous-end'`, DELIV-8), or the end of `attempt` measured from its own start
 * (`from: 'start'`, a whole-request or fetch timeout: DELIV-3, FACTS-5). Times are the run's (scaled).
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

export interface TimelineSpec {
  timeScale?: number;
  windows: TimelineWindow[];
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

/** A clause's side in spec/clauses.yaml; a run's sides come from its projects (RUN_SIDE_OF_PROJECT). */
export const RUN_SIDE_OF_PROJECT: Record<string, string> = { service: 'service', 'service-realtime': 'service', host: 'host' };

export interface ConformanceReport {
  schemaVersion: 1;
  runId: string;
  startedAt: string;
  endedAt: string;
  target: { description: string };
  projects: string[];
  /** The sides this run tested; clauses of other sides are `not-in-run`. */
  sides: string[];
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
