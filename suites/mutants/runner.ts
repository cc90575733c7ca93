/**
 * The mutation matrix (issue 5 item 5): the suites run once clean and once per seeded fault, each
 * as a child `npx playwright test --project <project>` with the fault in the environment, and the
 * child's JSON report says which tests failed and which clauses they cite. A fault is CAUGHT when
 * at least one failing test cites its clause; it fails the matrix when missed, or when only tests
 * of unrelated clauses fail. The clean run must fail nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseResultsText, type TestOutcome } from './results.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface MatrixFault { name: string; clause: string; area: string; sentence?: string }
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

export type FaultStatus = 'caught' | 'missed' | 'unrelated-only' | 'error';
export interface RunSummary { passed: number; failed: number; skipped: number; durationMs: number; files: string[]; exitCode: number | null; timedOut: boolean; error?: string }
export interface FaultResult extends RunSummary {
  direction: 'service' | 'host'; fault: string; clause: string; sentence?: string; status: FaultStatus;
  /** Failing tests that cite the fault's clause. */
  caughtBy: string[];
  /** Failing tests that do not cite it. */
  alsoFailed: Array<{ title: string; clauses: string[] }>;
}
export interface CleanResult extends RunSummary { direction: 'service' | 'host'; ok: boolean; failures: Array<{ title: string; clauses: string[]; error?: string }> }
export interface MatrixResult { ok: boolean; clean: CleanResult[]; faults: FaultResult[]; table: string; reportPath: string; durationMs: number }

export interface RunOptions {
  concurrency?: number; reportDir?: string; deadlineMs?: number; onProgress?: (line: string) => void;
  /** Extra arguments for the child (tests of the runner pass a --grep). */
  extraArgs?: string[];
}

export const DEFAULT_FAULT_DEADLINE_MS = 8 * 60_000;

/** Environment of a child run: nothing that makes Playwright think the child is one of its workers. */
export function childEnv(base: NodeJS.ProcessEnv, set: Record<string, string>, unset: string[] = []): NodeJS.ProcessEnv {
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

/**
 * The spec files a fault's child runs: every file with a test tagged with a clause of the fault's
 * area (@<AREA>-n). That is enough: a fault is caught only by a failing test citing its clause,
 * every such test carries the tag @<clause> and so sits in one of these files, and the verdict
 * "caught only by tests of unrelated clauses" needs nothing else either. Files of other areas
 * cannot change the verdict, and the clean run (all files) proves they pass on the reference.
 */
export function filesForArea(testDir: string, area: string, root = REPO_ROOT): string[] {
  const dir = join(root, testDir);
  if (!existsSync(dir)) return [];
  const tag = new RegExp(`@${area}-\\d+\\b`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.spec.ts'))
    .filter((f) => tag.test(readFileSync(join(dir, f), 'utf8')))
    .map((f) => relative(root, join(dir, f)).split('\\').join('/'))
    .sort();
}

async function runChild(o: { project: string; files: string[]; env: NodeJS.ProcessEnv; reportDir: string; deadlineMs: number; extraArgs?: string[] }): Promise<RunSummary & { tests: TestOutcome[] }> {
  rmSync(o.reportDir, { recursive: true, force: true });
  mkdirSync(o.reportDir, { recursive: true });
  const resultsPath = join(o.reportDir, 'results.json');
  const args = ['playwright', 'test', `--project=${o.project}`, '--reporter=json', ...(o.extraArgs ?? []), ...o.files];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npx', args, { cwd: REPO_ROOT, env: { ...o.env, PLAYWRIGHT_JSON_OUTPUT_FILE: resultsPath, PLAYWRIGHT_JSON_OUTPUT_NAME: resultsPath }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => { if (err.length < 200) err.push(c); });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The child leads its own process group (detached): end it and its workers, by its id only.
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    }, o.deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const durationMs = performance.now() - started;
      let text = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
      if (!text.trim()) { text = Buffer.concat(out).toString('utf8'); if (text.trim()) writeFileSync(resultsPath, text); }
      const base = { durationMs, files: o.files, exitCode: code, timedOut };
      try {
        const { tests, errors } = parseResultsText(text);
        const count = (x: string) => tests.filter((t) => t.outcome === x).length;
        const summary: RunSummary & { tests: TestOutcome[] } = { ...base, passed: count('passed'), failed: count('failed') + count('flaky'), skipped: count('skipped'), tests };
        if (timedOut) summary.error = `no result within ${Math.round(o.deadlineMs / 1000)} s: the child was killed`;
        else if (errors.length) summary.error = errors[0]!.split('\n')[0]!.slice(0, 300);
        resolve(summary);
      } catch (e) {
        const stderr = Buffer.concat(err).toString('utf8').split('\n').filter((l) => l.trim() && !/npm warn/i.test(l)).slice(-3).join(' | ');
        resolve({ ...base, passed: 0, failed: 0, skipped: 0, tests: [], error: timedOut ? `no result within ${Math.round(o.deadlineMs / 1000)} s: the child was killed` : `${(e as Error).message}${stderr ? `; stderr: ${stderr.slice(0, 300)}` : ''}` });
      }
    });
  });
}

export async function runClean(d: MatrixDirection, o: RunOptions = {}): Promise<CleanResult> {
  const reportDir = join(resolve(REPO_ROOT, o.reportDir ?? process.env.CCS_REPORT_DIR ?? 'reports/out'), 'mutants', d.name === 'service' ? 'clean' : `${d.name}-clean`);
  const r = await runChild({ project: d.project, files: [], env: childEnv(process.env, { CCS_REPORT_DIR: reportDir, CCS_WORKERS: '1' }, [d.faultEnv, 'CCS_TARGET', 'CCS_HOST_TARGET']), reportDir, deadlineMs: o.deadlineMs ?? DEFAULT_FAULT_DEADLINE_MS, ...(o.extraArgs ? { extraArgs: o.extraArgs } : {}) });
  const failures = r.tests.filter((t) => t.outcome === 'failed' || t.outcome === 'flaky').map((t) => ({ title: t.title, clauses: t.clauses, ...(t.error ? { error: t.error } : {}) }));
  const { tests: _t, ...summary } = r;
  void _t;
  return { ...summary, direction: d.name, ok: !r.error && failures.length === 0 && r.passed > 0, failures };
}

export async function runFault(d: MatrixDirection, fault: MatrixFault, o: RunOptions = {}): Promise<FaultResult> {
  const reportDir = join(resolve(REPO_ROOT, o.reportDir ?? process.env.CCS_REPORT_DIR ?? 'reports/out'), 'mutants', fault.name);
  const files = filesForArea(d.testDir, fault.area);
  const base = { direction: d.name, fault: fault.name, clause: fault.clause, ...(fault.sentence ? { sentence: fault.sentence } : {}) };
  if (files.length === 0) {
    return { ...base, status: 'missed', caughtBy: [], alsoFailed: [], passed: 0, failed: 0, skipped: 0, durationMs: 0, files, exitCode: null, timedOut: false, error: `no spec file in ${d.testDir} has a test tagged @${fault.area}-*` };
  }
  // Only the area's tests of those files (--grep matches tags): every test citing the clause is
  // among them, and so is every other test of the area the fault could disturb.
  const extraArgs = [...(o.extraArgs ?? []), `--grep=@${fault.area}-\\d+`];
  const r = await runChild({ project: d.project, files, env: childEnv(process.env, { [d.faultEnv]: fault.name, CCS_REPORT_DIR: reportDir, CCS_WORKERS: '1' }, ['CCS_TARGET', 'CCS_HOST_TARGET']), reportDir, deadlineMs: o.deadlineMs ?? DEFAULT_FAULT_DEADLINE_MS, extraArgs });
  const failing = r.tests.filter((t) => t.outcome === 'failed' || t.outcome === 'flaky');
  const caughtBy = failing.filter((t) => t.clauses.includes(fault.clause)).map((t) => t.title);
  const alsoFailed = failing.filter((t) => !t.clauses.includes(fault.clause)).map((t) => ({ title: t.title, clauses: t.clauses }));
  const status: FaultStatus = caughtBy.length ? 'caught' : r.error && failing.length === 0 ? 'error' : failing.length ? 'unrelated-only' : 'missed';
  const { tests: _t, ...summary } = r;
  void _t;
  return { ...base, ...summary, status, caughtBy, alsoFailed };
}

/** Runs tasks with at most `n` at a time, keeping the order of results. */
export async function pool<T, R>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(n, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return results;
}

export function renderTable(clean: CleanResult[], faults: FaultResult[]): string {
  const rows: string[][] = [['direction', 'fault', 'clause', 'verdict', 'by which tests']];
  for (const c of clean) rows.push([c.direction, '(clean)', '-', c.ok ? 'passes' : `FAILS (${c.failed} failed${c.error ? `; ${c.error}` : ''})`, c.failures.map((f) => f.title).slice(0, 3).join('; ')]);
  for (const f of faults) {
    const verdict = f.status === 'caught' ? 'caught' : f.status === 'missed' ? 'MISSED' : f.status === 'unrelated-only' ? 'CAUGHT ONLY BY UNRELATED TESTS' : `ERROR: ${f.error ?? ''}`;
    const by = f.status === 'caught' ? f.caughtBy.slice(0, 2).join('; ') + (f.caughtBy.length > 2 ? ` (+${f.caughtBy.length - 2})` : '') : f.alsoFailed.slice(0, 2).map((a) => `${a.title} [${a.clauses.join(',')}]`).join('; ');
    rows.push([f.direction, f.fault, f.clause, verdict, by]);
  }
  const widths = rows[0]!.map((_, i) => Math.min(48, Math.max(...rows.map((r) => r[i]!.length))));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.slice(0, widths[i]!).padEnd(widths[i]!))).join('  ')).join('\n');
}

export function writeReport(path: string, result: Omit<MatrixResult, 'table' | 'reportPath'>): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify({ generatedAt: new Date().toISOString(), ...result }, null, 2));
}
