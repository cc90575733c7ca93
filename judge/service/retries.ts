/**
 * The clauses only a series of callbacks decides (section 6, 5.2): the attempts of one onComplete
 * (grouped by conversationId: its delivery is fixed per conversation, DELIV-13 reading) keep one
 * delivery id and the same bytes, are numbered 1, 2, 3, are re-signed with a fresh t, and follow what
 * ended the attempt before them (triggers.ts: a 5xx or a timeout, never a 2xx or a 4xx, with the
 * back-off); a best-effort event is never sent again after a non-2xx or a network error.
 */
import { CONTRACT } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { HARNESS_SLACK_MS, type Timing } from '../../target/service/timing.ts';
import { endOfAttempt, judgeTriggers, lateBy, retryDeadlineNs } from './triggers.ts';
import { at, bodyOf } from './words.ts';
import { TIMESTAMP_PATTERN, timestampMs } from './journal.ts';
import type { DeclaredSigning } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

export interface SeriesContext {
  timing: Timing;
  signing: DeclaredSigning | 'per-route';
  /** The end of the observation on the mock host's monotonic clock (ns). */
  endNs: bigint;
  /** Windows in which the host refused connections: attempts in them never reached the journal. */
  refusals?: readonly RefusalWindow[];
}

/** A window of the mock host's monotonic clock (ns) in which it refused every connection (a refuse step). */
export interface RefusalWindow {
  startNs: bigint;
  endNs: bigint;
}

/**
 * Whether an attempt of the series may have been refused unseen: a refusal window in a gap where one could
 * have been made, before the first attempt seen (an attempt 1 refused, then its retry after the back-off) or
 * between an attempt's end and the next one (or, after a last one refused, its retry's deadline). Its numbering and
 * what followed each attempt are then not the judge's to decide (a connect failure is an attempt the journal
 * cannot show).
 */
function blindTo(s: JournalEntry[], ctx: SeriesContext): boolean {
  const refusals = ctx.refusals ?? [];
  if (refusals.length === 0) return false;
  const overlaps = (from: bigint, to: bigint) => refusals.some((r) => r.endNs >= from && r.startNs <= to);
  const first = BigInt(s[0]!.arrival.monoNs);
  const t = CONTRACT.requestTimeoutMs + CONTRACT.backoffMs[0]!;
  const before = BigInt(Math.round(ctx.timing.scaled(t) + ctx.timing.tolerance(t) + HARNESS_SLACK_MS)) * 1_000_000n;
  if (overlaps(first - before, first)) return true;
  for (let i = 0; i < s.length && i + 1 < CONTRACT.maxAttempts; i++) {
    const e = s[i]!;
    const end = BigInt(e.finished?.monoNs ?? e.arrival.monoNs);
    const next = s[i + 1];
    // after the last attempt seen, only a refused one has a retry to hide
    if (next === undefined && !refusedAttempt(e)) continue;
    if (overlaps(end, next ? BigInt(next.arrival.monoNs) : retryDeadlineNs(end, i, ctx.timing))) return true;
  }
  return false;
}

const NO_TIMEOUT_SEEN =
  'no onComplete attempt was held past the 10 s timeout: `--inject onComplete=hold:15000` holds attempt 1 for 15 s ' +
  '(scaled by --time-scale)';
const THREE_ATTEMPTS: CheckWords = { id: 'delivery.three-attempts' };
const FIRST_ATTEMPT_1: CheckWords = { id: 'header.first-attempt-1' };
const NO_RETRY_SEEN = 'no onComplete was retried: `--inject onComplete=503,503` answers 503 to the first two attempts';
const endOf = (e: JournalEntry): bigint | undefined => (e.finished ? BigInt(e.finished.monoNs) : undefined);
/** Refused: a non-2xx answer or a network error (a reset, a close, a hold the service gave up), DELIV-1. */
const refusedAttempt = (e: JournalEntry): boolean => {
  const end = endOfAttempt(e);
  return (
    end.kind === '5xx' ||
    end.kind === 'timeout' ||
    end.kind === 'network' ||
    (end.kind === 'answered' && end.status >= 300)
  );
};

/**
 * The onComplete attempts of each conversation, in arrival order: the entry itself while it is the
 * only one (most conversations), a list once a retry came. The judge makes a one-entry list only as
 * it judges it: 100,000 lists kept for the whole judging were copied by every garbage collection.
 */
function onCompleteSeries(entries: JournalEntry[]): Map<string | number, JournalEntry | JournalEntry[]> {
  const by = new Map<string | number, JournalEntry | JournalEntry[]>();
  for (const e of entries) {
    const b = bodyOf(e);
    if (b?.event !== 'onComplete' || b.conversationId === undefined) continue;
    // a finite number is its own key: JSON.stringify tells those apart as the Map does (-0 and 0 alike)
    const id = b.conversationId;
    const key = typeof id === 'number' && Number.isFinite(id) ? id : JSON.stringify(id);
    const series = by.get(key);
    if (series === undefined) by.set(key, e);
    else if (Array.isArray(series)) series.push(e);
    else by.set(key, [series, e]);
  }
  return by;
}

export function judgeSeries(entries: JournalEntry[], v: Verdicts, ctx: SeriesContext): void {
  const series = onCompleteSeries(entries);
  let retried = 0;
  for (const s of series.values()) {
    if (Array.isArray(s)) retried++;
    judgeOne(Array.isArray(s) ? s : [s], v, ctx);
  }
  if (series.size === 0) {
    for (const c of ['DELIV-4', 'DELIV-7', 'DELIV-8', 'DELIV-10', 'DELIV-11', 'SIGN-5', 'HDR-4'] as const) {
      v.notExercised(c, 'no onComplete arrived: complete a conversation while observing');
    }
  } else if (retried === 0) {
    for (const c of ['DELIV-8', 'DELIV-11', 'SIGN-5'] as const) v.notExercised(c, NO_RETRY_SEEN);
  }
  if (!v.decided('DELIV-4')) v.notExercised('DELIV-4', 'no onComplete was answered 5xx: `--inject onComplete=503`');
  if (!v.decided('DELIV-6')) v.notExercised('DELIV-6', NO_TIMEOUT_SEEN);
  if (!v.decided('DELIV-3')) v.notExercised('DELIV-3', NO_TIMEOUT_SEEN);
  if (!v.decided('DELIV-10'))
    v.notExercised('DELIV-10', 'no onComplete attempt was answered 2xx or 4xx with time left to see a retry');
  judgeBestEffort(entries, v, ctx);
}

/**
 * The attempts in the order the service numbered them, when each carries its own number 1 to 3: an attempt
 * sent before its retry may arrive after it (EVT-19 reading); else in arrival order (HDR-4 judges numbers).
 */
function inSendingOrder(s: JournalEntry[]): JournalEntry[] {
  if (s.length < 2) return s;
  const n = s.map((e) => Number(e.headers['x-service-delivery-attempt']));
  const distinct = new Set(n).size === n.length && n.every((x) => Number.isInteger(x) && x >= 1 && x <= 3);
  return distinct
    ? [...s].sort(
        (a, b) => Number(a.headers['x-service-delivery-attempt']) - Number(b.headers['x-service-delivery-attempt']),
      )
    : s;
}

/** The event was made at least a timeout and a back-off (scaled, less a tolerance) before this arrival. */
function firstMayBeLost(e: JournalEntry, timing: Timing): boolean {
  const ts = bodyOf(e)?.timestamp;
  if (typeof ts !== 'string' || !TIMESTAMP_PATTERN.test(ts)) return false;
  const [t, back] = [CONTRACT.requestTimeoutMs, CONTRACT.backoffMs[0]!];
  return e.arrival.wallMs - timestampMs(ts) >= timing.scaled(t + back) - timing.tolerance(t + back);
}

function judgeOne(arrived: JournalEntry[], v: Verdicts, ctx: SeriesContext): void {
  const s = inSendingOrder(arrived);
  const first = s[0]!;
  const blind = blindTo(s, ctx);
  // the failure's words are made only for a failure (per-callback.ts), the check ids once
  const atMost3 = s.length <= CONTRACT.maxAttempts;
  v.that(
    'DELIV-7',
    'onComplete makes at most 3 attempts',
    atMost3,
    THREE_ATTEMPTS,
    atMost3
      ? undefined
      : () => ({ expected: `at most ${CONTRACT.maxAttempts} attempts`, seen: `${s.length}: ${s.map(at).join(', ')}` }),
  );
  for (let i = 0; i < (blind ? 0 : s.length); i++) {
    const e = s[i]!;
    const a = e.headers['x-service-delivery-attempt'];
    if (i === 0) {
      // a later attempt seen first, made long enough before it arrived for an attempt 1 to have been given up
      // on the way (a connect that never reached the host): what attempt 1 carried is not seen
      if ((a === '2' || a === '3') && firstMayBeLost(e, ctx.timing)) continue;
      v.that(
        'HDR-4',
        'the first attempt of onComplete carries X-Service-Delivery-Attempt 1',
        a === '1',
        FIRST_ATTEMPT_1,
        a === '1' ? undefined : () => ({ expected: '1', seen: `${JSON.stringify(a) ?? 'absent'} (${at(e)})` }),
      );
    } else if (i < CONTRACT.maxAttempts) {
      v.that(
        'HDR-4',
        'X-Service-Delivery-Attempt counts the attempts of the delivery',
        a === String(i + 1),
        { id: 'delivery.attempt-numbering' },
        () => ({ expected: String(i + 1), seen: `${JSON.stringify(a) ?? 'absent'} (${at(e)})` }),
      );
    }
  }
  for (let i = 1; i < s.length; i++) {
    const e = s[i]!;
    v.that(
      'DELIV-11',
      'every attempt carries the same X-Service-Delivery-Id and the same body bytes',
      e.deliveryId === first.deliveryId && e.bodySha256 === first.bodySha256,
      { id: 'delivery.same-id-same-body' },
      () => ({
        expected: `${first.deliveryId ?? '(none)'}, body sha256 ${first.bodySha256.slice(0, 12)}`,
        seen: `${e.deliveryId ?? '(none)'}, body sha256 ${e.bodySha256.slice(0, 12)} (${at(e)})`,
      }),
    );
  }
  judgeResigned(s, v, ctx);
  if (!blind) judgeTriggers(s, v, ctx);
}

/** SIGN-5: t moves with the arrival (compared to attempt 1, so the clocks of two machines cancel out). */
function judgeResigned(s: JournalEntry[], v: Verdicts, ctx: SeriesContext): void {
  if (s.length < 2) return;
  const first = s[0]!;
  // per route: the mode the route of attempt 1 verified in; a series to a route with signing off has no t to move
  if (ctx.signing === 'per-route' && first.signature.mode === 'none') return;
  if (ctx.signing !== 'per-route' && ctx.signing !== 'hmac' && ctx.signing !== 'jwks') {
    v.notExercised('SIGN-5', 'no signing mode given: --hmac-secret-file F or --jwks-url U');
    return;
  }
  // SIGN-5 reading: when attempt 1 does not verify, the signing clauses speak, not SIGN-5
  if (first.signature.verdict !== 'valid' || first.signature.t === undefined) return;
  for (const e of s.slice(1)) {
    // an unsigned retry is HDR-6's and SIGN-3's (presence), one that does not verify the signing clauses';
    // SIGN-5 judges whether a verified retry's t is fresh
    if (e.signature.verdict !== 'valid' && e.signature.verdict !== 'stale' && e.signature.verdict !== 'future')
      continue;
    const t = e.signature.t;
    const moved = (e.arrival.wallMs - first.arrival.wallMs) / 1000;
    // t is whole seconds: 1 s of rounding on each side, and the loaded machine's jitter
    const fresh = e.signature.verdict === 'valid' && t !== undefined && Math.abs(t - first.signature.t - moved) <= 2;
    v.that(
      'SIGN-5',
      'each retry re-signs the unchanged body with a fresh t',
      fresh,
      { id: 'sign.resigned-each-attempt' },
      () => ({
        expected: `a valid signature with t about ${first.signature.t} + ${moved.toFixed(1)} s`,
        seen: `${e.signature.verdict}, t ${t ?? 'unread'} (${at(e)})`,
      }),
    );
  }
}

/** DELIV-1: a best-effort event answered non-2xx (or reset) is never sent again with the same bytes. */
function judgeBestEffort(entries: JournalEntry[], v: Verdicts, ctx: SeriesContext): void {
  const seen = new Map<string, JournalEntry>();
  let refused = 0;
  for (const e of entries) {
    const b = bodyOf(e);
    if (!b || typeof b.event !== 'string' || b.event === 'onComplete') continue;
    const key = `${e.deliveryId ?? ''}\u0000${e.bodySha256}`;
    const before = seen.get(key);
    if (before && refusedAttempt(before)) {
      v.that(
        'DELIV-1',
        'an event other than onComplete is not redelivered after a non-2xx answer or a network error',
        false,
        {
          id: 'delivery.no-retry-other-events',
          expected: `no second ${before.event ?? 'event'} with the bytes of ${at(before)}`,
          seen: at(e),
        },
      );
    }
    if (!before) seen.set(key, e);
    if (refusedAttempt(e)) {
      const end = endOf(e);
      const quiet = BigInt(Math.round(ctx.timing.quietWindowMs())) * 1_000_000n;
      if (end !== undefined && ctx.endNs >= end + quiet) refused++;
    }
  }
  if (v.decided('DELIV-1')) return;
  if (refused > 0) {
    v.that(
      'DELIV-1',
      'an event other than onComplete is not redelivered after a non-2xx answer or a network error',
      true,
      { id: 'delivery.no-retry-other-events' },
    );
  } else {
    v.notExercised(
      'DELIV-1',
      'no best-effort event was refused with a quiet window after it: `--inject config.saved=503`',
    );
  }
}
