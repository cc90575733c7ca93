/**
 * Interval arithmetic over journal entries, on the mock host's monotonic clock (PITFALLS: Timing).
 */
import type { JournalEntry } from '../../../mock-host/index.ts';
import type { Timing } from '../fixtures.ts';

export function monoMs(ns: string): number {
  return Number(BigInt(ns) / 1000n) / 1000;
}

/** From the end of an attempt (answer, reset, or the client giving up) to the arrival of the next (DELIV-8 reading). */
export function gapMs(prev: JournalEntry, next: JournalEntry): number | undefined {
  if (!prev.finished) return undefined;
  return monoMs(next.arrival.monoNs) - monoMs(prev.finished.monoNs);
}

export function durationMs(e: JournalEntry): number | undefined {
  if (!e.finished) return undefined;
  return monoMs(e.finished.monoNs) - monoMs(e.arrival.monoNs);
}

/** The tolerance of a contract interval: the one rule of target/timing.ts. */
export function toleranceFor(timing: Timing, contractMs: number): number {
  return timing.tolerance(contractMs);
}

/** Whether measured is within tolerance of the scaled contract interval; a sentence either way. */
export function within(timing: Timing, measured: number | undefined, contractMs: number): { ok: boolean; sentence: string } {
  const expected = timing.scaled(contractMs);
  const tol = toleranceFor(timing, contractMs);
  if (measured === undefined) return { ok: false, sentence: `no measurement (entry not finished); expected ${expected} ms ± ${tol} ms` };
  const ok = Math.abs(measured - expected) <= tol;
  return { ok, sentence: `measured ${measured.toFixed(0)} ms, expected ${expected.toFixed(0)} ms ± ${tol.toFixed(0)} ms (contract ${contractMs} ms × scale ${timing.timeScale})` };
}
