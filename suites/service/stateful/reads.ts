/**
 * Reads over the data API judged against the model (2.3, 3, 4.2): a live record answers 200 in
 * the envelope with the status its last transition gave it and the values the model knows, a
 * held one 409, a gone one 404; a List read answers every live instance, drafts included, and
 * nothing held or gone; a Setting read its user's one record.
 */
import type { ServiceResponse } from '../clients/service-client.ts';
import { answered } from '../areas/errors.ts';
import { show } from '../../shared/index.ts';
import { must } from './violation.ts';
import { IDENTITY, LIST, SETTING, statusRule, type GoneRecord, type Model, type RecordState } from './model.ts';
import type { Real } from './real.ts';

type Envelope = { data?: Record<string, unknown> | null; callbackStatus?: unknown; completedAt?: unknown };

const asObject = (v: unknown): Envelope => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Envelope) : {});

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The envelope of one record against the model: status, completedAt of a draft, known values. `hint`:
 * the read's form hint (a value this run wrote that does not read back may have gone in another form).
 */
export function judgeEnvelope(r: Real, rec: RecordState, body: unknown, where: string, hint?: string): void {
  const env = asObject(body);
  const seen = env.callbackStatus;
  if (rec.status === undefined) {
    // Either state is allowed here (not shown); the first read decides what the model expects next.
    must(r, seen === 'PENDING' || seen === 'DELIVERED', rec.statusBy, statusRule(rec.statusBy), {
      expected: 'PENDING or DELIVERED',
      seen: `${show(seen)} (${where})`,
    });
    rec.status = seen as 'PENDING' | 'DELIVERED';
  } else {
    const id =
      rec.statusBy === 'STATE-1'
        ? 'model.draft-status'
        : rec.statusBy === 'STATE-6'
          ? 'model.delivered-kept'
          : undefined;
    must(
      r,
      seen === rec.status,
      rec.statusBy,
      statusRule(rec.statusBy),
      { expected: rec.status, seen: `callbackStatus ${show(seen)} (${where})` },
      id ? { id } : {},
    );
  }
  if (seen === 'PENDING')
    must(
      r,
      typeof env.completedAt === 'string' && env.completedAt.length > 0,
      'ENV-3',
      'completedAt is non-null on a draft',
      { expected: 'a timestamp', seen: `completedAt ${show(env.completedAt)} (${where})` },
    );
  for (const [field, known] of rec.values) {
    if (known === undefined) continue;
    const got = env.data?.[field];
    const by = known.by === 'DATA-4' ? 'host REST write' : 'chat save';
    const rule = `a read shows the value the last ${by} gave ${field}`;
    const words = { expected: `data.${field} ${show(known.value)}`, seen: `${show(got)} (${where})` };
    must(r, same(got, known.value), known.by, rule, { ...words, ...(hint ? { hint } : {}) });
  }
}

/** GET by key of a live record: 409 while held (DATA-11), else 200 in the envelope (DATA-3). */
export async function readLive(m: Model, r: Real, rec: RecordState): Promise<void> {
  if (rec.key === undefined) return;
  const res = await r.svc.getRecord(r.ws, rec.end, m.users[rec.user]!, rec.key);
  if (rec.held) {
    must(
      r,
      res.status === 409,
      'DATA-11',
      'a GET by key of a record held mid-migration answers 409',
      { expected: '409', seen: answered(res) },
      { id: 'model.held-409' },
    );
    return;
  }
  must(
    r,
    res.status === 200,
    'DATA-3',
    'a GET by key of a live record answers 200 with its envelope',
    { expected: '200', seen: `${answered(res)} for record #${rec.id} ${rec.key}` },
    { id: 'model.read-by-key' },
  );
  judgeEnvelope(r, rec, res.json, `GET by key of #${rec.id}`, res.formHint);
}

/**
 * GET by key of a gone record: 404 (STATE-7, STATE-8). After a chat delete whose config.deleted
 * has arrived, a record still there is read again a delivery window later: gone by then, the event
 * came before the removal (EVT-22); still there, the delete did not remove it (STATE-7).
 */
export async function readGone(m: Model, r: Real, g: GoneRecord, justDeleted = false): Promise<void> {
  if (g.key === undefined) return;
  const rule =
    g.by === 'STATE-7'
      ? 'a record deleted through the chat answers 404 by key'
      : 'a record of a deleted scope answers 404 by key';
  const id = g.by === 'STATE-8' ? { id: 'model.scope-removed' as const } : {};
  const res = await r.svc.getRecord(r.ws, g.end, m.users[g.user]!, g.key);
  if (res.status === 404 || !justDeleted) {
    must(
      r,
      res.status === 404,
      g.by,
      rule,
      { expected: '404', seen: `${answered(res)} for gone record #${g.id} ${g.key}` },
      id,
    );
    return;
  }
  await new Promise((done) => setTimeout(done, r.timing.deliveryDeadlineMs()));
  const again = await r.svc.getRecord(r.ws, g.end, m.users[g.user]!, g.key);
  if (again.status === 404)
    must(r, false, 'EVT-22', 'config.deleted fires once the record is gone', {
      expected: '404 by key once config.deleted has arrived',
      seen: `${answered(res)}, then 404 a delivery window later`,
    });
  must(r, false, g.by, rule, { expected: '404', seen: `${answered(again)} for gone record #${g.id} ${g.key}` }, id);
}

/**
 * GET /{endUserHandle} of the Setting: its one record (DATA-1), 409 while held, 404 with none (DATA-8, or the rule that
 * removed it).
 */
export async function readSetting(m: Model, r: Real, user: number): Promise<ServiceResponse> {
  const res = await r.svc.listRecords(r.ws, SETTING, m.users[user]!);
  const rec = m.setting(user);
  if (rec === undefined) {
    const g = [...m.gone].reverse().find((x) => x.user === user && x.end === SETTING);
    must(
      r,
      res.status === 404,
      g?.by ?? 'DATA-8',
      g ? 'a Setting whose record was deleted answers 404' : 'a Setting with no record for the user answers 404',
      { expected: '404', seen: answered(res) },
    );
  } else if (rec.held) {
    must(
      r,
      res.status === 409,
      'DATA-11',
      'a Setting read of a record held mid-migration answers 409',
      { expected: '409', seen: answered(res) },
      { id: 'model.held-409' },
    );
  } else {
    must(
      r,
      res.status === 200 && !Array.isArray(res.json),
      'DATA-1',
      "GET /{endUserHandle} of a Setting answers the user's one record in the envelope",
      { expected: '200 with one envelope', seen: answered(res) },
      { id: 'model.setting-read' },
    );
    judgeEnvelope(r, rec, res.json, 'GET of the Setting', res.formHint);
  }
  return res;
}

/** GET /{endUserHandle} of the List: every live instance but the held ones, drafts included (DATA-2, DATA-11). */
export async function readList(m: Model, r: Real, user: number): Promise<unknown[]> {
  const res = await r.svc.listRecords(r.ws, LIST, m.users[user]!);
  must(
    r,
    res.status === 200 && Array.isArray(res.json),
    'DATA-2',
    'GET /{endUserHandle} of a List answers a JSON array of envelopes',
    { expected: '200 with an array', seen: answered(res) },
  );
  const items = res.json as unknown[];
  const byLabel = new Map<string, unknown[]>();
  let unlabelled = 0;
  for (const item of items) {
    const label = asObject(item).data?.[IDENTITY];
    if (typeof label === 'string') byLabel.set(label, [...(byLabel.get(label) ?? []), item]);
    else unlabelled += 1;
  }
  const live = m.live(user, LIST);
  for (const rec of live.filter((x) => x.label !== undefined)) {
    const found = byLabel.get(rec.label!) ?? [];
    if (rec.held) {
      must(
        r,
        found.length === 0,
        'DATA-11',
        'a record held mid-migration is withheld from List reads',
        { expected: `no item labelled ${rec.label}`, seen: show(found) },
        { id: 'model.held-409' },
      );
      continue;
    }
    must(
      r,
      found.length === 1,
      'DATA-2',
      'a List read answers every live instance once, drafts included',
      {
        expected: `one item labelled ${rec.label} (#${rec.id}, ${rec.status ?? 'PENDING or DELIVERED'})`,
        seen: `${found.length} among ${items.length} item(s): ${show(
          items.map((i) => asObject(i).data?.[IDENTITY] ?? null),
          300,
        )}`,
      },
      { id: 'model.list-drafts' },
    );
    judgeEnvelope(r, rec, found[0], `List read, item ${rec.label}`, res.formHint);
  }
  const want = live.filter((x) => x.label === undefined && !x.held).length;
  must(
    r,
    unlabelled === want,
    'DATA-2',
    'a List read answers every live instance once, drafts included',
    { expected: `${want} item(s) without a label`, seen: `${unlabelled}` },
    { id: 'model.list-drafts' },
  );
  const known = new Set(live.map((x) => x.label));
  for (const [label] of byLabel) {
    if (known.has(label)) continue;
    const g = [...m.gone].reverse().find((x) => x.user === user && x.label === label);
    must(
      r,
      false,
      g?.by ?? 'DATA-2',
      g ? 'a gone record is not listed' : "a List read answers the user's instances, no other",
      { expected: `no item labelled ${label}`, seen: `an item labelled ${label}` },
      g?.by === 'STATE-8' ? { id: 'model.scope-removed' } : {},
    );
  }
  return items;
}
