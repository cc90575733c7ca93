/**
 * The mutation matrix's public entry (`npm run mutants` / `ccs-conformance mutants`):
 * runMutationMatrix runs the clean suites and every seeded fault, prints a table and writes
 * reports/out/mutants.json.
 */
import { join, resolve } from 'node:path';
import { FAULTS } from '../../reference-service/index.ts';
import { pool, renderTable, runClean, runFault, writeReport, REPO_ROOT, type CleanResult, type FaultResult, type MatrixDirection, type MatrixResult, type RunOptions } from './runner.ts';
import { CcsError } from '../../spec/index.ts';

export { parseResults, parseResultsText, clausesOf } from './results.ts';
export type { TestOutcome, Outcome } from './results.ts';
export { runClean, runFault, renderTable, filesForArea, childEnv, pool, REPO_ROOT, DEFAULT_FAULT_DEADLINE_MS } from './runner.ts';
export type { MatrixDirection, MatrixFault, MatrixResult, FaultResult, CleanResult, FaultStatus, RunSummary, RunOptions } from './runner.ts';

/** The service direction: the service suites against the reference service's seeded faults. */
export const serviceDirection: MatrixDirection = {
  name: 'service', project: 'service', faultEnv: 'CCS_FAULTS', testDir: 'suites/service',
  faults: FAULTS.map((f) => ({ name: f.name, clause: f.clause, area: f.area, sentence: f.sentence })),
};

/**
 * The host direction is provided by the host room in suites/mutants/host-direction.ts
 * (export const hostDirection: MatrixDirection); absent, 'host' is reported as not built.
 */
async function hostDirection(): Promise<MatrixDirection | undefined> {
  try {
    const mod = (await import('./host-direction.ts' as string)) as { hostDirection?: MatrixDirection };
    return mod.hostDirection;
  } catch {
    return undefined;
  }
}

export interface MatrixOptions {
  faults?: string[];
  concurrency?: number;
  reportDir?: string;
  direction?: 'service' | 'host' | 'both';
  onProgress?: (line: string) => void;
  /** Per-run deadline (a child still running then is killed and its fault reported as an error). */
  deadlineMs?: number;
}

export async function runMutationMatrix(o: MatrixOptions = {}): Promise<MatrixResult> {
  const started = performance.now();
  const progress = o.onProgress ?? (() => undefined);
  const directions: MatrixDirection[] = [];
  if (o.direction !== 'host') directions.push(serviceDirection);
  if (o.direction === 'host' || o.direction === 'both') {
    const h = await hostDirection();
    if (!h) throw new CcsError('MUTANTS_DIRECTION_MISSING', 'the host direction of the mutation matrix is not built (suites/mutants/host-direction.ts)');
    directions.push(h);
  }
  const known = new Set(directions.flatMap((d) => d.faults.map((f) => f.name)));
  const unknown = (o.faults ?? []).filter((f) => !known.has(f));
  if (unknown.length) throw new CcsError('MUTANTS_FAULT_UNKNOWN', `unknown fault(s): ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  const runOpts: RunOptions = { ...(o.reportDir ? { reportDir: o.reportDir } : {}), ...(o.deadlineMs ? { deadlineMs: o.deadlineMs } : {}), onProgress: progress };
  const tasks: Array<{ kind: 'clean'; d: MatrixDirection } | { kind: 'fault'; d: MatrixDirection; f: MatrixDirection['faults'][number] }> = [];
  for (const d of directions) {
    tasks.push({ kind: 'clean', d });
    for (const f of d.faults) if (!o.faults || o.faults.includes(f.name)) tasks.push({ kind: 'fault', d, f });
  }
  const clean: CleanResult[] = [];
  const faults: FaultResult[] = [];
  await pool(tasks, o.concurrency ?? 2, async (t) => {
    if (t.kind === 'clean') {
      const c = await runClean(t.d, runOpts);
      clean.push(c);
      progress(`${t.d.name} clean run: ${c.ok ? 'passes' : 'FAILS'} (${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped, ${(c.durationMs / 1000).toFixed(1)} s)${c.error ? ` ${c.error}` : ''}`);
    } else {
      const r = await runFault(t.d, t.f, runOpts);
      faults.push(r);
      progress(`${t.d.name} fault ${r.fault} (${r.clause}): ${r.status}${r.caughtBy.length ? ` by ${r.caughtBy.length} test(s)` : ''} (${(r.durationMs / 1000).toFixed(1)} s)${r.error ? ` ${r.error}` : ''}`);
    }
  });
  const order = new Map(tasks.map((t, i) => [t.kind === 'fault' ? t.f.name : `clean:${t.d.name}`, i]));
  faults.sort((a, b) => (order.get(a.fault) ?? 0) - (order.get(b.fault) ?? 0));
  const ok = clean.every((c) => c.ok) && faults.every((f) => f.status === 'caught');
  const table = renderTable(clean, faults);
  const reportPath = join(resolve(REPO_ROOT, o.reportDir ?? process.env.CCS_REPORT_DIR ?? 'reports/out'), 'mutants.json');
  const durationMs = performance.now() - started;
  writeReport(reportPath, { ok, clean, faults, durationMs });
  return { ok, clean, faults, table, reportPath, durationMs };
}
