/**
 * The host's writes over the data API as a fast-check command: with and without a key, an identity
 * conflict, a label freed by a delete, a key that is gone. None fires an event (STATE-3): whatever
 * arrives meanwhile is judged a stray by the ledger.
 */
import { answered, hintOf } from '../areas/errors.ts';
import { FIELDS, IDENTITY, LIST, SETTING, pick, type End, type Known, type Model, type RecordState } from './model.ts';
import { readList, readLive, readSetting } from './reads.ts';
import type { Real } from './real.ts';
import { must } from './violation.ts';
import { Step, named, settle, who } from './commands-step.ts';

/** unkeyed: POST /{endUserHandle} (a new List instance, or the Setting's one record); keyed: to an existing key. */
export type WriteMode = 'unkeyed' | 'keyed' | 'conflict' | 'reuse' | 'gone';

export class RestWrite extends Step {
  constructor(
    readonly user: number,
    readonly end: End,
    readonly mode: WriteMode,
    readonly target: number,
    readonly fields: number[],
  ) {
    super();
  }

  check(m: Readonly<Model>): boolean {
    const keyed = m.live(this.user, this.end).filter((x) => x.key !== undefined);
    switch (this.mode) {
      case 'unkeyed':
        return true;
      case 'keyed':
        return keyed.length > 0;
      case 'conflict':
        return this.end === LIST && m.addressable(this.user, LIST).some((x) => x.label !== undefined);
      case 'reuse':
        return this.end === LIST && m.freedLabels(this.user).length > 0;
      case 'gone':
        return m.gone.some((g) => g.user === this.user && g.end === this.end && g.key !== undefined);
    }
  }

  toString(): string {
    const what = {
      unkeyed: this.end === SETTING ? 'to the Setting' : `of a new ${LIST} instance`,
      keyed: `to ${this.end} record #${this.target} by key`,
      conflict: `of a new ${LIST} instance with the label of live instance #${this.target}`,
      reuse: `of a new ${LIST} instance with the label of deleted instance #${this.target}`,
      gone: `to deleted ${this.end} record #${this.target} by key`,
    }[this.mode];
    return `host REST write ${what} for ${who(this.user)}`;
  }

  override describe(m: Readonly<Model>): string {
    const at = (list: Array<{ id: number; end: End; key?: string }>) => named(pick(list, this.target));
    const what = {
      unkeyed:
        this.end === SETTING
          ? `to the Setting${m.setting(this.user) ? ` ${named(m.setting(this.user))}` : ' (no record yet)'}`
          : `of a new ${LIST} instance`,
      keyed: `to ${at(m.live(this.user, this.end).filter((x) => x.key !== undefined))} by key`,
      conflict: `of a new ${LIST} instance with the label of ${at(m.addressable(this.user, LIST).filter((x) => x.label !== undefined))}`,
      reuse: `of a new ${LIST} instance with the label of deleted ${at(m.freedLabels(this.user))}`,
      gone: `to deleted ${at(m.gone.filter((g) => g.user === this.user && g.end === this.end && g.key !== undefined))} by key`,
    }[this.mode];
    return `host REST write ${what} for ${who(this.user)}`;
  }

  protected async act(m: Model, r: Real): Promise<void> {
    const handle = m.users[this.user]!;
    const all = FIELDS[this.end];
    const data: Record<string, unknown> = Object.fromEntries(
      [...new Set(this.fields.map((i) => all[i % all.length]!))].map((f) => [f, m.fresh(f)]),
    );
    let rec: RecordState | undefined;
    let key: string | undefined;
    let want: 'ok' | 'held' | 'conflict' | 'gone' = 'ok';
    let holder: RecordState | undefined;
    // The write created a record: the (none) --host REST write--> PENDING row (T2), once its reads held.
    let created = false;
    if (this.mode === 'unkeyed') {
      rec = this.end === SETTING ? m.setting(this.user) : undefined;
      if (this.end === LIST) data[IDENTITY] = m.freshLabel();
    } else if (this.mode === 'keyed') {
      rec = pick(
        m.live(this.user, this.end).filter((x) => x.key !== undefined),
        this.target,
      )!;
      key = rec.key;
      // The label travels with every write: whether a write merges or replaces the stored data is not shown.
      if (rec.label !== undefined) data[IDENTITY] = rec.label;
    } else if (this.mode === 'conflict') {
      holder = pick(
        m.addressable(this.user, LIST).filter((x) => x.label !== undefined),
        this.target,
      )!;
      data[IDENTITY] = holder.label;
      want = 'conflict';
    } else if (this.mode === 'reuse') {
      data[IDENTITY] = pick(m.freedLabels(this.user), this.target)!.label;
    } else {
      key = pick(
        m.gone.filter((g) => g.user === this.user && g.end === this.end && g.key !== undefined),
        this.target,
      )!.key;
      want = 'gone';
    }
    if (rec?.held) want = 'held';
    r.hostWrites += 1;
    const atMs = Date.now();
    const res = await r.svc.writeRecord(r.ws, this.end, handle, { data }, key === undefined ? {} : { serviceKey: key });
    r.log.note(`${res.status}`);
    if (want === 'held') {
      const words = { expected: '409', seen: `${answered(res)} for record #${rec!.id}`, ...hintOf(res) };
      const rule = 'a write addressing a record held mid-migration answers 409';
      must(r, res.status === 409, 'DATA-11', rule, words, { id: 'model.held-409' });
    } else if (want === 'conflict') {
      const body = (res.json ?? {}) as Record<string, unknown>;
      must(
        r,
        res.status === 409 && body.code === 'IDENTITY_CONFLICT' && body.existingKey === holder!.key,
        'DATA-12',
        'a write giving a second List record the same identity value answers 409 IDENTITY_CONFLICT naming the record holding it',
        { expected: `409 IDENTITY_CONFLICT with existingKey ${holder!.key}`, seen: answered(res) },
      );
    } else if (want === 'gone') {
      const words = { expected: '404', seen: answered(res), ...hintOf(res) };
      must(r, res.status === 404, 'DATA-9', 'a keyed POST to the key of no record answers 404', words);
    } else {
      const reuse = this.mode === 'reuse';
      const rule = reuse
        ? 'an identity value no live record holds (its holder was deleted) is free again'
        : 'a host write on the single write route is accepted';
      const ok = res.status >= 200 && res.status < 300;
      must(r, ok, reuse ? 'DATA-12' : 'DATA-4', rule, { expected: 'a 2xx', seen: answered(res), ...hintOf(res) });
      const named = (res.json as { serviceKey?: unknown } | undefined)?.serviceKey;
      // A keyed write writes the record it names (DATA-4); an answer naming another key says it did not.
      if (key !== undefined && typeof named === 'string') {
        const words = { expected: `serviceKey ${key}`, seen: `serviceKey ${named}: ${answered(res)}`, ...hintOf(res) };
        must(r, named === key, 'DATA-4', 'a keyed write writes the record its key names', words);
      }
      if (rec === undefined) {
        created = true;
        rec = m.add({
          user: this.user,
          end: this.end,
          status: 'PENDING',
          statusBy: 'STATE-2',
          writes: [{ by: 'rest', atMs }],
          ...(typeof named === 'string' ? { key: named } : {}),
          ...(typeof data[IDENTITY] === 'string' ? { label: data[IDENTITY] as string } : {}),
        });
      } else {
        if (this.end === SETTING && key === undefined && typeof named === 'string') {
          if (rec.key !== undefined)
            must(
              r,
              named === rec.key,
              'DATA-13',
              "a write to a Setting updates its user's one record",
              { expected: `serviceKey ${rec.key}`, seen: `serviceKey ${named}` },
              { id: 'model.setting-one-record' },
            );
          else rec.key = named;
        }
        // Fields the write left out: merge or replace is not shown, so the model no longer knows them.
        for (const f of rec.values.keys()) if (f !== IDENTITY) rec.values.set(f, undefined);
        // STATE-2 names a write over a draft; over a DELIVERED record either state is allowed (the next read decides).
        if (rec.status === 'DELIVERED') delete rec.status;
        rec.statusBy = 'STATE-2';
        rec.writes.push({ by: 'rest', atMs });
      }
      for (const [f, v] of Object.entries(data)) rec.values.set(f, { value: v, by: 'DATA-4' } satisfies Known);
    }
    await settle(r);
    if (rec && !rec.held) await readLive(m, r, rec);
    if (this.end === SETTING) await readSetting(m, r, this.user);
    else if (want === 'ok') await readList(m, r, this.user);
    if (created) r.coverage.row('T2');
  }
}
