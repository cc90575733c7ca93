/**
 * The judge's checks as the clause reporter's input: one record per clause the traffic spoke of
 * (a TestRecord in the project `service`, so the report covers the service side and the host's
 * clauses are not-in-run), fed to the same buildReport as `run`, without Playwright.
 */
import { buildReport, loadClauses, type ConformanceReport, type TestRecord } from '../../reports/index.ts';
import { areaOfClause, clauseCatalogueVersion, harnessVersion } from '../../spec/index.ts';
import type { Judgement } from './judge.ts';

export const OBSERVE_FILE = 'observe';

/** Why a clause no check of the judge names was not decided. */
export const NOT_FROM_TRAFFIC =
  'not decidable from callback traffic alone: `ccs-conformance run` with a driver decides it';

/**
 * What each area's clauses need that callbacks do not carry, so a clause left undecided says what would
 * decide it. Every clause the judge has a check for decides from traffic (or notes what traffic it lacks).
 */
const NEEDS: Record<string, string> = {
  HDR: 'a callback of the kind the clause speaks of (an onComplete retry, say), which the traffic did not hold',
  EVT: 'what the conversation did (saves, deletes, completions, the tool a turn used), which the driver knows',
  HOOK: "the workspace's configured hostBaseUrl and hookPath, and a sandbox's parent, which the driver sets",
  DELIV: "the moment the service was asked to act, and connections refused or reset by the host's side",
  SIGN: "the workspace's configured signing and its local listen pipe, which the driver sets",
  FACTS: 'the conversation the facts shape (its opener, its language, what it shows), read through the driver',
  STATE: "each record's state read back over the data API at each step of a conversation",
  ENV: "the data API's answers (the envelope of data, errors and warnings)",
  EMBED: "requests to the service's embed-tokens route",
  UPLOAD: "requests to the service's upload route",
  DATA: "requests to the service's data API",
  AUTH: "requests to the service's data API with and without a valid token",
  ERR: "the service's error answers to requests made to it",
  PAGE: 'a bulk delete the driver makes, with the number of keys it deletes',
  TOOL: 'tool dispatches a conversation makes, which the driver triggers',
};

/** The reason a clause no check of the judge names was not decided, with what its area needs. */
export function notFromTraffic(clause: string): string {
  const needs = NEEDS[areaOfClause(clause)];
  return needs === undefined
    ? NOT_FROM_TRAFFIC
    : `not decidable from callback traffic alone: it needs ${needs}; \`ccs-conformance run\` with a driver decides it`;
}

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
    r.notExercisedReasons = [notFromTraffic(r.id), ...unobservable];
  }
  return report;
}
