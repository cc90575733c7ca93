/**
 * Steered steps: a command that names a row of section 3's table or a mixed-scope trigger
 * (transitions.ts) and, when it runs, takes the one next step toward it from the state the model is
 * in: open a conversation, save new List instances, complete, delete a touched instance, edit a
 * DELIVERED record, then the row's own trigger. A few of them among the random commands reach the
 * rows random sequences meet least (a scope of PENDING and DELIVERED records, a completion after a
 * chat delete of one of several touched instances) in every default run. Each is one step of the
 * script, resolved from the model, so shrinking drops the ones a failure does not need, like any
 * other command, and a replay takes the same steps.
 */
import { LIST, SETTING, type End, type Model } from './model.ts';
import type { Real } from './real.ts';
import { Open, Turn } from './commands-chat.ts';
import { Delete, ScopeDelete } from './commands-delete.ts';
import { Close, Complete } from './commands-end.ts';
import { Hold } from './commands-host.ts';
import { Step, who } from './commands-step.ts';
import { RestWrite } from './commands-write.ts';

/** The rows steered to: the mixed-scope triggers, and the chat delete of a DELIVERED record (the rarest row). */
export const GOALS = ['M1', 'M2', 'M3', 'M4', 'T6'] as const;
export type Goal = (typeof GOALS)[number];

const WORDS: Record<Goal, string> = {
  M1: 'a scope delete over PENDING and DELIVERED records',
  M2: 'a completion after a chat delete of one of several touched instances',
  M3: 'a close without completing after a turn that saved',
  M4: 'a completion of a DELIVERED record edited after its completion',
  T6: 'a chat delete of a DELIVERED record',
};

export class Steer extends Step {
  /** variant picks among the ways (which record, which field, REST or chat for a PENDING record of M1). */
  constructor(
    readonly goal: Goal,
    readonly user: number,
    readonly variant: number,
    readonly how: 'interrupt' | 'sweep',
  ) {
    super();
  }

  check(m: Readonly<Model>): boolean {
    return this.next(m)?.check(m) === true;
  }

  toString(): string {
    return `a step of ${who(this.user)} toward ${this.goal} (${WORDS[this.goal]}), variant ${this.variant}`;
  }

  /** The step it resolves to runs as itself: its words and counts in the script, the goal beside them. */
  override async run(m: Model, r: Real): Promise<void> {
    const key = `Steer ${this.goal}`;
    r.counts.set(key, (r.counts.get(key) ?? 0) + 1);
    await this.next(m)!.run(m, r, `toward ${this.goal}: ${WORDS[this.goal]}`);
  }

  protected act(m: Model, r: Real): Promise<void> {
    return this.next(m)!.run(m, r);
  }

  /** The next step toward the goal; a record held mid-migration that blocks it is released first. */
  next(m: Readonly<Model>): Step | undefined {
    const step = this.toward(m);
    if (step === undefined || step.check(m)) return step;
    const held = m.live(this.user).find((x) => x.key !== undefined && x.held);
    return held ? new Hold(this.user, held.end, 0, false) : step;
  }

  private toward(m: Readonly<Model>): Step | undefined {
    const u = this.user;
    const conv = m.openConversation(u);
    if (conv === undefined) return new Open(u, LIST);
    // The live instances the open conversation touched: what a completion finalizes.
    const live = m.completion(conv);
    const named = this.variant % 2 === 0;
    const fresh = (n: number, end: End = LIST) =>
      new Turn(
        u,
        Array.from({ length: n }, () => ({ end, target: null, fields: [this.variant % 3], named })),
      );
    // A DELIVERED record comes of a completion of what the conversation saved. A steered completion or scope
    // delete leaves its keys to the service: its rows count only where the service decided (coverage.ts).
    const deliver = () => (live.length > 0 ? new Complete(u, 'service') : fresh(1));
    const addressable = m.addressable(u);
    switch (this.goal) {
      case 'M1': {
        const scope = m.live(u, LIST);
        if (scope.some((x) => x.key === undefined)) return undefined;
        if (!scope.some((x) => x.status === 'DELIVERED')) return deliver();
        if (!scope.some((x) => x.status === 'PENDING'))
          return this.variant % 2 === 0 ? fresh(1) : new RestWrite(u, LIST, 'unkeyed', 0, [this.variant % 2]);
        return new ScopeDelete(u, LIST, 'service', named);
      }
      case 'M2': {
        const deleted = m.gone.some(
          (g) => g.by === 'STATE-7' && g.conversationId === conv.id && conv.touched.includes(g.id),
        );
        if (deleted) return deliver();
        const touched = live.filter((x) => x.end === LIST);
        if (touched.length < 2) return fresh(2 - touched.length);
        const victims = touched.filter((x) => addressable.includes(x));
        const victim = victims[this.variant % Math.max(1, victims.length)];
        return victim ? new Delete(u, addressable.indexOf(victim)) : undefined;
      }
      case 'M3':
        return conv.touched.length === 0 ? fresh(1, this.variant % 2 === 0 ? LIST : SETTING) : new Close(u, this.how);
      case 'M4': {
        if (live.some((x) => x.status === 'DELIVERED' && x.statusBy === 'STATE-6')) return new Complete(u, 'service');
        const list = m.addressable(u, LIST);
        const delivered = list.filter((x) => x.status === 'DELIVERED');
        const edit = delivered[this.variant % Math.max(1, delivered.length)];
        if (edit === undefined) return deliver();
        return new Turn(u, [{ end: LIST, target: list.indexOf(edit), fields: [this.variant % 2], named }]);
      }
      case 'T6': {
        const delivered = addressable.filter((x) => x.status === 'DELIVERED');
        const victim = delivered[this.variant % Math.max(1, delivered.length)];
        return victim ? new Delete(u, addressable.indexOf(victim)) : deliver();
      }
    }
  }
}
