/**
 * Deletes through the chat as fast-check commands: one instance (config.deleted, STATE-7) or a whole
 * scope in one confirmed action (config.bulk_deleted in pages, per-key config.deleted allowed,
 * STATE-8); each reads back that the records are gone. A scope delete names its configEnd and its
 * keys, or leaves either to the service (the driver's defaults: the conversation's configEnd, all of
 * the user's records there), whose choice the model predicts (STATE-8 reading).
 */
import type { Expected } from './ledger.ts';
import { SETTING, pick, type End, type Model } from './model.ts';
import { readGone, readSetting } from './reads.ts';
import type { Real } from './real.ts';
import type { DecidedBy } from './transitions.ts';
import { Step, named, settle, trail, who } from './commands-step.ts';

export class Delete extends Step {
  constructor(
    readonly user: number,
    readonly target: number,
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.openConversation(this.user) !== undefined && m.addressable(this.user).length > 0;
  }
  toString(): string {
    return `${who(this.user)} deletes instance #${this.target} through the chat`;
  }
  override describe(m: Readonly<Model>): string {
    return `${who(this.user)} deletes ${named(pick(m.addressable(this.user), this.target))} through the chat`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    const rec = pick(m.addressable(this.user), this.target)!;
    r.log.note(`record #${rec.id} ${rec.key}`);
    const status = rec.status;
    await r.driver.deleteRecord(conv.id, rec.key!);
    const g = m.remove(rec, 'STATE-7', conv.id);
    await settle(r, [
      {
        event: 'config.deleted',
        conversationId: conv.id,
        user: this.user,
        key: rec.key!,
        arrival: 'EVT-22',
        rule: 'config.deleted fires when the user deletes one instance through the chat',
        arrivalId: 'model.deleted-fires',
        matched: [],
      },
    ]);
    await readGone(m, r, g, true);
    if (rec.end === SETTING) await readSetting(m, r, this.user);
    trail(r, conv.id, 'config.deleted');
    if (status === 'PENDING') r.coverage.row('T5');
    else if (status === 'DELIVERED') r.coverage.row('T6');
  }
}

export class ScopeDelete extends Step {
  /**
   * keys: the harness names the scope's keys, or the service decides them (the driver's default). nameEnd: the
   * harness names the configEnd; otherwise it is left out when it is the conversation's (the driver's default).
   */
  constructor(
    readonly user: number,
    readonly end: End,
    readonly keys: DecidedBy,
    readonly nameEnd: boolean,
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    const scope = m.live(this.user, this.end);
    return (
      m.openConversation(this.user) !== undefined &&
      scope.length > 0 &&
      scope.every((x) => x.key !== undefined && !x.held)
    );
  }
  toString(): string {
    return this.words(this.nameEnd ? 'named' : "left out when the conversation's");
  }
  override describe(m: Readonly<Model>): string {
    return this.words(this.nameEnd || m.openConversation(this.user)?.end !== this.end ? 'named' : 'left out');
  }
  private words(configEnd: string): string {
    const keys = this.keys === 'harness' ? 'naming its keys' : 'its keys left to the service';
    return `${who(this.user)} deletes the whole ${this.end} scope, ${keys}, configEnd ${configEnd}`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    // The scope, named or not: every live record of the user at the configEnd, whichever conversation or REST write
    // made it (STATE-8 reading). Left to the service, that is its own choice the model predicts.
    const scope = m.live(this.user, this.end);
    const keys = scope.map((x) => x.key!);
    const states = new Set(scope.map((x) => x.status));
    r.log.note(`${keys.length} record(s)`);
    const leaveEnd = !this.nameEnd && conv.end === this.end;
    await r.driver.bulkDelete(conv.id, {
      ...(leaveEnd ? {} : { configEnd: this.end }),
      ...(this.keys === 'harness' ? { serviceKeys: keys } : {}),
    });
    const gone = scope.map((x) => m.remove(x, 'STATE-8', conv.id));
    // EVT-23 reading: per-key config.deleted are allowed for any scope (the threshold is not shown), each once.
    const perKey: Expected[] = keys.map((key) => ({
      event: 'config.deleted',
      conversationId: conv.id,
      user: this.user,
      key,
      optional: true,
      arrival: 'EVT-23',
      rule: '',
      matched: [],
    }));
    await settle(r, [
      {
        event: 'config.bulk_deleted',
        conversationId: conv.id,
        user: this.user,
        manifest: keys,
        by: this.keys,
        arrival: 'EVT-23',
        rule: 'config.bulk_deleted fires when the user deletes a whole scope',
        matched: [],
      },
      ...perKey,
    ]);
    // Every record the model wrote itself, and the first and last of a seeded batch.
    const sample = gone.filter((g, i) => g.label !== undefined || i === 0 || i === gone.length - 1).slice(0, 6);
    for (const g of sample) await readGone(m, r, g);
    if (this.end === SETTING) await readSetting(m, r, this.user);
    trail(r, conv.id, 'config.bulk_deleted', this.keys);
    if (states.has('PENDING')) r.coverage.row('T7', this.keys);
    if (states.has('DELIVERED')) r.coverage.row('T8', this.keys);
    if (states.has('PENDING') && states.has('DELIVERED')) r.coverage.row('M1', this.keys);
  }
}
