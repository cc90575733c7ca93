/**
 * DELIV-7/DELIV-8: the retry schedule of one delivery. Gaps are measured from the END of attempt
 * n (answer sent, reset, closed, or the client gave up) to the arrival of attempt n+1, on the
 * monotonic clock (clauses.yaml reading of DELIV-8).
 */
import type { JournalEntry, Verdict } from '../types.ts';

const ms = (ns: bigint) => Number(ns) / 1e6;
const r = (x: number) => Math.round(x);

export function checkRetrySchedule(
  entries: JournalEntry[],
  o: { expectedGapsMs: number[]; toleranceMs: number; timeScale?: number; maxAttempts?: number },
): Verdict {
  const scale = o.timeScale ?? 1;
  const list = [...entries].sort((a, b) => a.seq - b.seq);
  const seqs = list.map((e) => e.seq);
  const times: Record<string, number> = {};
  const problems: string[] = [];
  const maxAttempts = o.maxAttempts ?? o.expectedGapsMs.length + 1;
  if (list.length === 0)
    return { ok: false, sentence: 'no attempts to check the retry schedule of.', evidence: { seqs } };
  const ids = new Set(list.map((e) => e.deliveryId));
  if (ids.size > 1) problems.push(`the entries are of ${ids.size} deliveries (${[...ids].join(', ')}), not one`);
  if (list.length > maxAttempts) problems.push(`${list.length} attempts arrived, at most ${maxAttempts} allowed`);
  const gaps: string[] = [];
  for (let i = 1; i < list.length; i++) {
    const prev = list[i - 1]!;
    const cur = list[i]!;
    const expected = o.expectedGapsMs[i - 1];
    if (!prev.finished) {
      problems.push(`attempt #${prev.seq} has not finished, so the gap to #${cur.seq} cannot be measured`);
      continue;
    }
    const gap = ms(BigInt(cur.arrival.monoNs) - BigInt(prev.finished.monoNs));
    times[`gap${i}`] = r(gap);
    if (expected === undefined) {
      gaps.push(`#${prev.seq}->#${cur.seq} ${r(gap)} ms (no gap expected)`);
      continue;
    }
    const want = expected * scale;
    times[`expected${i}`] = r(want);
    const off = gap - want;
    gaps.push(
      `#${prev.seq} ended (${prev.finished.outcome}) -> #${cur.seq} arrived after ${r(gap)} ms, expected ${r(want)} ± ${r(o.toleranceMs)} ms`,
    );
    if (Math.abs(off) > o.toleranceMs) {
      problems.push(
        `gap before #${cur.seq} is ${r(gap)} ms, ${off > 0 ? 'later' : 'earlier'} than ${r(want)} ms by ${r(Math.abs(off))} ms (tolerance ${r(o.toleranceMs)} ms)`,
      );
    }
  }
  const ok = problems.length === 0;
  const summary = gaps.length ? gaps.join('; ') : `one attempt (#${list[0]!.seq})`;
  return {
    ok,
    sentence: ok
      ? `retry schedule holds: ${list.length} attempt(s); ${summary}.`
      : `retry schedule broken: ${problems.join('; ')}. Observed: ${summary}.`,
    evidence: {
      seqs,
      times,
      details: {
        outcomes: list.map((e) => ({
          seq: e.seq,
          attempt: e.attempt,
          outcome: e.finished?.outcome,
          status: e.response?.status,
        })),
      },
    },
  };
}
