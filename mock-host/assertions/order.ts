/** The order of events (e.g. within one conversation): the entries, by arrival, must carry exactly `expected`. */
import type { JournalEntry, Verdict } from '../types.ts';

export function checkEventOrder(entries: JournalEntry[], expected: string[]): Verdict {
  const list = [...entries].sort((a, b) =>
    BigInt(a.arrival.monoNs) < BigInt(b.arrival.monoNs)
      ? -1
      : BigInt(a.arrival.monoNs) > BigInt(b.arrival.monoNs)
        ? 1
        : a.seq - b.seq,
  );
  const got = list.map((e) => e.event ?? '(no event)');
  const seqs = list.map((e) => e.seq);
  const named = list.map((e) => `#${e.seq} ${e.event ?? '(no event)'}`).join(', ');
  let firstDiff = -1;
  for (let i = 0; i < Math.max(got.length, expected.length); i++) {
    if (got[i] !== expected[i]) {
      firstDiff = i;
      break;
    }
  }
  if (firstDiff < 0)
    return { ok: true, sentence: `events arrived in the expected order: ${named || 'none'}.`, evidence: { seqs } };
  const at = list[firstDiff];
  return {
    ok: false,
    sentence: `events out of order at position ${firstDiff + 1}: expected ${expected[firstDiff] ?? 'nothing more'}, got ${at ? `#${at.seq} ${got[firstDiff]}` : 'nothing'}. Expected [${expected.join(', ')}], arrived [${named}].`,
    evidence: { seqs, details: { expected, got } },
  };
}
