/**
 * The gate over a written report: MUST failed or blocked (not decided), or a stale expected failure -> 1;
 * SHOULD failed -> warning; not-exercised allowed unless requireAll (then -> 1). A clause of a side
 * the run did not test (status not-in-run) never counts as not exercised. Exit 2 is "no verdict": the
 * CLI's usage and configuration errors, and here a defect of the harness's own tests (harnessErrors: a
 * clause id naming no clause), which says nothing about the target, so it is neither PASS nor exit 1.
 * A clause that passed only partly (a part not exercised: exercised.ts) is a note, or with requireFull
 * and level MUST an error (-> 1), one line each naming what was not seen and why.
 */
import type { ClauseRecord, ConformanceReport } from './model.ts';
import { seenFirst } from './failure-lines.ts';
import { PARTLY, isPartly, partlyWords } from './exercised.ts';

export interface GateOptions {
  requireAll?: boolean;
  /** --require-full: a MUST clause that passed only partly fails the run. */
  requireFull?: boolean;
  /** Sides whose clauses the run could exercise (service for `run`, host for `host`); default the report's `sides`. */
  sides?: string[];
  /** Restrict requireAll and requireFull to these clauses (the --grep / --area selection). */
  selected?: (c: ClauseRecord) => boolean;
}

export interface GateResult {
  exitCode: 0 | 1 | 2;
  /** The harness's own defects: no verdict on the target (exit 2). */
  harnessErrors: string[];
  errors: string[];
  warnings: string[];
  /** Clauses that passed only partly and fail nothing: one line each ("MUST SIGN-9 passed (partly), 3 of 4 ..."). */
  notes: string[];
}

export function applyGate(report: ConformanceReport, options: GateOptions = {}): GateResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const c of report.clauses) {
    if (c.status === 'blocked' && c.level === 'MUST') {
      // What stopped the test, the observation before the request it quotes (failure-lines.ts).
      const why = (c.blockedReasons ?? []).map(seenFirst).join('; ');
      errors.push(`MUST ${c.id} not decided (blocked): ${c.text} (${why})`);
      continue;
    }
    if (c.status !== 'failed') continue;
    const line = `${c.level} ${c.id} failed: ${c.text}${c.reproduction ? ` (rerun: ${c.reproduction.command})` : ''}`;
    if (c.staleExpectation)
      errors.push(
        `${c.id}: expected to fail (${c.staleExpectation.reason}) but it passes: remove it from the expected-outcomes file`,
      );
    else if (c.level === 'MUST') errors.push(line);
    else if (c.level === 'SHOULD') warnings.push(line);
  }
  const harnessDefect = (report.harnessErrors ?? []).length > 0;
  if (report.verdict === 'fail' && errors.length === 0 && !harnessDefect) errors.push('the report verdict is fail');
  if (options.requireAll) {
    const sides = options.sides ?? report.sides;
    const missing = report.clauses.filter(
      (c) =>
        c.status === 'not-exercised' &&
        // An unobservable clause can never be exercised from outside: requiring it would always fail.
        !(c.notExercisedReasons ?? []).some((r) => r.startsWith('unobservable:')) &&
        // A clause of a side not in the run has status not-in-run and is never counted here.
        sides.includes(c.side) &&
        (options.selected === undefined || options.selected(c)),
    );
    for (const c of missing)
      errors.push(`${c.level} ${c.id} not exercised (--require-all): ${(c.notExercisedReasons ?? []).join('; ')}`);
  }
  const notes: string[] = [];
  for (const c of report.clauses) {
    if (!isPartly(c)) continue;
    const required =
      options.requireFull === true &&
      c.level === 'MUST' &&
      (options.sides ?? report.sides).includes(c.side) &&
      (options.selected === undefined || options.selected(c));
    if (required) errors.push(`MUST ${c.id} passed only partly (--require-full): ${partlyWords(c)}`);
    else notes.push(`${c.level} ${c.id} ${PARTLY}, ${partlyWords(c)}`);
  }
  const harnessErrors = [...(report.harnessErrors ?? [])];
  const exitCode = harnessErrors.length > 0 ? 2 : errors.length > 0 ? 1 : 0;
  return { exitCode, harnessErrors, errors, warnings, notes };
}
