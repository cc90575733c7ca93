/**
 * What every command of the model-based test shares: the Step (its words in the script, then what it
 * does), a record in the script's words, the wait for a step's callbacks and the event trail of a
 * conversation (section 6 sequences, coverage.ts).
 */
import type fc from 'fast-check';
import type { Expected } from './ledger.ts';
import type { End, Model } from './model.ts';
import type { Real } from './real.ts';
import type { DecidedBy } from './transitions.ts';

/** One command: its words in the script, then what it does. */
export abstract class Step implements fc.AsyncCommand<Model, Real> {
  abstract check(m: Readonly<Model>): boolean;
  /** why: what the step is taken for, in the script (a steered step names its row, commands-steer.ts). */
  async run(m: Model, r: Real, why?: string): Promise<void> {
    r.log.begin(why === undefined ? this.describe(m) : `${this.describe(m)} (${why})`);
    r.stepStartedMs = Date.now();
    r.counts.set(this.constructor.name, (r.counts.get(this.constructor.name) ?? 0) + 1);
    await this.act(m, r);
  }
  protected abstract act(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
  /** The command with its references resolved against the model, for the script. */
  describe(_m: Readonly<Model>): string {
    return this.toString();
  }
}

/** A record in the script's words: its model number, class and key. */
export function named(rec: { id: number; end: End; key?: string } | undefined): string {
  return rec ? `record #${rec.id} (${rec.end}${rec.key ? ` ${rec.key}` : ''})` : 'no record';
}

export const who = (u: number) => `user#${u}`;

/** Waits for the step's callbacks (deadline from timing), judging whatever the hook received meanwhile. */
export function settle(r: Real, expected: Expected[] = []): Promise<void> {
  for (const x of expected) x.since = r.stepStartedMs;
  return r.ledger.settle(expected, r.timing.deliveryDeadlineMs());
}

/**
 * The step's callbacks arrived: the conversation's event trail goes on (section 6 sequences, coverage.ts); by: who
 * decided what the event names, for a trigger that leaves it to the service.
 */
export function trail(r: Real, conversationId: number, event: string, by?: DecidedBy): void {
  r.coverage.event(r.sequenceTag, conversationId, event, by);
}
