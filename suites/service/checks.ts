/**
 * Mock-host verdicts as checks (suites/shared/checks.ts): a verdict's sentence is what was seen,
 * and the check names the clause its condition decides. The header checks the mock host computed
 * on a callback's arrival each name their own clause; a test checks those of its own clauses.
 */
import type { JournalEntry, Verdict } from '../../mock-host/index.ts';
import { check, type ClauseRef } from '../shared/index.ts';
import type { ClauseId } from '../../spec/index.ts';

/** A check of `clause` that the verdict holds; `expected` says in words what the rule wanted. */
export function checkVerdict(
  clause: ClauseRef,
  rule: string,
  v: Verdict,
  o: { expected?: string; soft?: boolean } = {},
): boolean {
  return (o.soft ? check.soft : check)(clause, rule).that(v.ok, { expected: o.expected ?? rule, seen: v.sentence });
}

/**
 * The mock host's arrival checks of a callback (HDR-*, HOOK-1, TOOL-*, FACTS-*) for these clauses, each a soft check.
 */
export function checkArrivalChecks(e: JournalEntry, clauses: readonly ClauseId[]): void {
  const where = `callback #${e.seq} (${e.event ?? 'no event'} at ${e.path})`;
  for (const c of e.checks ?? []) {
    if (!clauses.includes(c.clause as ClauseId)) continue;
    check.soft(c.clause as ClauseId, `${where}: ${c.name}`).that(c.ok, { expected: c.name, seen: c.detail });
  }
}
