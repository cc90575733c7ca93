/**
 * The chat's triggers as fast-check commands (the driver stands in for the end user): open, a
 * turn of saves on the Setting and the List (several instances per turn), complete, delete one
 * instance, delete a scope, interrupt, idle sweep. Each runs the trigger, tells the ledger which
 * callbacks the contract makes the service send (section 6; delivery ids, keys, callbackStatus at
 * save time, pages), waits for them, then reads back what the step changed (sections 2.3, 3).
 */
import type fc from 'fast-check';
import { header } from '../areas/journal.ts';
import { show } from '../../shared/index.ts';
import type { Expected } from './ledger.ts';
import { FIELDS, IDENTITY, LIST, SETTING, pick, type End, type Model, type RecordState } from './model.ts';
import { readGone, readList, readLive, readSetting } from './reads.ts';
import type { Real } from './real.ts';
import { must } from './violation.ts';

/** One command: its words in the script, then what it does. */
export abstract class Step implements fc.AsyncCommand<Model, Real> {
  abstract check(m: Readonly<Model>): boolean;
  async run(m: Model, r: Real): Promise<void> {
    r.log.begin(this.describe(m));
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

const who = (u: number) => `user#${u}`;

/** Waits for the step's callbacks (deadline from timing), judging whatever the hook received meanwhile. */
export function settle(r: Real, expected: Expected[] = []): Promise<void> {
  for (const x of expected) x.since = r.stepStartedMs;
  return r.ledger.settle(expected, r.timing.deliveryDeadlineMs());
}

/** The step's callbacks arrived: the conversation's event trail goes on (section 6 sequences, coverage.ts). */
function trail(r: Real, conversationId: number, ...events: string[]): void {
  for (const e of events) r.coverage.event(r.sequenceTag, conversationId, e);
}

export class Open extends Step {
  constructor(
    readonly user: number,
    readonly end: End,
  ) {
    super();
  }
  // One conversation per user at a time: whether a new open abandons an open one is not decided here.
  check(m: Readonly<Model>): boolean {
    return m.openConversation(this.user) === undefined;
  }
  toString(): string {
    return `open ${who(this.user)} on ${this.end}`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const { conversationId } = await r.driver.open(r.ws, m.users[this.user]!, this.end);
    r.log.note(`conversation ${conversationId}`);
    m.conversations.push({ id: conversationId, user: this.user, end: this.end, open: true, touched: [] });
    await settle(r, [
      {
        event: 'onStart',
        conversationId,
        user: this.user,
        arrival: 'EVT-16',
        rule: 'onStart fires when a fresh conversation opens for an end user',
        arrivalId: 'model.onstart-fires',
        matched: [],
      },
    ]);
    trail(r, conversationId, 'onStart');
    r.coverage.row('C1');
  }
}

/** One save of a turn: to the Setting's one record, to a new List instance (target null) or to an existing one. */
export interface SaveSpec {
  end: End;
  target: number | null;
  fields: number[];
}

export class Turn extends Step {
  constructor(
    readonly user: number,
    readonly saves: SaveSpec[],
  ) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    if (m.openConversation(this.user) === undefined) return false;
    // A chat save into a record held mid-migration is not shown: never tried.
    return !this.saves.some((s) => s.end === SETTING && m.setting(this.user)?.held);
  }
  toString(): string {
    return `turn of ${who(this.user)}: ${this.saves.map((s) => `${s.end === SETTING ? 'the Setting' : s.target === null ? `a new ${LIST}` : `${LIST} instance #${s.target}`} {${fieldsOf(s).join(', ')}}`).join('; ')}`;
  }
  override describe(m: Readonly<Model>): string {
    const what = (s: SaveSpec) => {
      if (s.end === SETTING)
        return m.setting(this.user) ? `the Setting ${named(m.setting(this.user))}` : 'the Setting (no record yet)';
      const target = s.target === null ? undefined : pick(m.addressable(this.user, LIST), s.target);
      return target ? named(target) : `a new ${LIST} instance`;
    };
    return `turn of ${who(this.user)}: ${this.saves.map((s) => `${what(s)} {${fieldsOf(s).join(', ')}}`).join('; ')}`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    const plan = this.saves.map((s) => {
      const target = s.end === LIST && s.target !== null ? pick(m.addressable(this.user, LIST), s.target) : undefined;
      const values: Record<string, unknown> = Object.fromEntries(fieldsOf(s).map((f) => [f, m.fresh(f)]));
      if (s.end === LIST && target === undefined) values[IDENTITY] = m.freshLabel();
      return { end: s.end, target, values };
    });
    const atMs = Date.now();
    const { serviceKeys } = await r.driver.turn(
      conv.id,
      plan.map((p) => ({ configEnd: p.end, fields: p.values, ...(p.target ? { serviceKey: p.target.key! } : {}) })),
    );
    if (!Array.isArray(serviceKeys) || serviceKeys.length !== plan.length)
      throw new Error(`the driver's turn answered ${show(serviceKeys)}, not one serviceKey per save`);
    r.log.note(`serviceKeys ${serviceKeys.join(', ')}`);
    // What each touched instance was at save time, and the union of the paths the turn saved to it.
    const touched = new Map<number, { rec: RecordState; status: RecordState['status']; fields: Set<string> }>();
    // Records this turn created: the (none) --chat save--> PENDING row (T1).
    const created = new Set<number>();
    plan.forEach((p, i) => {
      const key = serviceKeys[i]!;
      let rec = p.target;
      if (p.end === SETTING) {
        rec = m.setting(this.user);
        if (rec?.key !== undefined)
          must(
            r,
            key === rec.key,
            'DATA-13',
            "a chat save on a Setting addresses the user's one record",
            { expected: `serviceKey ${rec.key} (#${rec.id})`, seen: `serviceKey ${key}` },
            { id: 'model.setting-one-record' },
          );
        else if (rec) {
          // A Setting written over REST whose answer named no key: the chat names it; what the REST write stored must be there.
          rec.key = key;
          for (const [f, k] of rec.values) if (k) rec.values.set(f, { ...k, by: 'DATA-13' });
        }
      }
      if (rec === undefined) {
        const label = p.values[IDENTITY] !== undefined ? { label: p.values[IDENTITY] as string } : {};
        rec = m.add({ key, user: this.user, end: p.end, status: 'PENDING', statusBy: 'STATE-1', writes: [], ...label });
        created.add(rec.id);
      }
      const t = touched.get(rec.id) ?? { rec, status: rec.status, fields: new Set<string>() };
      for (const f of Object.keys(p.values)) t.fields.add(f);
      touched.set(rec.id, t);
      for (const [f, v] of Object.entries(p.values)) rec.values.set(f, { value: v, by: 'STATE-1' });
    });
    const expected: Expected[] = [];
    for (const { rec, status, fields } of touched.values()) {
      rec.writes.push({ by: 'chat', atMs });
      rec.statusBy = rec.status === 'DELIVERED' ? 'STATE-6' : 'STATE-1';
      if (!conv.touched.includes(rec.id)) conv.touched.push(rec.id);
      expected.push({
        event: 'config.saved',
        conversationId: conv.id,
        user: this.user,
        key: rec.key!,
        callbackStatus: status,
        changedFields: [...fields],
        arrival: 'EVT-17',
        rule: 'config.saved fires once for each instance a turn saves to',
        arrivalId: 'model.saved-once-per-instance',
        matched: [],
      });
    }
    await settle(r, expected);
    trail(r, conv.id, 'config.saved');
    for (const { rec } of touched.values()) await readLive(m, r, rec);
    if ([...touched.values()].some((t) => t.rec.end === SETTING)) await readSetting(m, r, this.user);
    // A new List instance changes what the List read answers.
    if (plan.some((p) => p.end === LIST && p.target === undefined)) await readList(m, r, this.user);
    for (const { rec, status } of touched.values()) {
      if (created.has(rec.id)) r.coverage.row('T1');
      else if (status === 'DELIVERED') r.coverage.row('T4');
    }
  }
}

function fieldsOf(s: SaveSpec): string[] {
  const all = FIELDS[s.end];
  return [...new Set(s.fields.map((i) => all[i % all.length]!))];
}

export class Complete extends Step {
  constructor(readonly user: number) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    const c = m.openConversation(this.user);
    const recs = c ? m.completion(c) : [];
    return recs.length > 0 && recs.every((x) => x.key !== undefined && !x.held);
  }
  toString(): string {
    return `complete ${who(this.user)}`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    const recs = m.completion(conv);
    // The keys are named: the live instances the conversation touched (what a deleted one would be is the model's question, not the driver's).
    await r.driver.complete(
      conv.id,
      recs.map((x) => x.key!),
    );
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
    // A completion of keys completed before is DELIV-13's rule (another onComplete, a new delivery id); a first one STATE-4's.
    const again = earlierIds.length > 0;
    await settle(r, [
      {
        event: 'onComplete',
        conversationId: conv.id,
        user: this.user,
        keys: recs.map((x) => x.key!),
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
    trail(r, conv.id, 'onComplete');
    if (before.some((b) => b.status === 'PENDING')) r.coverage.row('T3');
    if (before.some((b) => b.status === 'DELIVERED' && b.edited)) r.coverage.row('M4');
    if (deletedTouched) r.coverage.row('M2');
  }
}

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
  constructor(
    readonly user: number,
    readonly end: End,
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
    return `${who(this.user)} deletes the whole ${this.end} scope`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    const scope = m.live(this.user, this.end);
    const keys = scope.map((x) => x.key!);
    const states = new Set(scope.map((x) => x.status));
    r.log.note(`${keys.length} record(s)`);
    await r.driver.bulkDelete(conv.id, this.end);
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
    trail(r, conv.id, 'config.bulk_deleted');
    if (states.has('PENDING')) r.coverage.row('T7');
    if (states.has('DELIVERED')) r.coverage.row('T8');
    if (states.has('PENDING') && states.has('DELIVERED')) r.coverage.row('M1');
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
