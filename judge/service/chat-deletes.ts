/**
 * STATE-7 from the reads made as each config.deleted arrived (read-at-arrival.ts). Which config.deleted is
 * a chat delete's: the first naming its key, sent before any config.bulk_deleted naming that key; when a
 * scope delete names the key too, only if another config.deleted names it later (the scope's per-key
 * event of EVT-23), since a lone one may be the scope's own. Under a configEnd form proven by a 200 (at
 * the end, or at arrival itself), a 200 fails STATE-7: the record is already gone when config.deleted is
 * sent (section 6). A 404 holds it unless a scope delete named the key too, which may have removed it
 * before the read was made.
 */
import type { ConfigEndForm } from '../../spec/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { at, bodyOf } from './words.ts';
import type { Verdicts } from './verdicts.ts';
import type { ArrivalReads } from './read-at-arrival.ts';

const ID = 'state.chat-delete-removes';
const RULE = 'a record a chat delete removed reads 404 once its config.deleted arrives';
export const NOT_AT_ARRIVAL =
  'a chat-deleted record is decided by a read made as its config.deleted arrives, which a saved journal cannot ' +
  'give: observe live with `--data-api URL --token-env NAME`';

const keyOf = (p: Record<string, unknown>, k: unknown) => `${String(p.workspaceKey)}\u0000${String(k)}`;

/** The config.deleted entries a chat delete sent, by the first arrival of each delivery. */
function chatDeletes(callbacks: JournalEntry[]): Array<{ e: JournalEntry; scoped: boolean }> {
  const sorted = [...callbacks].sort((a, b) => a.seq - b.seq);
  const firstScope = new Map<string, number>();
  const deletes = new Map<string, JournalEntry[]>();
  const seen = new Set<string>();
  for (const e of sorted) {
    const p = bodyOf(e);
    if (!p) continue;
    const once = `${e.deliveryId ?? e.seq}\u0000${e.bodySha256}`;
    if (seen.has(once)) continue;
    seen.add(once);
    if (p.event === 'config.bulk_deleted' && Array.isArray(p.keys)) {
      for (const k of p.keys) if (!firstScope.has(keyOf(p, k))) firstScope.set(keyOf(p, k), e.seq);
    } else if (p.event === 'config.deleted' && typeof p.serviceKey === 'string') {
      const id = keyOf(p, p.serviceKey);
      deletes.set(id, [...(deletes.get(id) ?? []), e]);
    }
  }
  const out: Array<{ e: JournalEntry; scoped: boolean }> = [];
  for (const [id, list] of deletes) {
    const scope = firstScope.get(id);
    if (scope === undefined) out.push({ e: list[0]!, scoped: false });
    else if (list.length > 1 && list[0]!.seq < scope) out.push({ e: list[0]!, scoped: true });
  }
  return out;
}

/**
 * Judges STATE-7; `arrival` is undefined when nothing could be read at arrival (--from). Returns whether
 * it said anything of STATE-7 (a verdict or a reason).
 */
export function judgeChatDeletes(
  callbacks: JournalEntry[],
  arrival: ArrivalReads | undefined,
  forms: Map<string, ConfigEndForm>,
  v: Verdicts,
): boolean {
  const deletes = chatDeletes(callbacks);
  if (deletes.length === 0) return false;
  if (!arrival) {
    v.notExercised('STATE-7', NOT_AT_ARRIVAL);
    return true;
  }
  for (const { e, scoped } of deletes) {
    const r = arrival.get(e.seq);
    const key = r?.serviceKey ?? String(bodyOf(e)?.serviceKey);
    if (!r || r.error !== undefined) {
      v.notExercised('STATE-7', `key ${key} could not be read as ${at(e)} arrived: ${r?.error ?? 'no read made'}`);
      continue;
    }
    const proven = forms.get(r.workspaceKey);
    const form = proven ?? (Object.keys(r.byForm) as ConfigEndForm[]).find((f) => r.byForm[f] === 200);
    const status = form ? r.byForm[form] : undefined;
    if (status === undefined) {
      const seen = JSON.stringify(r.byForm);
      v.notExercised('STATE-7', `key ${key} read ${seen} as ${at(e)} arrived, under no configEnd form proven by a 200`);
      continue;
    }
    if (status === 409) {
      // held mid-migration (section 3): neither here nor gone
      v.notExercised('STATE-7', `key ${key} read 409 (held mid-migration) as ${at(e)} arrived`);
      continue;
    }
    if (status === 404 && scoped) {
      const why = `key ${key} read 404 as ${at(e)} arrived, but a scope delete named it too and may have removed it first`;
      v.notExercised('STATE-7', why);
      continue;
    }
    v.that('STATE-7', RULE, status === 404, {
      id: ID,
      expected: `GET by key ${key} answers 404 as ${at(e)} arrives (the record is already gone when it is sent)`,
      seen: `${status}`,
    });
  }
  return true;
}
