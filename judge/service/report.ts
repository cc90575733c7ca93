/**
 * The judge's checks as the clause reporter's input: one record per clause the traffic spoke of
 * (a TestRecord in the project `service`, so the report covers the service side and the host's
 * clauses are not-in-run), fed to the same buildReport as `run`, without Playwright.
 */
import { buildReport, loadClauses, type ConformanceReport, type TestRecord } from '../../reports/index.ts';
import { clauseCatalogueVersion, harnessVersion } from '../../spec/index.ts';
import type { Judgement } from './judge.ts';

export const OBSERVE_FILE = 'observe';

/** Why a clause no check of the judge names was not decided. */
export const NOT_FROM_TRAFFIC =
  'not decidable from callback traffic alone: `ccs-conformance run` with a driver decides it';

export interface ObserveReportInput {
  judgement: Judgement;
  runId: string;
  startedAt: string;
  endedAt: string;
  description: string;
  /** The command that judges the same traffic again (observe --from the saved journal): each failure's rerun line. */
  rerun?: string;
}

export async function observeReport(input: ObserveReportInput): Promise<ConformanceReport> {
  const { clauses } = await loadClauses();
  const known = new Set(clauses.map((c) => c.id));
  const tests: TestRecord[] = [];
  for (const [clause, checks] of input.judgement.verdicts.clauses()) {
    if (!known.has(clause)) continue;
    const failed = checks.some((c) => c.outcome === 'failed');
    tests.push({
      title: `observed traffic: ${checks[0]!.rule} (${clause})`,
      file: OBSERVE_FILE,
      line: 0,
      project: 'service',
      clauses: [clause],
      status: failed ? 'failed' : 'passed',
      ok: !failed,
      durationMs: 0,
      errors: [],
      skipReasons: [],
      evidence: [],
      checks,
    });
  }
  for (const o of input.judgement.verdicts.overflow()) {
    const t = tests.find((x) => x.clauses.includes(o.clause));
    t?.errors.push(`${o.clause}: ${o.rule}: ${o.more} more failure(s) not listed`);
  }
  const report = buildReport({
    runId: input.runId,
    startedAt: input.startedAt,
    endedAt: input.endedAt,
    targetDescription: input.description,
    projects: ['service'],
    sides: ['service'],
    clauses,
    tests,
    versions: { harness: harnessVersion(), clauses: clauseCatalogueVersion() },
  });
  for (const r of report.clauses) {
    // `run --grep` would need a driver: the saved journal reproduces an observed verdict
    if (r.reproduction && input.rerun) r.reproduction.command = input.rerun;
    if (r.status !== 'not-exercised' || r.tests.length > 0) continue;
    const unobservable = (r.notExercisedReasons ?? []).filter((x) => x.startsWith('unobservable'));
    r.notExercisedReasons = [NOT_FROM_TRAFFIC, ...unobservable];
  }
  return report;
}
