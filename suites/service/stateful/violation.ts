/**
 * How a step of a sequence breaks a rule: a StepViolation names the clause its own condition
 * decides, in words, with the fault-model check id when a row names it. Thrown inside a sequence
 * (fast-check re-runs sequences while shrinking), judged once at the end of the run (run.ts).
 */
import type { ClauseId, ServiceCheckId } from '../../../spec/index.ts';

export class StepViolation extends Error {
  /** stray: an event that should not have come (late ones need the quiet window to be seen). */
  /** hint: the declared data API form to check when the step's request may have been written in another one. */
  readonly hint?: string;
  constructor(
    readonly clause: ClauseId,
    readonly rule: string,
    readonly expected: string,
    readonly seen: string,
    readonly id?: ServiceCheckId,
    readonly kind: 'stray' | 'step' = 'step',
    hint?: string,
  ) {
    super(`${clause}: ${rule}: expected ${expected}, got ${seen}${hint ? `. Hint: ${hint}` : ''}`);
    if (hint !== undefined) this.hint = hint;
    this.name = 'StepViolation';
  }
}

/** How often each clause's conditions held over the run (a clause never checked is not exercised). */
export class Tally {
  readonly held = new Map<ClauseId, number>();
  add(clause: ClauseId): void {
    this.held.set(clause, (this.held.get(clause) ?? 0) + 1);
  }
}

export interface Judge {
  tally: Tally;
}

/** Throws a StepViolation unless `ok`; counts the condition as held otherwise. */
export function must(
  j: Judge,
  ok: boolean,
  clause: ClauseId,
  rule: string,
  words: { expected: string; seen: string; hint?: string },
  o: { id?: ServiceCheckId; kind?: 'stray' | 'step' } = {},
): void {
  if (!ok) throw new StepViolation(clause, rule, words.expected, words.seen, o.id, o.kind, words.hint);
  j.tally.add(clause);
}
