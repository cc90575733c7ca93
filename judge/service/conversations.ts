/**
 * What the callbacks of a conversation, taken together, say of the records it touched (sections 3 and 6),
 * and what the keys of the workspaces say of their environments (5.2):
 *
 *   EVT-6    an onComplete names no instance its own conversation deleted before it (a config.deleted, or
 *            a bulk delete's keys) and did not save again since: a deleted record is not finalized;
 *   SIGN-10  a sandbox (workspace key sb-...) never signs with a kid a production workspace signs with.
 *
 * Order is the service's: the payloads' timestamps (read as UTC, EVT-14), never the arrival order, since
 * best-effort events and onComplete travel apart; two events of one millisecond are not ordered, so they
 * decide nothing. A retry re-sends attempt 1's body: each delivery is read once.
 */
import type { JournalEntry } from '../../mock-host/index.ts';
import { TIMESTAMP_PATTERN, timestampMs } from './journal.ts';
import { at, bodyOf } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

const KEYS: CheckWords = { id: 'model.oncomplete-keys' };
const OWN_KID: CheckWords = { id: 'sign.sandbox-own-kid' };
const KEYS_RULE = 'an onComplete names no instance its conversation deleted before it';
const KID_RULE = 'a sandbox signs with a kid of its own, never one a production workspace signs with';

interface Event {
  e: JournalEntry;
  event: string;
  ms: number;
  keys: string[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : typeof v === 'string' ? [v] : [];

/** Each delivery once (its first arrival), with its send time, grouped by workspace and conversation. */
function byConversation(callbacks: readonly JournalEntry[]): Map<string, Event[]> {
  const seen = new Set<string>();
  const out = new Map<string, Event[]>();
  for (const e of callbacks) {
    const p = bodyOf(e);
    if (!p || typeof p.event !== 'string' || typeof p.timestamp !== 'string') continue;
    if (!TIMESTAMP_PATTERN.test(p.timestamp)) continue;
    // a bulk delete's pages share one delivery id: each page is its own event
    const once = `${e.deliveryId ?? e.seq}\u0000${e.bodySha256}`;
    if (seen.has(once)) continue;
    seen.add(once);
    const keys = strings(
      p.event === 'onComplete' ? p.serviceKeys : p.event === 'config.bulk_deleted' ? p.keys : p.serviceKey,
    );
    const key = JSON.stringify([p.workspaceKey ?? null, p.conversationId ?? null]);
    const list = out.get(key) ?? [];
    list.push({ e, event: p.event, ms: timestampMs(p.timestamp), keys });
    out.set(key, list);
  }
  return out;
}

/** EVT-6: the keys an onComplete names that its conversation deleted strictly before it, and not saved since. */
function judgeDeletedKeys(events: Event[], v: Verdicts): void {
  for (const done of events.filter((x) => x.event === 'onComplete')) {
    const named = done.keys.filter((k) => {
      const deleted = events.filter(
        (x) =>
          (x.event === 'config.deleted' || x.event === 'config.bulk_deleted') && x.keys.includes(k) && x.ms < done.ms,
      );
      if (deleted.length === 0) return false;
      const lastDelete = Math.max(...deleted.map((x) => x.ms));
      // saved again after the delete (a Setting record made anew may keep its key): finalized, rightly named
      return !events.some(
        (x) => x.event === 'config.saved' && x.keys.includes(k) && x.ms > lastDelete && x.ms < done.ms,
      );
    });
    v.that(
      'EVT-6',
      KEYS_RULE,
      named.length === 0,
      KEYS,
      named.length === 0
        ? undefined
        : () => ({
            expected: 'no key deleted earlier in the conversation',
            seen: `${named.join(', ')} (${at(done.e)})`,
          }),
    );
  }
}

/** SIGN-10: the kids each environment signed with (valid JWS only), none shared by a sandbox and production. */
function judgeSandboxKids(callbacks: readonly JournalEntry[], v: Verdicts): void {
  const sandbox = new Map<string, JournalEntry>();
  const production = new Map<string, JournalEntry>();
  for (const e of callbacks) {
    const kid = e.signature.kid;
    if (e.signature.verdict !== 'valid' || kid === undefined || e.workspaceKey === undefined) continue;
    const side = e.workspaceKey.startsWith('sb-') ? sandbox : production;
    if (!side.has(kid)) side.set(kid, e);
  }
  if (sandbox.size === 0 || production.size === 0) return;
  const shared = [...sandbox.keys()].filter((k) => production.has(k));
  v.that(
    'SIGN-10',
    KID_RULE,
    shared.length === 0,
    OWN_KID,
    shared.length === 0
      ? undefined
      : () => ({
          expected: 'a sandbox kid no production workspace uses',
          seen: shared.map((k) => `${k}: ${at(sandbox.get(k)!)} and ${at(production.get(k)!)}`).join('; '),
        }),
  );
}

/** Whether any callback deletes a record: only then can an onComplete name a deleted key (most traffic: none). */
function deletes(callbacks: readonly JournalEntry[]): boolean {
  for (const e of callbacks) if (e.event === 'config.deleted' || e.event === 'config.bulk_deleted') return true;
  return false;
}

export function judgeConversations(callbacks: readonly JournalEntry[], v: Verdicts): void {
  if (deletes(callbacks)) for (const events of byConversation(callbacks).values()) judgeDeletedKeys(events, v);
  judgeSandboxKids(callbacks, v);
}
