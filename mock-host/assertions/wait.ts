/** Waiting on the journal with a deadline; never throws on timeout, says what arrived instead. */
import { describeFilter, matchesFilter, summarizeEntry } from '../journal.ts';
import type { EntryFilter, Journal, JournalEntry, Verdict } from '../types.ts';

export async function waitForEntries(
  journal: Journal,
  filter: EntryFilter,
  o: { count?: number; deadlineMs: number },
): Promise<Verdict & { entries: JournalEntry[] }> {
  const count = o.count ?? 1;
  const start = performance.now();
  try {
    const entries = await journal.waitFor(filter, { count, timeoutMs: o.deadlineMs });
    const ms = Math.round(performance.now() - start);
    return {
      ok: true,
      sentence: `${count} request(s) matching ${describeFilter(filter)} arrived within ${ms} ms (deadline ${o.deadlineMs} ms): ${entries.map((e) => `#${e.seq}`).join(', ')}.`,
      evidence: { seqs: entries.map((e) => e.seq), times: { waitedMs: ms, deadlineMs: o.deadlineMs } },
      entries,
    };
  } catch {
    const got = journal.entries(filter);
    return {
      ok: false,
      sentence:
        `expected ${count} request(s) matching ${describeFilter(filter)} within ${o.deadlineMs} ms, ${got.length} arrived` +
        (got.length ? `: ${got.map(summarizeEntry).join('; ')}` : '') +
        '.',
      evidence: { seqs: got.map((e) => e.seq), times: { deadlineMs: o.deadlineMs } },
      entries: got,
    };
  }
}

/** Waits the whole window (the contract's window, scaled by the caller) and fails on any match. */
export function assertNothingArrives(journal: Journal, filter: EntryFilter, o: { windowMs: number }): Promise<Verdict> {
  const startNs = process.hrtime.bigint();
  const before = new Set(journal.entries(filter).map((e) => e.seq));
  return new Promise((resolve) => {
    const seen: JournalEntry[] = [];
    const off = journal.onEntry((e, phase) => {
      if (phase === 'finished' || before.has(e.seq) || seen.some((s) => s.seq === e.seq)) return;
      if (matchesFilter(e, filter)) seen.push(e);
    });
    setTimeout(() => {
      off();
      // entries whose fields were filled only at completion are caught here too
      for (const e of journal.entries(filter))
        if (!before.has(e.seq) && !seen.some((s) => s.seq === e.seq)) seen.push(e);
      const times: Record<string, number> = { windowMs: o.windowMs };
      for (const e of seen) times[`#${e.seq}`] = Number((BigInt(e.arrival.monoNs) - startNs) / 1_000_000n);
      resolve(
        seen.length === 0
          ? {
              ok: true,
              sentence: `no request matching ${describeFilter(filter)} arrived within the ${o.windowMs} ms window.`,
              evidence: { seqs: [], times },
            }
          : {
              ok: false,
              sentence: `expected no request matching ${describeFilter(filter)} within ${o.windowMs} ms, but ${seen.length} arrived: ${seen
                .map((e) => `${summarizeEntry(e)} at ${times[`#${e.seq}`]} ms`)
                .join('; ')}.`,
              evidence: { seqs: seen.map((e) => e.seq), times },
            },
      );
    }, o.windowMs);
  });
}
