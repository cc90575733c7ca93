/**
 * DELIV-11 / SIGN-5: the attempts of one delivery carry the same delivery id and identical body
 * bytes, and each is freshly signed: a valid signature whose t is near that attempt's own arrival.
 */
import type { JournalEntry, Verdict } from '../types.ts';

export function checkStableAcrossAttempts(entries: JournalEntry[], o: { maxSkewSeconds?: number } = {}): Verdict {
  const maxSkew = o.maxSkewSeconds ?? 5;
  const list = [...entries].sort((a, b) => a.seq - b.seq);
  const seqs = list.map((e) => e.seq);
  if (list.length === 0) return { ok: false, sentence: 'no attempts to compare.', evidence: { seqs } };
  const problems: string[] = [];
  const first = list[0]!;
  for (const e of list) {
    if (e.deliveryId === undefined) problems.push(`#${e.seq} has no X-Service-Delivery-Id`);
    else if (e.deliveryId !== first.deliveryId)
      problems.push(`#${e.seq} has delivery id ${e.deliveryId}, #${first.seq} has ${first.deliveryId ?? 'none'}`);
    if (e.bodySha256 !== first.bodySha256)
      problems.push(
        `#${e.seq} body differs from #${first.seq} (sha256 ${e.bodySha256.slice(0, 12)}… vs ${first.bodySha256.slice(0, 12)}…, ${e.bodySize} vs ${first.bodySize} bytes)`,
      );
    if (e.signature.mode !== 'none') {
      if (e.signature.verdict !== 'valid')
        problems.push(`#${e.seq} signature is ${e.signature.verdict}: ${e.signature.reason}`);
      else if (e.signature.t !== undefined) {
        const skew = e.arrival.wallMs / 1000 - e.signature.t;
        if (Math.abs(skew) > maxSkew)
          problems.push(
            `#${e.seq} was signed with t=${e.signature.t}, ${skew.toFixed(1)} s from its arrival (max ${maxSkew} s): not freshly signed`,
          );
      }
    }
  }
  const ts = list.map((e) => e.signature.t).filter((t): t is number => t !== undefined);
  const details = list.map((e) => ({
    seq: e.seq,
    deliveryId: e.deliveryId,
    bodySha256: e.bodySha256,
    t: e.signature.t,
    verdict: e.signature.verdict,
    arrivalWallMs: e.arrival.wallMs,
  }));
  const ok = problems.length === 0;
  return {
    ok,
    sentence: ok
      ? `${list.length} attempt(s) ${seqs.map((s) => `#${s}`).join(', ')} share delivery id ${first.deliveryId} and identical body bytes, each validly signed near its arrival${ts.length ? ` (t ${ts.join(', ')})` : ''}.`
      : `attempts ${seqs.map((s) => `#${s}`).join(', ')} are not stable and freshly signed: ${problems.join('; ')}.`,
    evidence: { seqs, details },
  };
}
