/**
 * What followed each onComplete attempt, against how the attempt ended (section 6): a 5xx or a
 * timeout must be followed by a retry after the back-off (DELIV-4, DELIV-6, DELIV-7, DELIV-8); a 2xx
 * or a 4xx by none (DELIV-10), except a 2xx given at or after the 10 s timeout (DELIV-12); a reset or
 * a close by the host may be followed by a retry or not (DELIV-10 reading), and a retry keeps the
 * back-off. An attempt the host held (`--inject onComplete=hold:MS`) decides the whole-request timeout
 * itself (DELIV-3). Gaps and durations are on the mock host's monotonic clock, from the end of an
 * attempt (DELIV-8 reading); tolerances are the suites' own (target/service/timing.ts).
 */
import { CONTRACT } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { HARNESS_SLACK_MS, type Timing } from '../../target/service/timing.ts';
import { TIMESTAMP_PATTERN, timestampMs } from './journal.ts';
import { at, bodyOf } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

/** How an attempt ended, as the mock host saw it. */
export type AttemptEnd =
  | { kind: 'open' }
  | { kind: '5xx'; status: number }
  /** held by the host (--inject hold:MS) and given up by the service before any answer */
  | { kind: 'timeout'; heldMs: number }
  /** reset or closed by the host: not an answer (DELIV-10 reading) */
  | { kind: 'network'; fault: string }
  | { kind: 'answered'; status: number; heldMs?: number };

const HELD = new Set(['hold', 'never']);
const NETWORK = new Set(['reset', 'close', 'refuse']);
const ms = (ns: bigint): number => Number(ns / 1_000_000n);

export function endOfAttempt(e: JournalEntry): AttemptEnd {
  if (!e.finished) return { kind: 'open' };
  const r = e.response ?? {};
  if (r.fault !== undefined && NETWORK.has(r.fault)) return { kind: 'network', fault: r.fault };
  const heldMs = r.fault !== undefined && HELD.has(r.fault) ? (r.delayMs ?? Number.POSITIVE_INFINITY) : undefined;
  if (r.status === undefined) return heldMs !== undefined ? { kind: 'timeout', heldMs } : { kind: 'open' };
  if (r.status >= 500) return { kind: '5xx', status: r.status };
  // no spread: one literal or the other (the same keys), as the judge asks this of every attempt
  return heldMs !== undefined ? { kind: 'answered', status: r.status, heldMs } : { kind: 'answered', status: r.status };
}

/**
 * How long at least the attempt was on its way before it reached the host, by the service's own clock:
 * attempt 1 was made no earlier than its payload's timestamp (the event's time, EVT-14), a signed retry no
 * earlier than its t (whole seconds: the second is counted in full). 0 when neither says.
 */
export function lateBy(e: JournalEntry): number {
  const ts = bodyOf(e)?.timestamp;
  const first = e.headers['x-service-delivery-attempt'] === '1';
  const made =
    first && typeof ts === 'string' && TIMESTAMP_PATTERN.test(ts)
      ? timestampMs(ts)
      : e.signature.t !== undefined
        ? e.signature.t * 1000 + 999
        : undefined;
  return made === undefined ? 0 : Math.max(0, e.arrival.wallMs - made);
}

/** The attempt's duration on the mock host: arrival to its end (answer, reset, or the service giving up). */
function durationMs(e: JournalEntry): number {
  return ms(BigInt(e.finished!.monoNs) - BigInt(e.arrival.monoNs));
}

interface TimeoutBand {
  /** scaled(10 s) */
  timeout: number;
  tol: number;
  /** DELIV-3 reading: "just under" the timeout is scaled(10 s) minus twice the tolerance, at least half of it. */
  under: number;
}

function band(timing: Timing): TimeoutBand {
  const t = CONTRACT.requestTimeoutMs;
  const timeout = timing.scaled(t);
  const tol = timing.tolerance(t);
  return { timeout, tol, under: Math.max(timeout - 2 * tol, timeout / 2) };
}

const NO_RETRY_AFTER_2XX: CheckWords = { id: 'delivery.no-retry-after-2xx-4xx' };
const GIVE_UP = 'the service gives up an attempt held by the host at the 10 s whole-request timeout';
const WAITED = 'an attempt answered 200 under the 10 s timeout is waited for and not retried';

/** DELIV-3 from one held attempt: given up at 10 s (scaled), never before, never waited for past it. */
export function judgeHeld(e: JournalEntry, end: AttemptEnd, v: Verdicts, timing: Timing): void {
  if (end.kind !== 'timeout' && !(end.kind === 'answered' && end.heldMs !== undefined)) return;
  const b = band(timing);
  const d = durationMs(e);
  const expected = `given up ${Math.round(b.timeout)} ± ${Math.round(b.tol)} ms after it arrived (contract 10 s × scale ${timing.timeScale})`;
  if (end.kind === 'timeout') {
    // held past the timeout: request-timeout-10s's rule; held less long, the early give-up is a slow success lost
    const id = end.heldMs >= b.timeout ? 'delivery.request-timeout-10s' : 'delivery.slow-success-not-retried';
    v.that('DELIV-3', end.heldMs >= b.timeout ? GIVE_UP : WAITED, Math.abs(d - b.timeout) <= b.tol, {
      id,
      expected,
      seen: `given up after ${d} ms of a ${end.heldMs} ms hold (${at(e)})`,
    });
    return;
  }
  if (d > b.timeout + b.tol) {
    v.that('DELIV-3', GIVE_UP, false, {
      id: 'delivery.request-timeout-10s',
      expected,
      seen: `still waiting after ${d} ms: the held answer ${end.status} was sent then (${at(e)})`,
    });
  }
}

/** A 2xx held until just under the timeout: a retry of it is a timeout shorter than 10 s (DELIV-10 reading). */
function slowSuccess(e: JournalEntry, end: AttemptEnd, timing: Timing): boolean {
  if (end.kind !== 'answered' || end.heldMs === undefined || end.status >= 300) return false;
  const b = band(timing);
  const d = durationMs(e);
  return d >= b.under && d < b.timeout - b.tol;
}

/**
 * The latest moment (the mock host's monotonic clock, ns) the retry after attempt `i + 1` may come when
 * that attempt ended at `endNs` refused: the back-off before it, scaled, with its tolerance and the
 * harness's slack (DELIV-8).
 */
export function retryDeadlineNs(endNs: bigint, i: number, timing: Timing): bigint {
  const backoff = CONTRACT.backoffMs[i]!;
  const dueMs = timing.scaled(backoff) + timing.tolerance(backoff) + HARNESS_SLACK_MS;
  return endNs + BigInt(Math.round(dueMs)) * 1_000_000n;
}

/**
 * Until when an observation must go on for the retries its answers made due: the latest retry deadline
 * of an onComplete attempt (1 or 2) that was refused and has no later attempt yet, or of one still open
 * (held: its end is still to come). Undefined when none is pending. observe's --idle waits for it.
 */
export function retriesDueUntilNs(entries: readonly JournalEntry[], timing: Timing): bigint | undefined {
  const later = new Set<string>();
  let until: bigint | undefined;
  for (let k = entries.length - 1; k >= 0; k--) {
    const e = entries[k]!;
    if (e.kind !== 'lifecycle' || e.event !== 'onComplete' || e.deliveryId === undefined) continue;
    const attempt = e.attempt ?? 1;
    const superseded = later.has(e.deliveryId);
    later.add(e.deliveryId);
    if (superseded || attempt >= CONTRACT.maxAttempts) continue;
    const end = endOfAttempt(e);
    if (end.kind !== 'open' && end.kind !== '5xx' && end.kind !== 'timeout' && end.kind !== 'network') continue;
    // an attempt still open ends by the whole-request timeout at the latest (DELIV-3), its retry after that
    const t = CONTRACT.requestTimeoutMs;
    const openUntil = () =>
      BigInt(e.arrival.monoNs) + BigInt(Math.round(timing.scaled(t) + timing.tolerance(t))) * 1_000_000n;
    const due = retryDeadlineNs(end.kind === 'open' ? openUntil() : BigInt(e.finished!.monoNs), attempt - 1, timing);
    if (until === undefined || due > until) until = due;
  }
  return until;
}

export interface TriggerContext {
  timing: Timing;
  /** The end of the observation on the mock host's monotonic clock (ns). */
  endNs: bigint;
}

/**
 * The next attempt was sent before this one ended on the host: it arrived first (sent earlier, delayed on
 * the way), or while this one was still open past the whole-request timeout, which the service counts
 * from its own send (DELIV-12: a slow attempt may be followed by a retry). What followed this attempt's
 * answer is then not for the host's clock to judge.
 */
function sentBeforeEnd(e: JournalEntry, next: JournalEntry, timing: Timing): boolean {
  const arrived = BigInt(e.arrival.monoNs);
  const nextArrived = BigInt(next.arrival.monoNs);
  if (nextArrived < arrived) return true;
  if (!e.finished || nextArrived >= BigInt(e.finished.monoNs)) return false;
  const b = band(timing);
  return ms(nextArrived - arrived) >= b.timeout - b.tol;
}

/** DELIV-3, DELIV-4, DELIV-6, DELIV-7, DELIV-8, DELIV-10: what followed each attempt of one onComplete. */
export function judgeTriggers(s: JournalEntry[], v: Verdicts, ctx: TriggerContext): void {
  const { timing } = ctx;
  for (let i = 0; i < s.length; i++) {
    const e = s[i]!;
    const next = s[i + 1];
    const end = endOfAttempt(e);
    if (end.kind === 'open') continue;
    judgeHeld(e, end, v, timing);
    if (next !== undefined && sentBeforeEnd(e, next, timing)) continue;
    const endNs = BigInt(e.finished!.monoNs);
    if (end.kind === '5xx' || end.kind === 'timeout' || end.kind === 'network') {
      if (i + 1 >= CONTRACT.maxAttempts) continue;
      const backoff = CONTRACT.backoffMs[i]!;
      if (end.kind !== 'network') {
        const deadline = retryDeadlineNs(endNs, i, timing);
        if (next === undefined && ctx.endNs < deadline) continue; // the observation ended before a retry was due
        requireRetry(e, next, i, end.kind, v, `attempt ${i + 2} within ${ms(deadline - endNs)} ms`);
      }
      if (next) judgeBackoff(e, next, i, end.kind, v, timing);
      continue;
    }
    // DELIV-12: a 2xx given at or after the whole-request timeout may still be retried; the service counts
    // the timeout from its own send, so the time the attempt took to reach the host counts too
    const b = band(timing);
    if (lateBy(e) + durationMs(e) >= b.timeout - b.tol) continue;
    const window = endNs + BigInt(Math.round(timing.quietWindowMs())) * 1_000_000n;
    if (next === undefined && ctx.endNs < window) continue;
    if (slowSuccess(e, end, timing)) {
      v.that('DELIV-3', WAITED, next === undefined, {
        id: 'delivery.slow-success-not-retried',
        expected: `no attempt after ${at(e)} answered ${end.status} after ${durationMs(e)} ms`,
        seen: next ? at(next) : 'none',
      });
      continue;
    }
    // the words only for a retry (a failure): every other attempt of a long observation passes here
    v.that(
      'DELIV-10',
      'onComplete is not retried after a 2xx or a 4xx answer',
      next === undefined,
      NO_RETRY_AFTER_2XX,
      next === undefined
        ? undefined
        : () => ({ expected: `no attempt after ${at(e)} answered ${end.status}`, seen: at(next) }),
    );
  }
}

/**
 * A first retry missing is DELIV-4's (after a 5xx) or DELIV-6's (after a timeout); a retry made and
 * the count stopped short of 3 is DELIV-7's "1 initial plus 2 retries" (fault model row DELIV-7/two-attempts).
 */
function requireRetry(
  e: JournalEntry,
  next: JournalEntry | undefined,
  i: number,
  kind: '5xx' | 'timeout',
  v: Verdicts,
  expected: string,
): void {
  const seen = next ? at(next) : `none after ${at(e)}`;
  if (i > 0) {
    const rule = 'onComplete makes 3 attempts when every one fails (1 initial plus 2 retries)';
    v.that('DELIV-7', rule, next !== undefined, { id: 'delivery.three-attempts', expected, seen });
  } else if (kind === '5xx') {
    const rule = 'onComplete is retried after a 5xx answer';
    v.that('DELIV-4', rule, next !== undefined, { id: 'delivery.retry-after-5xx', expected, seen });
  } else {
    const rule = 'onComplete is retried after a timed-out attempt';
    v.that('DELIV-6', rule, next !== undefined, { id: 'delivery.retry-after-timeout', expected, seen });
  }
}

/** DELIV-8: the back-off from the end of the failed attempt (its answer, reset, or the service giving it up). */
function judgeBackoff(
  e: JournalEntry,
  next: JournalEntry,
  i: number,
  kind: AttemptEnd['kind'],
  v: Verdicts,
  timing: Timing,
): void {
  const backoff = CONTRACT.backoffMs[i]!;
  const gap = ms(BigInt(next.arrival.monoNs) - BigInt(e.finished!.monoNs));
  const want = timing.scaled(backoff);
  const tol = timing.tolerance(backoff);
  const after = kind === 'timeout' ? 'a timed-out attempt' : kind === 'network' ? `a ${e.response!.fault}` : 'a 5xx';
  v.that(
    'DELIV-8',
    `the back-off before attempt ${i + 2} is about ${backoff / 1000} s from the end of the previous attempt`,
    Math.abs(gap - want) <= tol,
    {
      id: kind === 'timeout' ? 'delivery.backoff-after-timeout' : 'delivery.backoff',
      expected: `${Math.round(want)} ± ${Math.round(tol)} ms from the end of attempt ${i + 1} (${after})`,
      seen: `${gap} ms (${at(next)})`,
    },
  );
}
