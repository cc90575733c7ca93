/**
 * Per-check attribution (PITFALLS "Verdicts"): what one test says about each clause it cites,
 * decided by the checks that name the clause (spec/checks.ts), never by the test as a whole.
 *
 *   failed         a check naming the clause failed
 *   passed         at least one check naming it ran, and every one held
 *   blocked        not decided: the test failed on another clause's check before any check of
 *                  this one ran ("blocked: SIGN-12 failed first"), or it was stopped by an error
 *                  that no check names (a thrown error, a timeout), which leaves every clause it
 *                  cites undecided
 *   not-exercised  the test did not run, or ran without checking the clause (with the reason): a clause
 *                  whose only checks are not-exercised notes stays so even when the test failed, and so
 *                  does one never checked in a test that failed only soft checks and went on to its end
 *
 * A test that passed or failed a clause may also have noted parts of it it could not check
 * (`notSeen`): the clause is then exercised only partly (reports/exercised.ts).
 *
 * Pure; shared by the clause reporter and the mutation matrix.
 */
import { checkHead, checkWords, type CheckHint, type CheckRecord } from '../spec/index.ts';
import { seenFirst } from './failure-lines.ts';

export type TestClauseStatus = 'passed' | 'failed' | 'blocked' | 'not-exercised';

export interface TestClauseOutcome {
  status: TestClauseStatus;
  /** failed: the words of each failed check. */
  failures: string[];
  /** failed: the failed check records themselves (grouped into one line per check by the reports). */
  failedChecks: CheckRecord[];
  /** failed: the hints of the failed checks (a known library or mistake), each once. */
  hints: CheckHint[];
  /** blocked or not-exercised: why. */
  reasons: string[];
  /** Checks that could not tell (warnings), shown with any status. */
  warnings: string[];
  /** passed or failed: the reasons of the clause's not-exercised checks beside the ones that ran (each once). */
  notSeen: string[];
}

/** What attribution needs of a test (a subset of TestRecord, so the matrix can build it from JSON). */
export interface AttributableTest {
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted' | 'not-run';
  ok: boolean;
  /** The clauses of its tags. */
  clauses: string[];
  checks: CheckRecord[];
  errors: string[];
  skipReasons: string[];
}

/**
 * The error's first line, what was seen before the request it quotes (whose URL gives way first), then
 * cut; without its hint, which the reports say once for the run (build-report.ts runHints).
 */
function firstLine(s: string): string {
  const first =
    s
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? s;
  const line = seenFirst(first.replace(/\. Hint: .*$/, ''));
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}

/** Each hint once, in the order first seen. */
export function uniqueHints(hints: readonly CheckHint[]): CheckHint[] {
  const seen = new Map<string, CheckHint>();
  for (const h of hints)
    if (!seen.has(`${h.hint}\u0000${h.recipe ?? ''}`)) seen.set(`${h.hint}\u0000${h.recipe ?? ''}`, h);
  return [...seen.values()];
}

/**
 * Whether a failed test went on to its end past its failures: each failed check was soft (checks.ts marks a
 * failure that ended the test stopped) and each error of the test is one of them (none thrown, no timeout). Then
 * a clause it cites with no check of its own was not stopped by them: the test, run to its end, made no check
 * of it (not exercised there), as a passing run of it would not.
 */
function wentOnPastFailures(t: AttributableTest, failedChecks: readonly CheckRecord[]): boolean {
  if (t.status !== 'failed' || failedChecks.length === 0 || t.errors.length === 0) return false;
  if (failedChecks.some((c) => c.stopped === true)) return false;
  const heads = failedChecks.map(checkHead);
  return t.errors.every((e) => heads.some((h) => e.includes(h)));
}

/** The clauses a test speaks of: its tags and every clause one of its checks names. */
export function citedClauses(t: Pick<AttributableTest, 'clauses' | 'checks'>): string[] {
  return [...new Set([...t.clauses, ...t.checks.flatMap((c) => c.clauses)])];
}

export function attributeTest(t: AttributableTest): Map<string, TestClauseOutcome> {
  const out = new Map<string, TestClauseOutcome>();
  const ran = t.status !== 'skipped' && t.status !== 'not-run' && t.status !== 'interrupted';
  const failedChecks = t.checks.filter((c) => c.outcome === 'failed');
  const failedClauses = [...new Set(failedChecks.flatMap((c) => c.clauses))];
  const ranToEnd = wentOnPastFailures(t, failedChecks);
  for (const id of citedClauses(t)) {
    const mine = t.checks.filter((c) => c.clauses.includes(id));
    const o: TestClauseOutcome = {
      status: 'not-exercised',
      failures: [],
      failedChecks: [],
      hints: [],
      reasons: [],
      warnings: mine.filter((c) => c.outcome === 'warning').map(checkWords),
      notSeen: [],
    };
    const failed = mine.filter((c) => c.outcome === 'failed');
    const held = mine.filter((c) => c.outcome === 'passed' || c.outcome === 'warning');
    const notes = [
      ...new Set(mine.filter((c) => c.outcome === 'not-exercised').map((c) => c.reason ?? 'no reason given')),
    ];
    if (failed.length > 0) {
      o.status = 'failed';
      o.failures = failed.map(checkWords);
      o.failedChecks = failed;
      o.hints = uniqueHints(
        failed.flatMap((c) => (c.hint ? [{ hint: c.hint, ...(c.recipe ? { recipe: c.recipe } : {}) }] : [])),
      );
      o.notSeen = notes;
    } else if (!ran) {
      o.reasons = t.skipReasons.length > 0 ? [...t.skipReasons] : ['the test did not run'];
    } else if (mine.length > 0 && mine.every((c) => c.outcome === 'not-exercised')) {
      // The test said why it could not check the clause (signing off; the host observer that saw no request
      // breaking a rule): not exercised, whether or not the test then failed on another clause.
      o.reasons = mine.map((c) => c.reason ?? 'no reason given');
    } else if (!t.ok && failedClauses.length === 0) {
      // Stopped by something no check names (a thrown error, a timeout): nothing it cites is decided,
      // not even a clause whose checks so far held (more of them may have followed).
      o.status = 'blocked';
      o.reasons = [
        `blocked: the test stopped before its checks of ${id} were done (${firstLine(t.errors[0] ?? `test ${t.status}`)})`,
      ];
    } else if (held.length > 0) {
      o.status = 'passed';
      // What the test could not check of the clause beside what it did: the clause passes only partly.
      o.notSeen = notes;
    } else if (!t.ok && !ranToEnd) {
      o.status = 'blocked';
      o.reasons = [`blocked: ${failedClauses.join(', ')} failed first`];
    } else {
      const reasons = mine.filter((c) => c.outcome === 'not-exercised').map((c) => c.reason ?? 'no reason given');
      o.reasons = reasons.length > 0 ? reasons : [`the test ran but made no check of ${id}`];
    }
    out.set(id, o);
  }
  return out;
}
