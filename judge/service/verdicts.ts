/**
 * The judge's checks, gathered per clause as the clause reporter reads them (spec/checks.ts
 * CheckRecord): every condition names the clause it decides and the check id of the fault model
 * (spec/faults/service.yaml) that the suites give the same rule. Passing records of one rule are kept
 * once with a count; failures are kept one by one up to a bound, so a stream of 100,000 callbacks
 * makes a report of bounded size.
 */
import type { CheckRecord, ClauseId, ServiceCheckId } from '../../spec/index.ts';

const MAX_FAILURES_PER_RULE = 20;

export interface CheckWords {
  /** The fault model's id of the check (spec/faults/service.yaml): the rows it catches name it. */
  id?: ServiceCheckId;
  expected?: string;
  seen?: string;
}

/**
 * The words of a failure (`that`'s last argument), worked out only when the condition failed, so the judge
 * of 100,000 passing callbacks builds no sentence it throws away. Given as a call's argument, never stored
 * in a named binding first: the TypeScript loader names every named function it compiles, a cost per
 * closure.
 */
export type FailureWords = () => Pick<CheckWords, 'expected' | 'seen'>;

export class Verdicts {
  private readonly byClause = new Map<ClauseId, CheckRecord[]>();
  /** the passing record of each rule, by clause, rule and check id ('' for none): no key is built per check */
  private readonly passes = new Map<string, Map<string, Map<string, CheckRecord>>>();
  private readonly failures = new Map<string, number>();
  /**
   * The passing record last counted for each rule text, with its clause and id: one lookup for the
   * usual check (a rule text seldom serves two clauses or ids), where the maps above take three.
   */
  private readonly lastPass = new Map<string, { clause: string; id: string; record: CheckRecord }>();

  /** One condition of a rule of `clause`, held or not. */
  that(clause: ClauseId, rule: string, ok: boolean, words: CheckWords = {}, failure?: FailureWords): boolean {
    if (ok) {
      const id = words.id ?? '';
      const last = this.lastPass.get(rule);
      if (last !== undefined && last.clause === clause && last.id === id) {
        last.record.count = (last.record.count ?? 1) + 1;
        return true;
      }
      let byRule = this.passes.get(clause);
      if (byRule === undefined) this.passes.set(clause, (byRule = new Map()));
      let byId = byRule.get(rule);
      if (byId === undefined) byRule.set(rule, (byId = new Map()));
      let record = byId.get(id);
      if (record) record.count = (record.count ?? 1) + 1;
      else {
        record = {
          clauses: [clause],
          rule,
          outcome: 'passed',
          count: 1,
          ...(words.id ? { id: words.id } : {}),
        };
        byId.set(id, record);
        this.list(clause).push(record);
      }
      this.lastPass.set(rule, { clause, id, record });
      return true;
    }
    const key = `${clause}\u0000${words.id ?? ''}\u0000${rule}`;
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    if (n <= MAX_FAILURES_PER_RULE) {
      const { expected, seen } = failure ? { ...words, ...failure() } : words;
      this.list(clause).push({
        clauses: [clause],
        rule,
        outcome: 'failed',
        ...(words.id ? { id: words.id } : {}),
        ...(expected !== undefined ? { expected } : {}),
        ...(seen !== undefined ? { seen } : {}),
      });
    }
    return false;
  }

  /** The traffic could not decide `clause`: why, and what would exercise it. */
  notExercised(clause: ClauseId, reason: string, rule = 'decided from the observed traffic'): void {
    this.list(clause).push({ clauses: [clause], rule, outcome: 'not-exercised', reason });
  }

  /** The judge cannot tell whether the rule holds (never a failure, always shown). */
  warn(clause: ClauseId, rule: string, reason: string): void {
    this.list(clause).push({ clauses: [clause], rule, outcome: 'warning', reason });
  }

  /** Failures of a rule past the bound, by clause: said in the report so none is hidden. */
  overflow(): Array<{ clause: string; rule: string; more: number }> {
    return [...this.failures]
      .filter(([, n]) => n > MAX_FAILURES_PER_RULE)
      .map(([key, n]) => {
        const [clause, , rule] = key.split('\u0000') as [string, string, string];
        return { clause, rule, more: n - MAX_FAILURES_PER_RULE };
      });
  }

  clauses(): Map<ClauseId, CheckRecord[]> {
    return this.byClause;
  }

  /** Whether any check of `clause` passed or failed (a decision, not a note). */
  decided(clause: ClauseId): boolean {
    return (this.byClause.get(clause) ?? []).some((c) => c.outcome === 'passed' || c.outcome === 'failed');
  }

  private list(clause: ClauseId): CheckRecord[] {
    let l = this.byClause.get(clause);
    if (!l) {
      l = [];
      this.byClause.set(clause, l);
    }
    return l;
  }
}
