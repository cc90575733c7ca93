/**
 * The shapes of the mutation matrix (runner.ts): its faults and directions, the projects of its child run, and
 * the results it judges from them.
 */
import type { HostFaultName, ServiceFaultName } from '../../spec/index.ts';
import type { ProjectMeta } from '../shared/project-meta.ts';

/**
 * A seeded fault or faulty receiver: `clause` is the clause it breaks; `also` the further clauses it
 * breaks by its nature (declared with it, so the matrix's precision counts them as its own).
 */
export interface MatrixFault {
  /** A fault the service or host fault model declares (spec/faults/*.yaml `faults:`). */
  name: ServiceFaultName | HostFaultName;
  clause: string;
  also?: readonly string[];
  area: string;
  sentence?: string;
  /** Marker tags of tests its run leaves out, though they cite its clauses (see serviceDirection). */
  leaveOut?: readonly string[];
  /** Further metadata of its project, read by the suites' fixtures and tests (see serviceDirection). */
  metadata?: Readonly<ProjectMeta>;
}
/**
 * One direction of the matrix: the service suites against reference faults, or the host suites against faulty
 * receivers.
 */
export interface MatrixDirection {
  name: 'service' | 'host';
  /** Playwright project the child runs. */
  project: string;
  /** Environment variable that seeds the fault (CCS_FAULTS, CCS_HOST_FAULT). */
  faultEnv: string;
  faults: readonly MatrixFault[];
  /** Folder of the spec files (relative to the repo root), for choosing a fault's files. */
  testDir: string;
  /**
   * Clauses an observer adds to every test's tags (the host direction's: suites/host/harness/host-tags.ts). A
   * fault of one runs on the tests whose titles cite it, its own tests, not on every test of the direction.
   */
  observedClauses?: readonly string[];
}

/**
 * caught: a check of the fault's clause failed. missed: no check failed. unrelated-only: checks of
 * other clauses failed, never one of its own. error: no result.
 */
export type FaultStatus = 'caught' | 'missed' | 'unrelated-only' | 'error';
export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  durationMs: number;
  files: string[];
  exitCode: number | null;
  timedOut: boolean;
  error?: string;
}
export interface FaultResult extends RunSummary {
  direction: 'service' | 'host';
  fault: string;
  clause: string;
  sentence?: string;
  status: FaultStatus;
  /** The clauses the fault declares: its clause and any it breaks by its nature. */
  declared: string[];
  /** Every clause a check failed on, and every clause left blocked (not decided), in this fault's run. */
  failedClauses: string[];
  blockedClauses: string[];
  /** The failed clauses are exactly the declared ones (the matrix's precision counts these). */
  exact: boolean;
  /** The ids of the failed checks (spec/faults/*.yaml names the check each row's fault must fail). */
  failedChecks: string[];
  /** Tests with a failed check of the fault's clause. */
  caughtBy: string[];
  /** Tests whose failed checks name other clauses only (with those clauses). */
  alsoFailed: Array<{ title: string; clauses: string[] }>;
  /**
   * Clauses the run failed that the traffic judge, over the same traffic, decided passed: where `observe
   * --from` this fault's journals disagrees with the run (the tests saw what the judge's rules did not).
   */
  judgeMissed: string[];
}

/** Share of faults whose failed clauses are exactly their declared ones (caught faults and missed alike). */
export interface Precision {
  exact: number;
  total: number;
  share: number;
  inexact: Array<{ fault: string; declared: string[]; failed: string[]; blocked: string[] }>;
}
export interface CleanResult extends RunSummary {
  direction: 'service' | 'host';
  ok: boolean;
  failures: Array<{ title: string; clauses: string[]; error?: string }>;
}
export interface MatrixResult {
  ok: boolean;
  clean: CleanResult[];
  faults: FaultResult[];
  precision: Precision;
  table: string;
  reportPath: string;
  durationMs: number;
  error?: string;
}

/**
 * One project of the matrix's child run. Serialized into CCS_MATRIX_PLAN for matrix.config.ts:
 * the config stays dumb, this module decides.
 */
export interface MatrixProject {
  name: string;
  direction: 'service' | 'host';
  fault?: string;
  clause?: string;
  declared?: string[];
  testDir: string;
  grep?: string;
  grepInvert?: string;
  metadata: ProjectMeta;
}
