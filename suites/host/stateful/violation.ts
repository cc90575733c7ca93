/**
 * How a step of a host sequence breaks a rule: a HostStepViolation names the clause its own condition decides
 * and the fault-model check id of that condition. Thrown inside a sequence (fast-check runs sequences again
 * while shrinking), reported once at the end of the run (report.ts).
 */
import type { ClauseId, HostCheckId } from '../../../spec/index.ts';
import type { DataRead } from '../../../judge/host/index.ts';

export class HostStepViolation extends Error {
  constructor(
    readonly clause: ClauseId,
    readonly id: HostCheckId,
    readonly rule: string,
    readonly expected: string,
    readonly seen: string,
  ) {
    super(`${clause}: ${rule}: expected ${expected}, got ${seen}`);
    this.name = 'HostStepViolation';
  }
}

/**
 * Not a verdict: another lane's sequence failed while this one ran side by side, so the exploration ended and
 * this sequence stops before its next step (a step against a receiver that holds requests waits its 10 s).
 */
export class ExplorationEnded extends Error {
  constructor() {
    super("another lane's sequence failed: the exploration ended before this step");
    this.name = 'ExplorationEnded';
  }
}

/** How often each clause's conditions held over the run (a clause never checked is not exercised). */
export class HostTally {
  readonly held = new Map<ClauseId, number>();
  /** Reads a script answered 400 or 401, watched to the run's end for a retry (HOST-22, read-evidence.ts). */
  readonly refused: Array<{ read: DataRead; testId: string; seenAtMs: number }> = [];
  add(clause: ClauseId): void {
    this.held.set(clause, (this.held.get(clause) ?? 0) + 1);
  }
}

/** Throws unless ok; counts the condition as held otherwise. */
export function must(
  tally: HostTally,
  ok: boolean,
  v: { clause: ClauseId; id: HostCheckId; rule: string; expected: string; seen: string },
): void {
  if (!ok) throw new HostStepViolation(v.clause, v.id, v.rule, v.expected, v.seen);
  tally.add(v.clause);
}
