/**
 * Every CCS_* environment variable the harness reads, in one place: typed, with its default. The
 * CLI sets most of them for the Playwright child it starts; a few are test hooks. CONTRIBUTING.md
 * lists them all (a self test keeps the two in agreement). Pass another env to read a child's view.
 * Names a target file refers to (`secretEnv: NAME`, `{ env: NAME }`) are the user's, not settings.
 */
import { resolve } from 'node:path';

/** Where reports go when nothing says otherwise, relative to the user's current directory. */
export const DEFAULT_REPORT_DIR = 'reports/out';
/** Sequences of the host model-based test by default (CCS_HOST_MODEL_RUNS, `ccs-conformance host --runs`). */
export const DEFAULT_HOST_MODEL_RUNS = 16;

export interface Settings {
  /** CCS_TARGET: service target file; unset: the embedded reference service. */
  target?: string;
  /** CCS_TARGET_ARG: the --target path as the user typed it (for reproduction lines). */
  targetArg?: string;
  /** CCS_TARGET_DESCRIPTION: the target's description in the report (never a secret). */
  targetDescription?: string;
  /** CCS_DATA_API_FORMS: the target's data API forms as JSON, for the report's header (spec/data-api-forms.ts). */
  dataApiForms?: string;
  /** CCS_FAULTS: seeded faults of the embedded reference service. */
  faults: string[];
  /** CCS_FAULT_CLAUSES: "name:CLAUSE,..." the seeded faults break. */
  faultClauses?: string;
  /** CCS_TIME_SCALE: time scale of the embedded reference service, as given (validated where used). */
  timeScale?: string;
  /** CCS_HOST_TARGET: host target file; unset: the reference host receiver. */
  hostTarget?: string;
  /** CCS_HOST_FAULT: a faulty variant of the reference host receiver. */
  hostFault?: string;
  /** CCS_SERVICE_PORT: port of the harness's data API and JWKS in the host direction, as given. */
  servicePort?: string;
  /** CCS_SERVICE_CONTROL: control address of the service side shared by the host workers (holds a token). */
  serviceControl?: string;
  /** CCS_SEED: fast-check seed. */
  seed?: number;
  /** CCS_SEED_PATH: fast-check counterexample path to replay with the seed. */
  seedPath?: string;
  /** CCS_PROPERTY_RUNS: runs per property test (default 60). */
  propertyRuns: number;
  /** CCS_STATEFUL_RUNS: sequences of the model-based test (default 48). */
  statefulRuns: number;
  /** CCS_HOST_MODEL_RUNS: sequences of the host direction's model-based test (default 16). */
  hostModelRuns: number;
  /** CCS_REPORT_DIR: where reports go (default reports/out), as given. */
  reportDir: string;
  /** CCS_WORKERS: Playwright workers. */
  workers?: number;
  /** CCS_VERBOSE=1 (`--verbose`): the console shows a failure's whole error with its stack frames. */
  verbose: boolean;
  /** CCS_REPORTER: console reporter(s), comma-separated. */
  reporter?: string;
  /** CCS_PROGRESS_TTY: '1' when the CLI pipes a terminal's output through its redactor. */
  progressTty: boolean;
  /** CCS_SHARD: "i/n", set by `run --shard`. */
  shard?: string;
  /** CCS_EXPECTED_FILE: expected-outcomes file. */
  expectedFile?: string;
  /** CCS_SECRETS_FILE: file of secret values every report file is scrubbed of. */
  secretsFile?: string;
  /** CCS_RUN_ID: the report's run id (default: a random UUID). */
  runId?: string;
  /** CCS_CONTRACT_URL: link base of the contract's sections in the HTML report. */
  contractUrl?: string;
  /** CCS_MUTANTS: limit the mutation matrix to these faults. */
  mutants: string[];
  /** CCS_HOST_REPRO_ARGS: the flags of `ccs-conformance host` that chose the receiver, as JSON (for rerun lines). */
  hostReproArgs?: string;
  /** CCS_MATRIX_PLAN, CCS_MATRIX_RESULTS: set by the matrix runner for its child run. */
  matrixPlan?: string;
  matrixResults?: string;
  /**
   * Test hooks: CCS_RUN_CONFIG (the Playwright config `run` uses), CCS_MERGE_CONFIG (`report --merge`),
   * CCS_CLAUSES_FILE (another clause list).
   */
  runConfig?: string;
  mergeConfig?: string;
  clausesFile?: string;
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (text(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function num(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = text(env, name);
  return v === undefined ? undefined : Number(v);
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const s: Settings = {
    faults: list(env, 'CCS_FAULTS'),
    propertyRuns: num(env, 'CCS_PROPERTY_RUNS') ?? 60,
    statefulRuns: num(env, 'CCS_STATEFUL_RUNS') ?? 48,
    hostModelRuns: num(env, 'CCS_HOST_MODEL_RUNS') ?? DEFAULT_HOST_MODEL_RUNS,
    reportDir: text(env, 'CCS_REPORT_DIR') ?? DEFAULT_REPORT_DIR,
    progressTty: env.CCS_PROGRESS_TTY === '1',
    verbose: env.CCS_VERBOSE === '1',
    mutants: list(env, 'CCS_MUTANTS'),
  };
  const optional: Array<[keyof Settings, string]> = [
    ['target', 'CCS_TARGET'],
    ['targetArg', 'CCS_TARGET_ARG'],
    ['targetDescription', 'CCS_TARGET_DESCRIPTION'],
    ['dataApiForms', 'CCS_DATA_API_FORMS'],
    ['faultClauses', 'CCS_FAULT_CLAUSES'],
    ['timeScale', 'CCS_TIME_SCALE'],
    ['hostTarget', 'CCS_HOST_TARGET'],
    ['hostFault', 'CCS_HOST_FAULT'],
    ['servicePort', 'CCS_SERVICE_PORT'],
    ['serviceControl', 'CCS_SERVICE_CONTROL'],
    ['seedPath', 'CCS_SEED_PATH'],
    ['reporter', 'CCS_REPORTER'],
    ['shard', 'CCS_SHARD'],
    ['expectedFile', 'CCS_EXPECTED_FILE'],
    ['secretsFile', 'CCS_SECRETS_FILE'],
    ['runId', 'CCS_RUN_ID'],
    ['contractUrl', 'CCS_CONTRACT_URL'],
    ['matrixPlan', 'CCS_MATRIX_PLAN'],
    ['matrixResults', 'CCS_MATRIX_RESULTS'],
    ['runConfig', 'CCS_RUN_CONFIG'],
    ['mergeConfig', 'CCS_MERGE_CONFIG'],
    ['clausesFile', 'CCS_CLAUSES_FILE'],
    ['hostReproArgs', 'CCS_HOST_REPRO_ARGS'],
  ];
  for (const [key, name] of optional) {
    const v = text(env, name);
    if (v !== undefined) (s as unknown as Record<string, unknown>)[key] = v;
  }
  const seed = num(env, 'CCS_SEED');
  if (seed !== undefined) s.seed = seed;
  const workers = num(env, 'CCS_WORKERS');
  if (workers !== undefined) s.workers = workers;
  return s;
}

/** The report folder, absolute: a flag's value, else CCS_REPORT_DIR, else reports/out, against the cwd. */
export function reportDirFrom(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? readSettings(env).reportDir);
}

/** The folder name of a run's journals inside its report folder. */
export const JOURNAL_DIR = 'journal';

/**
 * Where a run's workers leave the journals of their mock hosts and the judge's checks over them: the report
 * folder's journal/, or beside a child run's results file (the mutation matrix, the data API forms run).
 */
export function runJournalDir(s: Settings = readSettings()): string {
  return s.matrixResults !== undefined ? resolve(`${s.matrixResults}.journal`) : resolve(s.reportDir, JOURNAL_DIR);
}

/** Every variable readSettings reads (CONTRIBUTING.md's table must list each). */
export const SETTING_NAMES = [
  'CCS_TARGET',
  'CCS_TARGET_ARG',
  'CCS_TARGET_DESCRIPTION',
  'CCS_DATA_API_FORMS',
  'CCS_FAULTS',
  'CCS_FAULT_CLAUSES',
  'CCS_TIME_SCALE',
  'CCS_HOST_TARGET',
  'CCS_HOST_FAULT',
  'CCS_SERVICE_PORT',
  'CCS_SERVICE_CONTROL',
  'CCS_SEED',
  'CCS_SEED_PATH',
  'CCS_PROPERTY_RUNS',
  'CCS_STATEFUL_RUNS',
  'CCS_HOST_MODEL_RUNS',
  'CCS_REPORT_DIR',
  'CCS_WORKERS',
  'CCS_REPORTER',
  'CCS_PROGRESS_TTY',
  'CCS_VERBOSE',
  'CCS_SHARD',
  'CCS_EXPECTED_FILE',
  'CCS_SECRETS_FILE',
  'CCS_RUN_ID',
  'CCS_CONTRACT_URL',
  'CCS_MUTANTS',
  'CCS_MATRIX_PLAN',
  'CCS_MATRIX_RESULTS',
  'CCS_RUN_CONFIG',
  'CCS_MERGE_CONFIG',
  'CCS_CLAUSES_FILE',
  'CCS_HOST_REPRO_ARGS',
] as const;
