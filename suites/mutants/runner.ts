/**
 * The mutation matrix: the suites run once clean and once per seeded fault, all
 * in one child Playwright run whose projects are the faults (matrix.config.ts), and the child's
 * JSON report says which tests of which project failed and which clauses they cite. A fault is CAUGHT when
 * at least one failing test cites its clause; it fails the matrix when missed, or when only tests
 * of unrelated clauses fail. The clean run must fail nothing.
 */
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestOutcome } from './results.ts';
import { REPO_ROOT, readChildResults, runChildPlaywright } from './child-run.ts';
import { attributeTest } from '../../reports/index.ts';

export { REPO_ROOT };

/**
 * A seeded fault or faulty receiver: `clause` is the clause it breaks; `also` the further clauses it
 * breaks by its nature (declared with it, so the matrix's precision counts them as its own).
 */
export interface MatrixFault {
  name: string;
  clause: string;
  also?: readonly string[];
  area: string;
  sentence?: string;
  /** Marker tags of tests its run leaves out, though they cite its clauses (see serviceDirection). */
  leaveOut?: readonly string[];
  /** Further metadata of its project, read by the suites' fixtures and tests (see serviceDirection). */
  metadata?: Readonly<Record<string, string>>;
}
/** One direction of the matrix: the service suites against reference faults, or the host suites against faulty receivers. */
export interface MatrixDirection {
  name: 'service' | 'host';
  /** Playwright project the child runs. */
  project: string;
  /** Environment variable that seeds the fault (CCS_FAULTS, CCS_HOST_FAULT). */
  faultEnv: string;
  faults: readonly MatrixFault[];
  /** Folder of the spec files (relative to the repo root), for choosing a fault's files. */
  testDir: string;
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
}

/** Share of faults whose failed clauses are exactly their declared ones (caught faults and missed alike). */
export interface Precision {
  exact: number;
  total: number;
  share: number;
  inexact: Array<{ fault: string; declared: string[]; failed: string[]; blocked: string[] }>;
}

export function precisionOf(faults: readonly FaultResult[]): Precision {
  const inexact = faults
    .filter((f) => !f.exact)
    .map((f) => ({ fault: f.fault, declared: f.declared, failed: f.failedClauses, blocked: f.blockedClauses }));
  const total = faults.length;
  return { exact: total - inexact.length, total, share: total === 0 ? 1 : (total - inexact.length) / total, inexact };
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
 * Workers of the matrix child by default. Its time goes to starting a worker per fault and to
 * waiting (delivery windows, retry schedules), not to computing: on two cores, 4 workers run both
 * directions in about 9 minutes where 2 take over 13.
 */
export const MATRIX_WORKERS = 4;

/** The whole matrix child: 250 faults take several minutes; a hang ends here. */
export const DEFAULT_MATRIX_DEADLINE_MS = 25 * 60_000;

/** Environment of a child run: nothing that makes Playwright think the child is one of its workers. */
export function childEnv(
  base: NodeJS.ProcessEnv,
  set: Record<string, string>,
  unset: string[] = [],
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (/^(TEST_|PW_)/.test(k)) continue;
    if (/^PLAYWRIGHT_/.test(k) && k !== 'PLAYWRIGHT_BROWSERS_PATH') continue;
    if (k === 'FORCE_COLOR' || k === 'CI_RUN_ID') continue;
    env[k] = v;
  }
  for (const k of unset) delete env[k];
  return { ...env, ...set, FORCE_COLOR: '0' };
}

/** Where the matrix's child run takes its projects from (one per fault, plus the clean runs). */
// The published package runs compiled JavaScript: the child's config is then matrix.config.js.
export const MATRIX_CONFIG = `suites/mutants/matrix.config.${import.meta.url.endsWith('.js') ? 'js' : 'ts'}`;

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
  metadata: Record<string, string>;
}

/**
 * The projects of one matrix run. Each fault gets a project whose worker fixtures seed that fault
 * (project metadata: ccsFault / ccsHostFault), running the tests that cite the fault's clause
 * (scope 'clause', the default) or every test of the clause's area (scope 'area', slower). Either
 * is enough for the verdict: a fault is caught only by a failing test citing its clause, and
 * every such test carries the tag @<clause>; the clean runs prove every test passes without it.
 * All projects run in ONE Playwright process, so its start-up is paid once, not once per fault.
 */
export function planProjects(
  directions: readonly MatrixDirection[],
  o: { faults?: readonly string[]; clean?: boolean; scope?: 'clause' | 'area' } = {},
): MatrixProject[] {
  const projects: MatrixProject[] = [];
  const realtime = '@realtime';
  for (const d of directions) {
    const metaKey = d.name === 'service' ? 'ccsFault' : 'ccsHostFault';
    if (o.clean !== false)
      projects.push({
        name: `${d.name}:clean`,
        direction: d.name,
        testDir: d.testDir,
        grepInvert: realtime,
        metadata: {},
      });
    for (const f of d.faults) {
      if (o.faults && o.faults.length > 0 && !o.faults.includes(f.name)) continue;
      const declared = [f.clause, ...(f.also ?? [])];
      // \b keeps @HOST-1 from selecting @HOST-12.
      const grep = o.scope === 'area' ? `@${f.area}-\\d+\\b` : `@(?:${declared.join('|')})\\b`;
      projects.push({
        name: `${d.name}:${f.name}`,
        direction: d.name,
        fault: f.name,
        clause: f.clause,
        declared,
        testDir: d.testDir,
        grep,
        grepInvert: [realtime, ...(f.leaveOut ?? [])].join('|'),
        metadata: { ...f.metadata, [metaKey]: f.name },
      });
    }
  }
  return projects;
}

/**
 * Runs the planned projects in one child `playwright test --config suites/mutants/matrix.config.ts`
 * and judges each: a clean project must fail nothing; a fault project is CAUGHT when a failing
 * test cites the fault's clause, MISSED when none fails, UNRELATED-ONLY when only tests of other
 * clauses fail (possible with scope 'area').
 */
export async function runMatrixChild(
  directions: readonly MatrixDirection[],
  projects: readonly MatrixProject[],
  o: { reportDir: string; workers?: number; deadlineMs?: number; onProgress?: (line: string) => void },
): Promise<{ clean: CleanResult[]; faults: FaultResult[]; error?: string; durationMs: number }> {
  const dir = join(o.reportDir, 'mutants');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const resultsPath = join(dir, 'results.json');
  const deadlineMs = o.deadlineMs ?? DEFAULT_MATRIX_DEADLINE_MS;
  const env = childEnv(
    process.env,
    {
      CCS_MATRIX_PLAN: JSON.stringify(projects),
      CCS_MATRIX_RESULTS: resultsPath,
      CCS_WORKERS: String(o.workers ?? MATRIX_WORKERS),
      CCS_REPORT_DIR: dir,
    },
    ['CCS_FAULTS', 'CCS_HOST_FAULT', 'CCS_TARGET', 'CCS_HOST_TARGET'],
  );
  const run = await runChildPlaywright({
    config: MATRIX_CONFIG,
    env,
    deadlineMs,
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });
  const durationMs = run.durationMs;
  const { tests, error } = readChildResults(resultsPath, run, deadlineMs);
  const byProject = new Map<string, TestOutcome[]>();
  for (const t of tests) byProject.set(t.project ?? '', [...(byProject.get(t.project ?? '') ?? []), t]);
  const count = (ts: TestOutcome[], x: string) => ts.filter((t) => t.outcome === x).length;
  const summaryOf = (ts: TestOutcome[], p: MatrixProject): RunSummary => ({
    passed: count(ts, 'passed'),
    failed: count(ts, 'failed') + count(ts, 'flaky'),
    skipped: count(ts, 'skipped'),
    durationMs,
    files: [...new Set(ts.map((t) => t.file))].sort(),
    exitCode: run.code,
    timedOut: run.timedOut,
    ...(error && ts.length === 0 ? { error } : {}),
  });
  void directions;
  const clean: CleanResult[] = [];
  const faults: FaultResult[] = [];
  for (const p of projects) {
    const ts = byProject.get(p.name) ?? [];
    const failing = ts.filter((t) => t.outcome === 'failed' || t.outcome === 'flaky');
    if (!p.fault) {
      const failures = failing.map((t) => ({
        title: t.title,
        clauses: t.clauses,
        ...(t.error ? { error: t.error } : {}),
      }));
      const summary = summaryOf(ts, p);
      clean.push({
        ...summary,
        direction: p.direction,
        ok: !summary.error && failures.length === 0 && summary.passed > 0,
        failures,
      });
      continue;
    }
    const clause = p.clause!;
    const declared = p.declared ?? [clause];
    // Per check, as the clause reporter decides (reports/attribution.ts).
    const verdicts = ts.map((t) => ({ t, v: attributeTest(t) }));
    const clausesWith = (status: string) =>
      [...new Set(verdicts.flatMap(({ v }) => [...v].filter(([, o]) => o.status === status).map(([id]) => id)))].sort();
    const failedClauses = clausesWith('failed');
    const blockedClauses = clausesWith('blocked').filter((c) => !failedClauses.includes(c));
    const caughtBy = verdicts.filter(({ v }) => v.get(clause)?.status === 'failed').map(({ t }) => t.title);
    const alsoFailed = verdicts
      .map(({ t, v }) => ({
        title: t.title,
        clauses: [...v].filter(([, o]) => o.status === 'failed').map(([id]) => id),
      }))
      .filter((a) => a.clauses.length > 0 && !a.clauses.includes(clause));
    const summary = summaryOf(ts, p);
    const status: FaultStatus = caughtBy.length
      ? 'caught'
      : ts.length === 0
        ? 'error'
        : failedClauses.length
          ? 'unrelated-only'
          : 'missed';
    const exact = failedClauses.length === declared.length && declared.every((c) => failedClauses.includes(c));
    const failedChecks = [
      ...new Set(
        ts.flatMap((t) => t.checks.filter((c) => c.outcome === 'failed' && c.id !== undefined).map((c) => c.id!)),
      ),
    ].sort();
    const sentence = directions.flatMap((d) => d.faults).find((f) => f.name === p.fault)?.sentence;
    faults.push({
      ...summary,
      ...(ts.length === 0 && !summary.error ? { error: 'no test of this fault ran' } : {}),
      direction: p.direction,
      fault: p.fault,
      clause,
      ...(sentence ? { sentence } : {}),
      status,
      declared,
      failedClauses,
      blockedClauses,
      exact,
      failedChecks,
      caughtBy,
      alsoFailed,
    });
  }
  return { clean, faults, ...(error ? { error } : {}), durationMs };
}

export function renderTable(clean: CleanResult[], faults: FaultResult[]): string {
  const rows: string[][] = [['direction', 'fault', 'clause', 'verdict', 'failed clauses', 'by which tests']];
  for (const c of clean)
    rows.push([
      c.direction,
      '(clean)',
      '-',
      c.ok ? 'passes' : `FAILS (${c.failed} failed${c.error ? `; ${c.error}` : ''})`,
      '-',
      c.failures
        .map((f) => f.title)
        .slice(0, 3)
        .join('; '),
    ]);
  for (const f of faults) {
    const verdict =
      f.status === 'caught'
        ? 'caught'
        : f.status === 'missed'
          ? 'MISSED'
          : f.status === 'unrelated-only'
            ? 'CAUGHT ONLY BY UNRELATED TESTS'
            : `ERROR: ${f.error ?? ''}`;
    const by =
      f.status === 'caught'
        ? f.caughtBy.slice(0, 2).join('; ') + (f.caughtBy.length > 2 ? ` (+${f.caughtBy.length - 2})` : '')
        : f.alsoFailed
            .slice(0, 2)
            .map((a) => `${a.title} [${a.clauses.join(',')}]`)
            .join('; ');
    const failed =
      f.failedClauses.join(',') +
      (f.exact ? '' : ' (not exact)') +
      (f.blockedClauses.length ? ` blocked ${f.blockedClauses.join(',')}` : '');
    rows.push([f.direction, f.fault, f.clause, verdict, failed, by]);
  }
  const widths = rows[0]!.map((_, i) => Math.min(48, Math.max(...rows.map((r) => r[i]!.length))));
  const p = precisionOf(faults);
  const precision =
    faults.length === 0
      ? ''
      : `\nprecision: ${p.exact}/${p.total} faults (${(p.share * 100).toFixed(1)}%) fail exactly their own clauses` +
        p.inexact
          .map(
            (x) =>
              `\n  ${x.fault}: declared ${x.declared.join(',')}; failed ${x.failed.join(',') || 'none'}${x.blocked.length ? `; blocked ${x.blocked.join(',')}` : ''}`,
          )
          .join('');
  return (
    rows
      .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.slice(0, widths[i]!).padEnd(widths[i]!))).join('  '))
      .join('\n') + precision
  );
}

export function writeReport(path: string, result: Omit<MatrixResult, 'table' | 'reportPath'>): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify({ generatedAt: new Date().toISOString(), ...result }, null, 2));
}
