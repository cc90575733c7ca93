/**
 * Retries of onComplete (6, 8): the retry triggers (5xx, timeout, connect failure), the three-attempt bound and
 * its back-off.
 * Tests tagged @realtime run again at time scale 1 (service-realtime project): every interval comes from timing,
 * never a literal.
 */
import { test } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { describe, payload } from '../../judge/service/journal.ts';
import { uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { durationMs, gapMs, retryTimeline, withinWords } from './areas/times.ts';
import { realTime } from './areas/waiting.ts';
import { answered } from './areas/errors.ts';
import { check, precondition } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { BACKOFF_1, completeOne, triggerRefusal } from './areas/deliveries.ts';

realTime(() =>
  test(
    'onComplete is retried after a refused connection (DELIV-5)',
    { tag: clauseTags('DELIV-5') },
    async ({ makeWorkspace, driver, host, timing }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false });
      // Attempt 1 answered 503 (a trigger on its own); the listener is then closed for 10 s (scaled),
      // covering attempt 2 (about 5 s later) and ending well before attempt 3 (about 20 s after it).
      host.script({
        id: uniqueId('503-then-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [
          { action: 'respond', status: 503 },
          { action: 'respond', status: 200 },
        ],
      });
      const refusePath = `/refuse-${uniqueId('t')}`;
      const refuseMs = Math.round(timing.scaled(BACKOFF_1 + CONTRACT.requestTimeoutMs));
      host.script({ id: uniqueId('refuse'), match: { path: refusePath }, steps: [{ action: 'refuse', ms: refuseMs }] });
      const endUserHandle = uniqueHandle('rrefused');
      await completeOne(ws, driver, endUserHandle);
      const [a1] = await waitEvent(ws, 'onComplete', endUserHandle, 1);
      const refusedFrom = performance.now();
      await triggerRefusal(host.url, refusePath);
      // DELIV-5: the attempt after the refused one reaches the host once it listens again.
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs(), {
        clause: 'DELIV-5',
        id: 'delivery.retry-after-refused',
        rule: 'onComplete is retried after a refused connection',
      });
      const next = attempts.find((e) => e.seq !== a1!.seq)!;
      const gap = gapMs(a1!, next) ?? 0;
      // Harness self-check: attempt 2 must have met the closed listener, or this test proves nothing.
      const least = refuseMs - timing.tolerance(BACKOFF_1!);
      precondition(
        gap >= least,
        `the attempt after 503 met the closed listener (the refusal started ${(performance.now() - refusedFrom).toFixed(0)} ms late)`,
        {
          expected: `a gap of at least ${least.toFixed(0)} ms after attempt 1`,
          seen: `${gap.toFixed(0)} ms: ${describe(next)}`,
        },
      );
      // The same delivery id on a retry is DELIV-11's rule: here it is enough that the retry is this conversation's.
      precondition(
        String(payload(next).conversationId) === String(payload(a1!).conversationId),
        'the attempt after the refusal is a retry of the same onComplete',
        { expected: `conversationId ${String(payload(a1!).conversationId)}`, seen: describe(next) },
      );
    },
  ),
);

realTime(() =>
  test(
    'an onComplete attempt held past the 10 s whole-request timeout fails at 10 s and is retried (DELIV-3, DELIV-6)',
    { tag: clauseTags('DELIV-3', 'DELIV-6') },
    async ({ makeWorkspace, driver, host, timing, evidence }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false });
      host.script({
        id: uniqueId('timeout-then-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [{ action: 'never' }, { action: 'respond', status: 200 }],
      });
      const endUserHandle = uniqueHandle('rtimeout');
      await completeOne(ws, driver, endUserHandle);
      evidence.add({
        sentence: 'Expected: attempt 1 given up at the 10 s timeout, attempt 2 about 5 s later (DELIV-3, DELIV-8).',
        timeline: retryTimeline(timing, { held: true, attempts: 2 }),
      });
      // Whether attempt 2 comes is DELIV-6's rule, judged below; when attempt 1 ends is DELIV-3's.
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs(), {
        lenient: true,
      });
      precondition(attempts.length >= 1, 'attempt 1 of onComplete arrived', { expected: 'one attempt', seen: 'none' });
      const held = withinWords(
        timing,
        durationMs(attempts[0]!),
        CONTRACT.requestTimeoutMs,
        'the service had not given up the held attempt',
      );
      check
        .soft('DELIV-3', 'the service gives up an attempt held by the host at the 10 s whole-request timeout', {
          id: 'delivery.request-timeout-10s',
        })
        .that(held.ok, { expected: held.expected, seen: held.seen });
      check('DELIV-6', 'onComplete is retried after a timed-out attempt', { id: 'delivery.retry-after-timeout' }).that(
        attempts.length >= 2,
        {
          expected: '2 attempts',
          seen: `${attempts.length} within ${timing.retryScheduleDeadlineMs()} ms: ${attempts.map(describe).join(' | ')}`,
        },
      );
    },
  ),
);
