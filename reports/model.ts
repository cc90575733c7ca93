/**
 * The shape of reports/out/conformance.json (schema: reports/conformance.schema.json).
 * One record per clause of spec/clauses.yaml, decided by the tests that cite it in their tags.
 */
import type { CheckRecord, DataApiForms, Evidence } from '../spec/index.ts';

export type ClauseLevel = 'MUST' | 'SHOULD' | 'MAY' | 'UNSPECIFIED';
/**
 * not-in-run: a clause of a side the run did not test (a service run and the host clauses): kept in
 * conformance.json so nothing is lost, but never "not exercised" (a gate's --require-all skips it).
 */
/**
 * blocked: not decided, because every test that would check it stopped first (another clause's
 * check failed, or an error no check names): a blocked MUST clause fails the run's verdict without
 * counting as a failed clause (reports/attribution.ts).
 */
export type ClauseStatus = 'passed' | 'failed' | 'blocked' | 'not-exercised' | 'unspecified' | 'not-in-run';
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

/** What a test attached as `ccs-evidence`: the one definition is spec/evidence.ts. */
export type { Evidence } from '../spec/index.ts';

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

export type { TimelineSpec, TimelineWindow } from '../spec/index.ts';

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
  /**
   * What the test says it exercised of a table of the contract (annotations `ccs-coverage`: the
   * model-based test's rows of section 3 and sequences of section 6), each a line.
   */
  coverage?: string[];
  /** The checks it made, each naming the clauses it decides (spec/checks.ts). */
  checks: CheckRecord[];
}

export interface Reproduction {
  command: string;
  seed?: string;
  path?: string;
  curl: string[];
  entries: unknown[];
}

/**
 * Failed checks of one clause grouped by check (its id, else its rule): the first failure's words
 * as the example and how many times the check failed. Every failure's words stay in `failures`.
 */
export interface FailedCheck {
  clauses: string[];
  id?: string;
  rule: string;
  expected?: string;
  seen: string;
  count: number;
  /** The title of the test the example comes from. */
  test?: string;
}

/**
 * How much of a decided clause (passed or failed) its citing tests exercised. A part is a citing test, or
 * a reason a test that exercised the clause gave for a check of it it could not make: `seen` counts the
 * tests that exercised it, `of` adds one per test that did not (skipped, not run, blocked, or whose checks
 * of it were all not-exercised notes) and one per distinct not-exercised note of a test that did. A passed
 * clause with `seen < of` passed only partly ("passed (partly)" in every report; `notSeen` says what and why).
 */
export interface Exercised {
  seen: number;
  of: number;
  /** When seen < of: one per part not seen, the test and the reason it gave. */
  notSeen?: Array<{ test: string; reason: string }>;
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
  tests: Array<{
    title: string;
    project: string;
    file: string;
    status: TestStatusName;
    verdict?: 'passed' | 'failed' | 'blocked' | 'not-exercised';
  }>;
  failures?: Array<{ test: string; error: string }>;
  /** failed: the failed checks, one per check with a count (the one-line form of summary.md and the console). */
  failedChecks?: FailedCheck[];
  /** failed: what a known library or mistake explains, and where its remedy is written (the fault model's hints). */
  hints?: Array<{ hint: string; recipe?: string }>;
  /** blocked: why each test citing it did not decide it ("blocked: SIGN-12 failed first"). */
  blockedReasons?: string[];
  /** Checks that could not tell whether the rule holds (never a failure). */
  warnings?: string[];
  notExercisedReasons?: string[];
  /** passed or failed: the parts of the clause its tests exercised (a passed clause with seen < of passed partly). */
  exercised?: Exercised;
  evidence: Evidence[];
  expectedFailure?: { reason: string };
  staleExpectation?: { reason: string };
  reproduction?: Reproduction;
}

export type StatusTotals = Record<ClauseStatus, number>;

/** A clause's side in spec/clauses.yaml; a run's sides come from its projects (RUN_SIDE_OF_PROJECT). */
export const RUN_SIDE_OF_PROJECT: Record<string, string> = {
  service: 'service',
  'service-realtime': 'service',
  host: 'host',
};

export interface ConformanceReport {
  schemaVersion: 1;
  runId: string;
  startedAt: string;
  endedAt: string;
  /**
   * The target, in words; in a run of the service side also the data API forms the run assumed, as
   * the target declared them (UNSPEC-8, UNSPEC-9: `dataApi` of the target file, spec/data-api-forms.ts).
   */
  target: { description: string; dataApi?: DataApiForms };
  /** What ran: the harness package's version and the clause catalogue's (spec/clauses.yaml `version:`). */
  versions?: { harness: string; clauses: string };
  projects: string[];
  /** The sides this run tested; clauses of other sides are `not-in-run`. */
  sides: string[];
  verdict: 'pass' | 'fail';
  totals: StatusTotals & { byLevel: Record<ClauseLevel, StatusTotals> };
  staleExpectations: string[];
  /**
   * Defects of the harness's own tests found by the clause reporter (a clause id that names no clause,
   * a check outside its test's tags): the run gives no verdict on the target (verdict fail, exit 2).
   */
  harnessErrors?: string[];
  /**
   * The hints beside the run's failed checks and stopped preconditions (a known library or mistake,
   * a target field to check), each once, with the clauses it touched: shown before the details.
   */
  hints?: Array<{ hint: string; clauses: string[] }>;
  /** Seeded faults of the embedded reference this run had on, with the clause each breaks. */
  seededFaults?: Array<{ name: string; clause: string }>;
  /** What the run's tests exercised of the contract's tables (TestRecord.coverage), per test. */
  coverage?: Array<{ test: string; lines: string[] }>;
  clauses: ClauseRecord[];
  tests: Array<{
    title: string;
    project: string;
    file: string;
    line: number;
    clauses: string[];
    status: TestStatusName;
    ok: boolean;
    durationMs: number;
    errors: string[];
    verdicts?: Record<string, 'passed' | 'failed' | 'blocked' | 'not-exercised'>;
  }>;
}

export interface ExpectedOutcomes {
  target?: string;
  expectedFailures: Array<{ clause: string; reason: string }>;
}

/** Projects whose tests are conformance evidence; `self` and `mutants` are not. */
export const CONFORMANCE_PROJECTS = ['service', 'service-realtime', 'host'] as const;

/** A clause tag: '@EVT-3'. '@realtime' and '@mutant' are markers, not clauses. */
export { CLAUSE_TAG } from '../spec/index.ts';

/** The area of a clause id: 'DELIV' from 'DELIV-4'. */
export { areaOfClause as areaOf } from '../spec/index.ts';
