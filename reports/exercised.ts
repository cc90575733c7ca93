/**
 * Partial verdicts: how much of a decided clause its citing tests exercised (model.ts Exercised), and the
 * words every report and the console use for a clause that passed only partly: a test citing it was
 * skipped, did not run or could only note why it could not check it, or a test that passed it noted a
 * check of it it could not make. Such a clause is still `passed` (a gate reading the status keeps its
 * meaning); `exercised` says it was partly, and `--require-full` fails the run on a MUST one.
 */
import type { ClauseRecord, Exercised } from './model.ts';
import type { TestClauseOutcome } from './attribution.ts';

/** The status words of a clause that passed only partly. */
export const PARTLY = 'passed (partly)';

/** The parts of a clause its citing tests exercised, with what each part not seen was and why. */
export function exercisedOf(citing: ReadonlyArray<{ title: string; outcome: TestClauseOutcome }>): Exercised {
  let seen = 0;
  const notSeen: NonNullable<Exercised['notSeen']> = [];
  for (const { title, outcome } of citing) {
    if (outcome.status === 'passed' || outcome.status === 'failed') {
      seen += 1;
      for (const reason of outcome.notSeen) notSeen.push({ test: title, reason });
    } else {
      notSeen.push({ test: title, reason: [...new Set(outcome.reasons)].join('; ') || 'no reason given' });
    }
  }
  return { seen, of: seen + notSeen.length, ...(notSeen.length > 0 ? { notSeen } : {}) };
}

/** A clause that passed, but not every part of it was exercised. */
export function isPartly(c: Pick<ClauseRecord, 'status' | 'exercised'>): boolean {
  return c.status === 'passed' && c.exercised !== undefined && c.exercised.seen < c.exercised.of;
}

/** The clauses of a report that passed only partly, in the report's order. */
export function partlyClauses(clauses: readonly ClauseRecord[]): ClauseRecord[] {
  return clauses.filter(isPartly);
}

/**
 * What was not seen, grouped by reason: 'capability jwksRotation not offered by the target, in "rotation
 * picks up the new kid (SIGN-9)"', each group once.
 */
export function notSeenGroups(e: Exercised): string[] {
  const byReason = new Map<string, string[]>();
  for (const { test, reason } of e.notSeen ?? []) {
    const tests = byReason.get(reason) ?? [];
    if (!tests.includes(test)) tests.push(test);
    byReason.set(reason, tests);
  }
  return [...byReason].map(([reason, tests]) => `${reason}, in ${tests.map((t) => `"${t}"`).join(', ')}`);
}

/** "3 of 4 exercised" */
export function fractionWords(e: Exercised): string {
  return `${e.seen} of ${e.of} exercised`;
}

/** "3 of 4 exercised; not seen: <reason>, in "<test>"; ..." (one line). */
export function partlyWords(c: Pick<ClauseRecord, 'exercised'>): string {
  const e = c.exercised;
  if (e === undefined) return '';
  const groups = notSeenGroups(e);
  return `${fractionWords(e)}${groups.length > 0 ? `; not seen: ${groups.join('; ')}` : ''}`;
}
