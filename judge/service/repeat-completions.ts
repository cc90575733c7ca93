/**
 * DELIV-13 from the callbacks: a key completed in one conversation and edited and completed again in a later
 * one is announced by a second onComplete with a delivery id of its own. Two onCompletes of one workspace, of
 * two conversations, naming a key in common, carry two delivery ids. (That the second completion fires an
 * onComplete at all needs the driver: traffic does not show a completion that sent nothing.)
 */
import type { JournalEntry } from '../../mock-host/index.ts';
import { at, bodyOf } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

const NEW_ID: CheckWords = { id: 'delivery.repeat-complete-new-id' };
const RULE = 'an onComplete of a later conversation naming a key completed before carries a new delivery id';

/**
 * A key's completions: the first conversation's onComplete, and the first of each later conversation (by its
 * conversation, keyOf) once there is one. Each onComplete has a delivery id.
 */
interface KeyCompletions {
  conversation: unknown;
  first: JournalEntry;
  more: Map<unknown, JournalEntry> | undefined;
}

/**
 * A JSON value as a Map key, equal for equal values: a primitive as itself (a string's hash is kept with it),
 * an array or object as its JSON text after a NUL, and a string that starts with a NUL after a second one.
 */
function keyOf(value: unknown): unknown {
  if (typeof value === 'string') return value.charCodeAt(0) === 0 ? `\u0000${value}` : value;
  if (typeof value === 'object' && value !== null) return `\u0000${JSON.stringify(value)}`;
  return value ?? null;
}

export function judgeRepeatCompletions(callbacks: readonly JournalEntry[], v: Verdicts): void {
  // per workspace and key, the first onComplete of each conversation naming it; a key of one conversation keeps
  // no map of its own (a load test's hundred thousand keys each named once)
  const byWorkspace = new Map<unknown, Map<string, KeyCompletions>>();
  for (const e of callbacks) {
    if (e.event !== 'onComplete' || e.deliveryId === undefined) continue;
    const p = bodyOf(e);
    if (!p || !Array.isArray(p.serviceKeys)) continue;
    const conversation = keyOf(p.conversationId);
    const workspace = keyOf(p.workspaceKey);
    let byKey = byWorkspace.get(workspace);
    if (byKey === undefined) byWorkspace.set(workspace, (byKey = new Map()));
    for (const k of p.serviceKeys) {
      if (typeof k !== 'string') continue;
      const seen = byKey.get(k);
      if (seen === undefined) {
        byKey.set(k, { conversation, first: e, more: undefined });
      } else if (seen.conversation !== conversation) {
        seen.more ??= new Map();
        if (!seen.more.has(conversation)) seen.more.set(conversation, e);
      }
    }
  }
  for (const byKey of byWorkspace.values()) for (const [key, completions] of byKey) judgeKey(key, completions, v);
}

/** DELIV-13 for one key: the conversations that completed it carry delivery ids of their own. */
function judgeKey(key: string, { first, more }: KeyCompletions, v: Verdicts): void {
  if (more === undefined) return;
  const all = [first, ...more.values()];
  // one pass: a key completed in many conversations (a load test's) is judged in linear time
  const byId = new Map<string, number>();
  for (const c of all) byId.set(c.deliveryId!, (byId.get(c.deliveryId!) ?? 0) + 1);
  const shared = all.filter((c) => byId.get(c.deliveryId!)! > 1);
  v.that(
    'DELIV-13',
    RULE,
    shared.length === 0,
    NEW_ID,
    shared.length === 0
      ? undefined
      : () => ({
          expected: 'a delivery id per conversation completing the key',
          seen: `key ${key} completed in ${shared.length} conversations under ${shared[0]!.deliveryId} (${shared.map(at).join('; ')})`,
        }),
  );
}
