/**
 * How a conversation ends, as fast-check commands: the user says done (a completion fires onComplete
 * with the keys it finalizes, 3 and 6), or it closes without completing or is swept after the idle
 * TTL (onSessionInterrupted, onSessionTimeout), which changes no record. A completion names its keys,
 * or leaves them to the service (the driver's default: every instance the conversation touched), whose
 * own tracking of what its conversation touched the model then predicts.
 */
import { header } from '../../../judge/service/journal.ts';
import { show } from '../../shared/index.ts';
import type { Expected } from './ledger.ts';
import { LIST, type Model } from './model.ts';
import { readList, readLive } from './reads.ts';
import type { Real } from './real.ts';
import type { DecidedBy } from './transitions.ts';
import { Step, settle, trail, who } from './commands-step.ts';

export class Complete extends Step {
  /** keys: the harness names the keys, or the service decides them (the driver's default). */
  constructor(
    readonly user: number,
    readonly keys: DecidedBy,
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    const c = m.openConversation(this.user);
    const recs = c ? m.completion(c) : [];
    return recs.length > 0 && recs.every((x) => x.key !== undefined && !x.held);
  }
  toString(): string {
    return `complete ${who(this.user)}${this.keys === 'harness' ? ', naming the keys' : ', its keys left to the service'}`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    // What the completion finalizes, named or not: every live instance the conversation touched (EVT-6 reading: one
    // deleted before it, through the chat or in its scope, is not finalized). Left to the service, that is the
    // service's own tracking of the conversation the model predicts.
    const recs = m.completion(conv);
    const keys = recs.map((x) => x.key!);
    const answer = await r.driver.complete(conv.id, this.keys === 'harness' ? keys : undefined);
    if (this.keys === 'service') r.log.note(`the driver finalized ${show(answer.serviceKeys)}`);
    const earlierIds = recs.flatMap((x) => x.onCompleteIds);
    // What the completion finalizes, before it: PENDING records (T3), DELIVERED ones edited since (M4), and
    // whether an instance the conversation touched was deleted through the chat meanwhile (M2).
    const before = recs.map((x) => ({ status: x.status, edited: x.statusBy === 'STATE-6' }));
    const deletedTouched = m.gone.some(
      (g) => g.by === 'STATE-7' && g.conversationId === conv.id && conv.touched.includes(g.id),
    );
    conv.open = false;
    const keep = (e: Parameters<NonNullable<Expected['onMatch']>>[0]) => {
      const id = header(e, 'x-service-delivery-id');
      if (id) for (const x of recs) x.onCompleteIds.push(id);
    };
    // A completion of keys completed before is DELIV-13's rule (another onComplete, a new delivery id); a first one
    // STATE-4's.
    const again = earlierIds.length > 0;
    await settle(r, [
      {
        event: 'onComplete',
        conversationId: conv.id,
        user: this.user,
        keys,
        by: this.keys,
        arrival: again ? 'DELIV-13' : 'STATE-4',
        rule: again
          ? 'a later completion of a key fires another onComplete'
          : 'a completion fires onComplete with the keys it finalizes',
        earlierIds,
        onMatch: keep,
        matched: [],
      },
    ]);
    for (const x of recs) {
      x.status = 'DELIVERED';
      x.statusBy = 'STATE-4';
    }
    for (const x of recs) await readLive(m, r, x);
    trail(r, conv.id, 'onComplete', this.keys);
    if (before.some((b) => b.status === 'PENDING')) r.coverage.row('T3', this.keys);
    if (before.some((b) => b.status === 'DELIVERED' && b.edited)) r.coverage.row('M4', this.keys);
    if (deletedTouched) r.coverage.row('M2', this.keys);
  }
}

export class Close extends Step {
  constructor(
    readonly user: number,
    readonly how: 'interrupt' | 'sweep',
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.openConversation(this.user) !== undefined;
  }
  toString(): string {
    return this.how === 'interrupt'
      ? `${who(this.user)}'s conversation closes without completing`
      : `${who(this.user)}'s conversation is swept after the idle TTL`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    if (this.how === 'interrupt') await r.driver.interrupt(conv.id);
    else await r.driver.idleSweep(conv.id);
    conv.open = false;
    const x: Expected =
      this.how === 'interrupt'
        ? {
            event: 'onSessionInterrupted',
            conversationId: conv.id,
            user: this.user,
            arrival: 'EVT-20',
            rule: 'onSessionInterrupted fires when a conversation closes without completing',
            matched: [],
          }
        : {
            event: 'onSessionTimeout',
            conversationId: conv.id,
            user: this.user,
            arrival: 'EVT-21',
            rule: 'onSessionTimeout fires when a conversation is swept after the idle TTL',
            matched: [],
          };
    await settle(r, [x]);
    // Closing without completing changes no record: each keeps the state its last transition gave it, and is listed.
    for (const rec of m.completion(conv)) await readLive(m, r, rec);
    if (m.completion(conv).some((x) => x.end === LIST)) await readList(m, r, this.user);
    trail(r, conv.id, x.event);
    r.coverage.row(this.how === 'interrupt' ? 'C2' : 'C3');
    if (conv.touched.length > 0) r.coverage.row('M3');
  }
}
