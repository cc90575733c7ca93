/**
 * The mutation matrix: the suites run once clean and once per seeded fault, all
 * in one child Playwright run whose projects are the faults (matrix.config.ts), and the child's
 * JSON report says which tests of which project failed and which clauses they cite. A fault is CAUGHT when
 * at least one failing test cites its clause; it fails the matrix when missed, or when only tests
 * of unrelated clauses fail. The clean run must fail nothing.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { judgedOutcomes, type TestOutcome } from './results.ts';
import { REPO_ROOT, readChildResults, runChildPlaywright } from './child-run.ts';
import { JUDGE_FILE, attributeTest } from '../../reports/index.ts';
import { FAULT_META } from '../shared/matrix-worker.ts';
import { projectMeta } from '../shared/project-meta.ts';
import type {
  CleanResult,
  FaultResult,
  FaultStatus,
  MatrixDirection,
  MatrixProject,
  RunSummary,
} from './matrix-types.ts';

export { REPO_ROOT };
export type {
  CleanResult,
  FaultResult,
  FaultStatus,
  MatrixDirection,
  MatrixFault,
  MatrixProject,
  MatrixResult,
  Precision,
  RunSummary,
} from './matrix-types.ts';
export { precisionOf, renderTable, writeReport } from './matrix-table.ts';

/**
 * Workers of the matrix child by default. Its time goes to starting a worker per fault and to
 * waiting (delivery windows, retry schedules), not to computing. On two cores, both directions with
 * their clean runs took 9.2 min with 4 workers and 7.6 min with 6; but with 6, two test commands
 * sharing the machine failed three faults on other clauses (the model-based test's waits, several of
 * them side by side with its lanes), so 4 it is.
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
    const metaKey = FAULT_META[d.name];
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
      const grep = o.scope === 'area' ? `@${f.area}-\\d+\\b` : clauseGrep(declared, d.observedClauses ?? []);
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
 * The tests a fault runs on: those tagged with one of its clauses; for a clause an observer adds to every test's
 * tags, those whose titles cite it (the title path, before the tags, is what `(?<!@)` admits). \b keeps HOST-1 from
 * selecting HOST-12.
 */
export function clauseGrep(declared: readonly string[], observed: readonly string[]): string {
  const tagged = declared.filter((c) => !observed.includes(c));
  const cited = declared.filter((c) => observed.includes(c));
  return [
    ...(tagged.length ? [`@(?:${tagged.join('|')})\\b`] : []),
    ...(cited.length ? [`(?<![@\\w-])(?:${cited.join('|')})\\b`] : []),
  ].join('|');
}

/**
 * The order the child dispatches the projects in, so that no long test makes the run's tail while the
 * other workers sit idle: first the faults the model-based test proves (its sequences replay and shrink:
 * the run's longest single tests, up to 50 s), then the host direction (its tests wait longest: answer
 * and read deadlines), then the rest.
 */
const dispatchOrder = (p: MatrixProject): number =>
  projectMeta(p.metadata).ccsStatefulRuns !== undefined ? 0 : p.direction === 'host' ? 1 : 2;

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
      // dispatched longest first (dispatchOrder); the verdicts below keep the plan's order
      CCS_MATRIX_PLAN: JSON.stringify([...projects].sort((a, b) => dispatchOrder(a) - dispatchOrder(b))),
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
  const { tests: ran, error } = readChildResults(resultsPath, run, deadlineMs);
  // the traffic judge's record of each project, from the journals its workers left (runJournalDir)
  const tests = [...ran, ...judgedOutcomes(`${resultsPath}.journal`)];
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
    // the clauses the traffic judge decided passed that the run failed: what `observe --from` of this fault's
    // journals would have passed (the judge's own failures are the run's by construction); a clause it passed
    // only partly (a part of it the driver's, judge/service/driver-parts.ts) it did not decide whole
    const judged = verdicts.find(({ t }) => t.file === JUDGE_FILE)?.v;
    const judgeMissed = [...(judged ?? [])]
      .filter(([id, o]) => o.status === 'passed' && o.notSeen.length === 0 && failedClauses.includes(id))
      .map(([id]) => id)
      .sort();
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
      judgeMissed,
    });
  }
  return { clean, faults, ...(error ? { error } : {}), durationMs };
}
