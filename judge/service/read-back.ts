/**
 * With the data API and a Bearer token (`observe --data-api URL --token-env NAME`), the records the
 * callbacks named are read back once the observation ended (sections 2.3, 3): each key an onComplete
 * named is read in the envelope (ENV-1) and DELIVERED (STATE-4, DELIV-14 when every attempt failed);
 * each key a config.bulk_deleted named is gone, a GET by key answering 404 (STATE-8). A later event about
 * the same key decides what it should be. A chat delete (STATE-7) is judged on the read made as its
 * config.deleted arrived (read-at-arrival.ts, chat-deletes.ts): by the end a later scope delete may have
 * removed a record the chat delete kept. The token is sent, never shown.
 *
 * Readings of the judge: the configEnd form of the path (UNSPEC-9) is the first that reads a completed
 * record back 200, and a 404 proves a deletion only under a form so proven. A completed record read back
 * PENDING is a warning, not a failure: a host REST write over it, which no callback shows, may leave it
 * PENDING (STATE-2 reading).
 */
import { CONFIG_END_FORMS, type ClauseId, type ConfigEndForm, type ServiceCheckId } from '../../spec/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { envelopeProblems } from './envelope.ts';
import { at, bodyOf } from './words.ts';
import type { Verdicts } from './verdicts.ts';
import { read, type Read, type ReadBackOptions, type Where } from './data-api-read.ts';
import { judgeChatDeletes } from './chat-deletes.ts';
import type { ArrivalReads } from './read-at-arrival.ts';

export type { ReadBackOptions } from './data-api-read.ts';

interface Named extends Where {
  expect: 'delivered' | 'gone' | 'draft';
  clause: 'STATE-4' | 'DELIV-14' | 'STATE-7' | 'STATE-8' | 'ENV-3';
  entry: JournalEntry;
}

const READ_BACK_CLAUSES: ClauseId[] = ['ENV-1', 'ENV-3', 'STATE-4', 'STATE-7', 'STATE-8', 'DELIV-14'];
const HOW = '`--data-api URL --token-env NAME` reads back the records the callbacks name';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The last word of the service on each key: completed (to read DELIVERED), deleted (to read 404), or saved
 * (to read in its envelope, a draft's completedAt set).
 */
function namedKeys(callbacks: JournalEntry[]): Named[] {
  const answered = new Set<string>();
  for (const e of callbacks) {
    const s = e.response?.status;
    if (e.deliveryId && s !== undefined && s >= 200 && s < 300) answered.add(e.deliveryId);
  }
  const byKey = new Map<string, Named>();
  const seen = new Set<string>();
  // In the order the service emitted them (payload timestamps, 2.1), not the order they arrived: another
  // conversation's callback may overtake a slow or retried onComplete, and the later event decides the key.
  const emitted = (e: JournalEntry): string | undefined => str(bodyOf(e)?.timestamp);
  const order = (a: JournalEntry, b: JournalEntry): number => {
    const ta = emitted(a);
    const tb = emitted(b);
    return ta !== undefined && tb !== undefined && ta !== tb ? (ta < tb ? -1 : 1) : a.seq - b.seq;
  };
  for (const e of [...callbacks].sort(order)) {
    const p = bodyOf(e);
    const where = {
      workspaceKey: str(p?.workspaceKey),
      configEnd: str(p?.configEnd),
      endUserHandle: str(p?.endUserHandle),
    };
    if (!p || !where.workspaceKey || !where.configEnd || !where.endUserHandle) continue;
    // a retry names what attempt 1 named
    const once = `${e.deliveryId ?? e.seq}\u0000${e.bodySha256}`;
    if (seen.has(once)) continue;
    seen.add(once);
    const put = (keys: unknown, expect: Named['expect'], clause: Named['clause']) => {
      for (const k of Array.isArray(keys) ? keys : [keys]) {
        if (typeof k !== 'string' || k === '') continue;
        const w = where as Omit<Named, 'serviceKey' | 'expect' | 'clause' | 'entry'>;
        const id = `${w.workspaceKey}\u0000${k}`;
        // a small scope's delete also names each key in a config.deleted (section 3): the scope delete speaks
        if (clause === 'STATE-7' && byKey.get(id)?.clause === 'STATE-8') continue;
        byKey.set(id, { ...w, serviceKey: k, expect, clause, entry: e });
      }
    };
    if (p.event === 'onComplete') {
      put(p.serviceKeys, 'delivered', e.deliveryId && answered.has(e.deliveryId) ? 'STATE-4' : 'DELIV-14');
    } else if (p.event === 'config.deleted') put(p.serviceKey, 'gone', 'STATE-7');
    else if (p.event === 'config.bulk_deleted') put(p.keys, 'gone', 'STATE-8');
    else if (p.event === 'config.saved') put(p.serviceKey, 'draft', 'ENV-3');
  }
  return [...byKey.values()];
}

const IDS: Record<Named['clause'], ServiceCheckId> = {
  'STATE-4': 'state.complete-delivered',
  'DELIV-14': 'delivery.status-not-delivery',
  'STATE-7': 'state.chat-delete-removes',
  'STATE-8': 'state.scope-delete-removes',
  'ENV-3': 'env.draft-completed-at',
};

/** `arrival`: the reads made as each config.deleted arrived (live), undefined when none could be (--from). */
export async function readBack(
  callbacks: JournalEntry[],
  v: Verdicts,
  o: ReadBackOptions,
  arrival?: ArrivalReads,
): Promise<void> {
  const named = namedKeys(callbacks);
  const forms = new Map<string, ConfigEndForm>();
  const untried = (why: string) => {
    for (const c of READ_BACK_CLAUSES) if (!v.decided(c)) v.notExercised(c, why);
  };
  if (named.length === 0) return untried('no callback named a record: complete or delete one while observing');
  try {
    // completed and saved records first: a 200 among them proves the path form the deletions are read in
    const stays = [...named.filter((x) => x.expect === 'delivered'), ...named.filter((x) => x.expect === 'draft')];
    for (const n of stays) {
      let got: Read | undefined;
      for (const form of forms.has(n.workspaceKey) ? [forms.get(n.workspaceKey)!] : CONFIG_END_FORMS) {
        got = await read(o, n, form);
        if (got.status === 401 || got.status === 403) {
          return untried(`the data API answered ${got.status} to the token given: check --token-env`);
        }
        if (got.status !== 200) continue;
        forms.set(n.workspaceKey, form);
        break;
      }
      if (n.expect === 'draft') judgeSavedRecord(n, got!, v);
      else judgeDelivered(n, got!, v, forms.has(n.workspaceKey));
    }
    // a chat delete's key was read as its config.deleted arrived (chat-deletes.ts)
    for (const n of named.filter((x) => x.expect === 'gone' && x.clause === 'STATE-8')) {
      const form = forms.get(n.workspaceKey);
      if (!form) continue;
      const got = await read(o, n, form);
      if (got.status === 409) continue; // held mid-migration (section 3): neither here nor gone
      v.that(n.clause, 'a record a scope delete removed reads 404', got.status === 404, {
        id: IDS[n.clause],
        expected: `GET by key ${n.serviceKey} answers 404 (named by ${at(n.entry)})`,
        seen: `${got.status}`,
      });
    }
  } catch (error) {
    return untried(`the data API at ${o.baseUrl} could not be read: ${(error as Error).message}`);
  }
  const spoke = judgeChatDeletes(callbacks, arrival, forms, v);
  const unproven = 'no completed record was read back 200 under any configEnd path form, so no 404 proves a deletion';
  for (const [clause, why] of Object.entries(NOT_NAMED) as Array<[ClauseId, string]>) {
    if (v.decided(clause) || (clause === 'STATE-7' && spoke)) continue;
    const gone = clause === 'STATE-7' || clause === 'STATE-8';
    v.notExercised(clause, gone && forms.size === 0 && named.some((n) => n.clause === clause) ? unproven : why);
  }
}

/** ENV-1: a record read 200 is in the envelope of 2.3. */
function judgeEnvelope(n: Named, got: Read, v: Verdicts): void {
  const problems = envelopeProblems(got.json);
  v.that('ENV-1', 'a stored record is read in the envelope of 2.3', problems.length === 0, {
    id: 'env.envelope',
    expected: 'data, errors, warnings, callbackStatus, completedAt',
    seen: `${problems.join('; ')} (key ${n.serviceKey})`,
  });
}

/**
 * A record a config.saved named, read 200: in the envelope of 2.3 (ENV-1), and while it is a draft its
 * completedAt is set (ENV-3: the last-write time until completion). Another answer decides nothing: a
 * later write no callback shows may have moved it.
 */
function judgeSavedRecord(n: Named, got: Read, v: Verdicts): void {
  if (got.status !== 200) return;
  judgeEnvelope(n, got, v);
  const record = got.json as { callbackStatus?: unknown; completedAt?: unknown } | undefined;
  if (record?.callbackStatus !== 'PENDING') return;
  const set = typeof record.completedAt === 'string' && record.completedAt !== '';
  v.that('ENV-3', 'a draft carries completedAt, its last-write time', set, {
    id: IDS['ENV-3'],
    expected: `completedAt set on the draft ${n.serviceKey} (saved by ${at(n.entry)})`,
    seen: `completedAt ${JSON.stringify(record.completedAt) ?? 'absent'}`,
  });
}

/** What would exercise a read-back clause the callbacks gave nothing to read for. */
const NOT_NAMED: Partial<Record<ClauseId, string>> = {
  'ENV-1': 'no completed record was read back 200: complete a conversation whose records stay',
  'STATE-4': 'no completed record stayed to be read back: complete a conversation whose records stay',
  'DELIV-14': 'no onComplete failed on every attempt: `--inject onComplete=503,503,503`',
  'STATE-7': 'no config.deleted named a record: delete one instance through the chat',
  'STATE-8': 'no config.bulk_deleted named a record: delete a whole scope',
  'ENV-3': 'no config.saved named a record that stayed a draft: save fields without completing',
};

function judgeDelivered(n: Named, got: Read, v: Verdicts, proven: boolean): void {
  if (got.status === 409) return;
  if (got.status !== 200) {
    // 404 under every form: the record is gone, or the data API reads configEnd another way
    if (!proven) return;
    v.that(n.clause, 'a completed record is read back DELIVERED', false, {
      id: IDS[n.clause],
      expected: `GET by key ${n.serviceKey} answers 200 (completed by ${at(n.entry)})`,
      seen: `${got.status}`,
    });
    return;
  }
  judgeEnvelope(n, got, v);
  const status = (got.json as { callbackStatus?: unknown } | undefined)?.callbackStatus;
  if (status === 'DELIVERED')
    v.that(n.clause, 'a completed record is read back DELIVERED', true, { id: IDS[n.clause] });
  else if (status === 'PENDING') {
    v.warn(
      n.clause,
      'a completed record is read back DELIVERED',
      `key ${n.serviceKey} reads PENDING after ${at(n.entry)}: a host REST write over it, which no callback shows, ` +
        'may leave it PENDING (STATE-2 reading)',
    );
  }
}

/** Without the data API (or its token), what the read-back would decide says what would exercise it. */
export function notReadBack(v: Verdicts, why = HOW): void {
  for (const c of READ_BACK_CLAUSES) if (!v.decided(c)) v.notExercised(c, why);
}
