/**
 * Interval arithmetic over journal entries, on the mock host's monotonic clock (PITFALLS: Timing).
 */
import type { JournalEntry } from '../../../mock-host/index.ts';
import type { Timing } from '../fixtures.ts';
import type { TimelineSpec } from '../clients/evidence.ts';
import { CONTRACT } from '../../../protocol/index.ts';

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

/** The tolerance of a contract interval: the one rule of target/service/timing.ts. */
export function toleranceFor(timing: Timing, contractMs: number): number {
  return timing.tolerance(contractMs);
}

/** Whether measured is within tolerance of the scaled contract interval; a sentence either way. */
export function within(
  timing: Timing,
  measured: number | undefined,
  contractMs: number,
): { ok: boolean; sentence: string } {
  const expected = timing.scaled(contractMs);
  const tol = toleranceFor(timing, contractMs);
  if (measured === undefined)
    return { ok: false, sentence: `no measurement (entry not finished); expected ${expected} ms ± ${tol} ms` };
  const ok = Math.abs(measured - expected) <= tol;
  return {
    ok,
    sentence: `measured ${measured.toFixed(0)} ms, expected ${expected.toFixed(0)} ms ± ${tol.toFixed(0)} ms (contract ${contractMs} ms × scale ${timing.timeScale})`,
  };
}

/**
 * The same measurement in a check's words: what the rule expects ("2000 ms ± 500 ms (contract
 * 20000 ms × scale 0.1)") and what was seen ("230 ms", or why nothing could be measured).
 */
export function withinWords(
  timing: Timing,
  measured: number | undefined,
  contractMs: number,
  unmeasured = 'no measurement (the attempt had not finished)',
): { ok: boolean; expected: string; seen: string } {
  const expected = timing.scaled(contractMs);
  const tol = toleranceFor(timing, contractMs);
  const words = `${expected.toFixed(0)} ms ± ${tol.toFixed(0)} ms (contract ${contractMs} ms × scale ${timing.timeScale})`;
  if (measured === undefined) return { ok: false, expected: words, seen: unmeasured };
  return { ok: Math.abs(measured - expected) <= tol, expected: words, seen: `${measured.toFixed(0)} ms` };
}

/**
 * The expected windows of onComplete's retry schedule, for the report's timeline: about 5 s before
 * attempt 2 and about 20 s before attempt 3, from the end of the previous attempt (DELIV-8 reading),
 * with the tolerances the checks use. `held`: attempt 1 is held, so it should end at the 10 s
 * whole-request timeout (DELIV-3).
 */
export function retryTimeline(timing: Timing, o: { held?: boolean; attempts?: 2 | 3 } = {}): TimelineSpec {
  const [b1, b2] = CONTRACT.backoffMs;
  const windows: TimelineSpec['windows'] = [];
  if (o.held)
    windows.push({
      attempt: 1,
      from: 'start',
      expectedMs: timing.scaled(CONTRACT.requestTimeoutMs),
      toleranceMs: toleranceFor(timing, CONTRACT.requestTimeoutMs),
      contractMs: CONTRACT.requestTimeoutMs,
      label: 'attempt 1 (held by the host) was given up',
    });
  windows.push({
    attempt: 2,
    from: 'previous-end',
    expectedMs: timing.scaled(b1!),
    toleranceMs: toleranceFor(timing, b1!),
    contractMs: b1!,
    label: 'attempt 2 (back-off about 5 s) started',
  });
  if ((o.attempts ?? 3) === 3)
    windows.push({
      attempt: 3,
      from: 'previous-end',
      expectedMs: timing.scaled(b2!),
      toleranceMs: toleranceFor(timing, b2!),
      contractMs: b2!,
      label: 'attempt 3 (back-off about 20 s) started',
    });
  return { timeScale: timing.timeScale, windows };
}

/** A held request that the service must give up after `contractMs` (DELIV-3, FACTS-5), for the timeline. */
export function timeoutTimeline(timing: Timing, contractMs: number, label: string): TimelineSpec {
  return {
    timeScale: timing.timeScale,
    windows: [
      {
        attempt: 1,
        from: 'start',
        expectedMs: timing.scaled(contractMs),
        toleranceMs: toleranceFor(timing, contractMs),
        contractMs,
        label,
      },
    ],
  };
}
