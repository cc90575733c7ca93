/**
 * The chat's first triggers as fast-check commands (the driver stands in for the end user): open a
 * conversation, and a turn of saves on the Setting and the List (several instances per turn). Each
 * runs the trigger, tells the ledger which callbacks the contract makes the service send (section 6;
 * keys, callbackStatus at save time), waits for them, then reads back what the step changed (2.3, 3).
 */
import { show } from '../../shared/index.ts';
import type { Expected } from './ledger.ts';
import { FIELDS, IDENTITY, LIST, SETTING, pick, type End, type Model, type RecordState } from './model.ts';
import { readList, readLive, readSetting } from './reads.ts';
import type { Real } from './real.ts';
import { must } from './violation.ts';
import { Step, named, settle, trail, who } from './commands-step.ts';
import { ccsError } from '../../../spec/index.ts';

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

/**
 * One save of a turn: to the Setting's one record, to a new List instance (target null) or to an existing one.
 * named: the save names its configEnd and the Setting's key when the model knows it; otherwise it leaves them to
 * the driver's defaults (the conversation's configEnd, when it is the save's; the user's one Setting record,
 * DATA-13). A List instance is addressed by its key either way: without one the save creates a new instance.
 */
export interface SaveSpec {
  end: End;
  target: number | null;
  fields: number[];
  named: boolean;
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
    return `turn of ${who(this.user)}: ${this.saves.map((s) => `${s.end === SETTING ? 'the Setting' : s.target === null ? `a new ${LIST}` : `${LIST} instance #${s.target}`} {${fieldsOf(s).join(', ')}}${defaults(s)}`).join('; ')}`;
  }
  override describe(m: Readonly<Model>): string {
    const what = (s: SaveSpec) => {
      if (s.end === SETTING)
        return m.setting(this.user) ? `the Setting ${named(m.setting(this.user))}` : 'the Setting (no record yet)';
      const target = s.target === null ? undefined : pick(m.addressable(this.user, LIST), s.target);
      return target ? named(target) : `a new ${LIST} instance`;
    };
    return `turn of ${who(this.user)}: ${this.saves.map((s) => `${what(s)} {${fieldsOf(s).join(', ')}}${defaults(s)}`).join('; ')}`;
  }
  protected async act(m: Model, r: Real): Promise<void> {
    const conv = m.openConversation(this.user)!;
    const plan = this.saves.map((s) => {
      const target = s.end === LIST && s.target !== null ? pick(m.addressable(this.user, LIST), s.target) : undefined;
      const values: Record<string, unknown> = Object.fromEntries(fieldsOf(s).map((f) => [f, m.fresh(f)]));
      if (s.end === LIST && target === undefined) values[IDENTITY] = m.freshLabel();
      // What the save names (the rest is the driver's defaults): configEnd, unless left out as the conversation's;
      // the key of the record it addresses, unless the Setting's one record is left to the service.
      const configEnd = s.named || s.end !== conv.end ? { configEnd: s.end } : {};
      const key = target?.key ?? (s.named && s.end === SETTING ? m.setting(this.user)?.key : undefined);
      return { end: s.end, target, values, request: { ...configEnd, ...(key ? { serviceKey: key } : {}) } };
    });
    const atMs = Date.now();
    const { serviceKeys } = await r.driver.turn(
      conv.id,
      plan.map((p) => ({ ...p.request, fields: p.values })),
    );
    if (!Array.isArray(serviceKeys) || serviceKeys.length !== plan.length)
      throw ccsError('TARGET_DRIVER_ANSWER_INVALID', {
        call: 'turn',
        got: show(serviceKeys),
        expected: 'one serviceKey per save',
      });
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
          // A Setting written over REST whose answer named no key: the chat names it; what the REST write stored must
          // be there.
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

/** A save that leaves what it may to the driver's defaults, in the script's words. */
const defaults = (s: SaveSpec) => (s.named ? '' : ' (driver defaults)');

function fieldsOf(s: SaveSpec): string[] {
  const all = FIELDS[s.end];
  return [...new Set(s.fields.map((i) => all[i % all.length]!))];
}
