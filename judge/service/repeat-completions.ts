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

interface Completion {
  e: JournalEntry;
  conversation: string;
  deliveryId: string;
}

export function judgeRepeatCompletions(callbacks: readonly JournalEntry[], v: Verdicts): void {
  // per workspace and key: the first onComplete of each conversation naming it
  const byKey = new Map<string, Map<string, Completion>>();
  for (const e of callbacks) {
    if (e.event !== 'onComplete' || e.deliveryId === undefined) continue;
    const p = bodyOf(e);
    if (!p || !Array.isArray(p.serviceKeys)) continue;
    const conversation = JSON.stringify(p.conversationId ?? null);
    for (const k of p.serviceKeys) {
      if (typeof k !== 'string') continue;
      const key = JSON.stringify([p.workspaceKey ?? null, k]);
      const seen = byKey.get(key) ?? new Map<string, Completion>();
      if (!seen.has(conversation)) seen.set(conversation, { e, conversation, deliveryId: e.deliveryId });
      byKey.set(key, seen);
    }
  }
  for (const [key, seen] of byKey) {
    if (seen.size < 2) continue;
    const all = [...seen.values()];
    // one pass: a key completed in many conversations (a load test's) is judged in linear time
    const byId = new Map<string, number>();
    for (const c of all) byId.set(c.deliveryId, (byId.get(c.deliveryId) ?? 0) + 1);
    const shared = all.filter((c) => byId.get(c.deliveryId)! > 1);
    v.that(
      'DELIV-13',
      RULE,
      shared.length === 0,
      NEW_ID,
      shared.length === 0
        ? undefined
        : () => ({
            expected: 'a delivery id per conversation completing the key',
            seen: `key ${JSON.parse(key)[1]} completed in ${shared.length} conversations under ${shared[0]!.deliveryId} (${shared.map((c) => at(c.e)).join('; ')})`,
          }),
    );
  }
}
