/**
 * What must have happened by the end of a test, derived from the ledger (ledger.ts) for every exchange the
 * test sent, whichever rule the test itself is about; a test only sends and, where it has words of its own,
 * says what must follow (Expectation). Each duty names the clause its own condition decides:
 *   - an acknowledged, correctly signed onComplete has every key of serviceKeys read over the data API
 *     (HOST-13, section 6 rule 8), unless its history makes another clause's rule the one it tests:
 *       the same bytes under a delivery id already acknowledged: a redelivery, not handled again (HOST-11);
 *       after a forged copy of it was refused: the genuine one is its first, handled (HOST-11);
 *       after other events of its conversation (their own delivery ids): no duplicate, handled (HOST-11);
 *       a key an earlier onComplete (another delivery id) named: handled again (HOST-20, rule 5);
 *       first seen at attempt 2 or 3: handled like attempt 1 (HOST-12);
 *     those are decided only where the test's plain onCompletes (the controls) were handled, so a receiver
 *     that reads nothing fails HOST-13 alone;
 *   - a 2xx to a correctly signed facts GET is a facts answer (HOST-15);
 *   - a copy a test forged on purpose is refused (the clause the test names).
 */
import type { ClauseId, HostCheckId } from '../../spec/index.ts';
import { isAck } from './exchange.ts';
import { serviceKeysOf, type Exchange, type Ledger } from './ledger.ts';

export type Given = { kind: 'handled' | 'refused'; e: Exchange };

export type Duty =
  | { kind: 'read'; e: Exchange; clause: ClauseId; id: HostCheckId; rule: string; given: Given[] }
  | { kind: 'not-again'; e: Exchange; original: Exchange; clause: ClauseId; id: HostCheckId; rule: string }
  | { kind: 'facts'; e: Exchange; clause: ClauseId }
  | { kind: 'refused'; e: Exchange; clause: ClauseId; id: HostCheckId; rule: string };

type History = 'redelivery' | 'after-forged' | 'same-conversation' | 'later-complete' | 'unseen-retry' | 'plain';

const isComplete = (e: Exchange): boolean => e.kind === 'callback' && e.payload?.event === 'onComplete';
/** A refusal: an answer in 4xx that is no "no hook here" (404 is HOST-1's). */
export const refusedAnswer = (e: Exchange): boolean =>
  e.outcome.status !== undefined && e.outcome.status >= 400 && e.outcome.status < 500 && e.outcome.status !== 404;

/** What the exchanges sent before e (any test of this worker) make of it, and the one it follows. */
function historyOf(e: Exchange, ledger: Ledger): { h: History; of?: Exchange } {
  const earlier = ledger.exchanges.filter((x) => x.kind === 'callback' && x.sentAtMs < e.sentAtMs && x !== e);
  const sameId = earlier.filter((x) => x.deliveryId === e.deliveryId);
  const original = sameId.find((x) => x.genuine && isAck(x.outcome) && x.bodyHash === e.bodyHash);
  if (original !== undefined) return { h: 'redelivery', of: original };
  const forged = sameId.find((x) => !x.genuine);
  if (forged !== undefined) return { h: 'after-forged', of: forged };
  const conversation = e.payload?.conversationId;
  if (earlier.some((x) => x.payload?.conversationId === conversation && x.deliveryId !== e.deliveryId))
    return { h: 'same-conversation' };
  const keys = new Set(serviceKeysOf(e.payload));
  const before = earlier.find(
    (x) =>
      isComplete(x) &&
      x.genuine &&
      isAck(x.outcome) &&
      x.endUserHandle === e.endUserHandle &&
      serviceKeysOf(x.payload).some((k) => keys.has(k)),
  );
  if (before !== undefined) return { h: 'later-complete', of: before };
  if ((e.attempt ?? 1) > 1 && sameId.length === 0) return { h: 'unseen-retry' };
  return { h: 'plain' };
}

const HISTORY: Record<Exclude<History, 'redelivery' | 'plain'>, { clause: ClauseId; id: HostCheckId; rule: string }> = {
  'after-forged': {
    clause: 'HOST-11',
    id: 'delivery.genuine-after-forged-handled',
    rule: 'a genuine onComplete that follows a forged copy with its delivery id is handled: its keys are read',
  },
  'same-conversation': {
    clause: 'HOST-11',
    id: 'delivery.same-conversation-handled',
    rule: 'an onComplete that follows other events of its conversation (their own delivery ids) is handled: its keys are read',
  },
  'later-complete': {
    clause: 'HOST-20',
    id: 'delivery.repeat-complete-read',
    rule:
      'a later onComplete of the same key, with a new delivery id, is handled again: the key is read again ' +
      '(section 6 rule 5)',
  },
  'unseen-retry': {
    clause: 'HOST-12',
    id: 'delivery.unseen-retry-handled',
    rule: 'an onComplete first seen at attempt 2 or 3 is handled like attempt 1: its keys are read',
  },
};

export const EVERY_KEY_RULE =
  'every key of an acknowledged onComplete is read over the data API, whichever test sent it (section 6 rule 8)';

/** The duties of the exchanges a test sent. */
export function dutiesOf(ledger: Ledger, testId: string): Duty[] {
  const mine = ledger.ofTest(testId);
  const histories = new Map(mine.map((e) => [e, historyOf(e, ledger)] as const));
  const acked = (e: Exchange) => isComplete(e) && e.genuine && isAck(e.outcome);
  // The controls: the test's plain onCompletes of the same signing mode, acknowledged.
  const controls = (e: Exchange): Given[] =>
    mine
      .filter((x) => acked(x) && x.mode === e.mode && histories.get(x)?.h === 'plain')
      .map((x) => ({ kind: 'handled', e: x }));
  const out: Duty[] = [];
  for (const e of mine) {
    if (e.kind === 'facts') {
      if (e.genuine && isAck(e.outcome)) out.push({ kind: 'facts', e, clause: 'HOST-15' });
      continue;
    }
    const refused = e.expect?.refused;
    if (!e.genuine && refused !== undefined) out.push({ kind: 'refused', e, ...refused });
    if (!acked(e)) continue;
    const { h, of } = histories.get(e)!;
    if (h === 'redelivery') {
      const rule =
        `an onComplete redelivered (same delivery id, same body, attempt ${e.attempt ?? 1}) is deduped on its ` +
        'delivery id: its keys are not read again';
      out.push({ kind: 'not-again', e, original: of!, clause: 'HOST-11', id: 'delivery.redelivery-deduped', rule });
    } else if (h === 'plain') {
      const check = e.expect?.keysRead ?? { id: 'observe.every-key-read', rule: EVERY_KEY_RULE };
      out.push({ kind: 'read', e, clause: 'HOST-13', ...check, given: [] });
    } else {
      // A controlled rule needs a control: without one in the test (none sent, none acknowledged) it is undecided.
      const control = controls(e);
      const forged: Given[] = h === 'after-forged' ? [{ kind: 'refused', e: of! }] : [];
      const before: Given[] = h === 'later-complete' ? [{ kind: 'handled', e: of! }] : [];
      const given = [...control, ...forged, ...before];
      if (control.length > 0 || before.length > 0) out.push({ kind: 'read', e, ...HISTORY[h], given });
    }
  }
  return out;
}
