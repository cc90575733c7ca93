/**
 * The mutation matrix's public entry (`npm run mutants` / `ccs-conformance mutants`):
 * runMutationMatrix runs the clean suites and every seeded fault in one child Playwright run
 * (a project per fault), returns a table and writes reports/out/mutants.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FAULTS } from '../../reference-service/index.ts';
import {
  planProjects,
  precisionOf,
  renderTable,
  runMatrixChild,
  writeReport,
  REPO_ROOT,
  type MatrixDirection,
  type MatrixResult,
} from './runner.ts';
import { ccsError, loadFaultModel } from '../../spec/index.ts';
import { hostDirection } from './host-direction.ts';
import { readSettings } from '../../spec/index.ts';
import type { ProjectMeta } from '../shared/project-meta.ts';

export { hostDirection };

export { parseResults, parseResultsText, clausesOf } from './results.ts';
export type { TestOutcome, Outcome } from './results.ts';
export { readChildResults, runChildPlaywright, type ChildRun } from './child-run.ts';
export {
  planProjects,
  precisionOf,
  runMatrixChild,
  renderTable,
  childEnv,
  REPO_ROOT,
  DEFAULT_MATRIX_DEADLINE_MS,
  MATRIX_CONFIG,
} from './runner.ts';
export type {
  MatrixDirection,
  MatrixFault,
  MatrixProject,
  MatrixResult,
  FaultResult,
  CleanResult,
  FaultStatus,
  Precision,
  RunSummary,
} from './runner.ts';

/** Check ids of the model-based test (suites/service/stateful/) start so. */
const STATEFUL_CHECK_PREFIX = 'model.';

/**
 * The seeded faults that a check of the model-based test proves (spec/faults/service.yaml rows
 * naming a model.* check). Only their runs include that test: it cites some 35 clauses and takes
 * seconds, and for any other fault the row's own check decides.
 */
function statefulFaults(): Set<string> {
  return new Set(
    loadFaultModel('service')
      .rows.filter((r) => r.check?.startsWith(STATEFUL_CHECK_PREFIX))
      .flatMap((r) => (r.fault ? [r.fault] : [])),
  );
}

/**
 * Sequences of the model-based test in the run of a fault it proves: four times the default, so
 * that a fault whose counterexample few random sequences meet is still caught with a wide margin
 * (the rarest measured meets about one sequence in six to ten: 48 sequences miss it up to about
 * one run in two hundred, 192 under one in a hundred million). A run stops generating at its
 * first failure, so a caught fault costs about what the default does.
 */
export const MATRIX_STATEFUL_RUNS = 192;

/** The service direction: the service suites against the reference service's seeded faults. */
export const serviceDirection: MatrixDirection = (() => {
  const stateful = statefulFaults();
  return {
    name: 'service',
    project: 'service',
    faultEnv: 'CCS_FAULTS',
    testDir: 'suites/service',
    faults: FAULTS.map((f) => ({
      name: f.name,
      clause: f.clause,
      ...(f.also ? { also: f.also } : {}),
      area: f.area,
      sentence: f.sentence,
      ...(stateful.has(f.name)
        ? { metadata: { ccsStatefulRuns: String(MATRIX_STATEFUL_RUNS) } satisfies ProjectMeta }
        : { leaveOut: ['@stateful'] }),
    })),
  };
})();

export interface MatrixOptions {
  faults?: string[];
  /** Workers of the child run. */
  concurrency?: number;
  reportDir?: string;
  direction?: 'service' | 'host' | 'both';
  /** Run the clean projects too (default true). The test command passes false: there the clean
   * runs are the service and host projects themselves, which the mutants projects depend on. */
  clean?: boolean;
  /** 'clause' (default): each fault runs the tests citing its clause; 'area': every test of its area. */
  scope?: 'clause' | 'area';
  onProgress?: (line: string) => void;
  /** Deadline of the whole child run (a child still running then is killed). */
  deadlineMs?: number;
}

export async function runMutationMatrix(o: MatrixOptions = {}): Promise<MatrixResult> {
  const started = performance.now();
  const directions: MatrixDirection[] = [];
  if (o.direction !== 'host') directions.push(serviceDirection);
  if (o.direction === 'host' || o.direction === 'both') {
    directions.push(hostDirection);
  }
  const known = new Set<string>(directions.flatMap((d) => d.faults.map((f) => f.name)));
  const unknown = (o.faults ?? []).filter((f) => !known.has(f));
  if (unknown.length)
    throw ccsError('MUTANTS_FAULT_UNKNOWN', { unknown: unknown.join(', '), known: [...known].join(', ') });
  const reportDir = resolve(REPO_ROOT, o.reportDir ?? readSettings().reportDir);
  const projects = planProjects(directions, {
    ...(o.faults ? { faults: o.faults } : {}),
    clean: o.clean !== false,
    scope: o.scope ?? 'clause',
  });
  const r = await runMatrixChild(directions, projects, {
    reportDir,
    ...(o.concurrency ? { workers: o.concurrency } : {}),
    ...(o.deadlineMs ? { deadlineMs: o.deadlineMs } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });
  const ok =
    !r.error && r.clean.every((c) => c.ok) && r.faults.length > 0 && r.faults.every((f) => f.status === 'caught');
  const table = renderTable(r.clean, r.faults);
  const precision = precisionOf(r.faults);
  const reportPath = join(reportDir, 'mutants.json');
  const durationMs = performance.now() - started;
  writeReport(reportPath, {
    ok,
    clean: r.clean,
    faults: r.faults,
    precision,
    durationMs,
    ...(r.error ? { error: r.error } : {}),
  });
  return {
    ok,
    clean: r.clean,
    faults: r.faults,
    precision,
    table,
    reportPath,
    durationMs,
    ...(r.error ? { error: r.error } : {}),
  };
}

/** Reads the mutants.json a matrix run wrote (the per-fault tests of the test command read it). */
export function readMatrixReport(reportDir: string): MatrixResult & { error?: string } {
  const path = join(resolve(REPO_ROOT, reportDir), 'mutants.json');
  if (!existsSync(path)) throw ccsError('MUTANTS_REPORT_MISSING', { path });
  return { ...(JSON.parse(readFileSync(path, 'utf8')) as MatrixResult), reportPath: path };
}
