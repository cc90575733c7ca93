/**
 * The whole retry schedule of onComplete (section 6): three attempts, each answered 503, about 5 s then
 * 20 s apart. At time scale 1 it is the run's longest wait (about 52 s): it sits in a file of its own whose
 * name sorts before every other spec of the service suites, so Playwright, which starts a project's tests
 * in file order, starts it first and the shorter waits fill the other workers around it.
 * Tests tagged @realtime run again at time scale 1 (service-realtime project): every interval comes from
 * timing, never a literal.
 */
import { test } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { describe, header } from '../../judge/service/journal.ts';
import { isEvent, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { gapMs, retryTimeline, toleranceFor, withinWords } from './areas/times.ts';
import { HARNESS_SLACK_MS } from '../../target/service/timing.ts';
import { realTime } from './areas/waiting.ts';
import { answered } from './areas/errors.ts';
import { check, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { BACKOFF_1, BACKOFF_2, completeOne } from './areas/deliveries.ts';

realTime(() =>
  test(
    'onComplete answered 503 is retried: 3 attempts numbered 1 to 3, about 5 s then 20 s apart, and nothing after the last (DELIV-4, DELIV-7, DELIV-8, HDR-4)',
    { tag: clauseTags('DELIV-4', 'DELIV-7', 'DELIV-8', 'HDR-4') },
    async ({ makeWorkspace, driver, host, timing, evidence }) => {
      test.setTimeout(
        timing.retryScheduleDeadlineMs() +
          timing.quietWindowMs() +
          timing.scaled(BACKOFF_2 + CONTRACT.requestTimeoutMs) +
          30_000,
      );
      const ws = await makeWorkspace({ facts: false });
      host.script({
        id: uniqueId('503-always'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [{ action: 'respond', status: 503 }],
        then: 'repeat-last',
      });
      const endUserHandle = uniqueHandle('r503');
      await completeOne(ws, driver, endUserHandle);
      // The report draws the attempts of this evidence against these windows.
      evidence.add({
        sentence: 'Expected: attempt 2 about 5 s and attempt 3 about 20 s after the previous attempt ended (DELIV-8).',
        timeline: retryTimeline(timing),
      });
      await waitEvent(ws, 'onComplete', endUserHandle, 1);
      // Up to 3 attempts, judged below: fewer than 2 is DELIV-4's failure, other than 3 DELIV-7's.
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 3, timing.retryScheduleDeadlineMs(), {
        lenient: true,
      });
      const all = attempts.map(describe).join(' | ');
      // HDR-4: each attempt that arrived carries its own number (a fourth one is DELIV-7's failure, not numbered here).
      attempts.slice(0, 3).forEach((e, i) => {
        const n = header(e, 'x-service-delivery-attempt');
        check
          .soft('HDR-4', `attempt ${i + 1} of onComplete carries X-Service-Delivery-Attempt ${i + 1}`, {
            id: 'delivery.attempt-numbering',
          })
          .that(n === String(i + 1), {
            expected: `"${i + 1}"`,
            seen: `${n === undefined ? 'no X-Service-Delivery-Attempt' : show(n)} on ${describe(e)}`,
          });
      });
      check('DELIV-4', 'onComplete answered 503 is retried', { id: 'delivery.retry-after-5xx' }).that(
        attempts.length >= 2,
        {
          expected: 'at least 2 attempts',
          seen: `${attempts.length} within ${timing.retryScheduleDeadlineMs()} ms: ${all || 'none'}`,
        },
      );
      check
        .soft('DELIV-7', 'onComplete answered 503 every time makes 3 attempts in total', {
          id: 'delivery.three-attempts',
        })
        .that(attempts.length === 3, {
          expected: '3 attempts',
          seen: `${attempts.length} within ${timing.retryScheduleDeadlineMs()} ms: ${all}`,
        });
      // DELIV-8 reading: each back-off from the end of the previous attempt to the start of the next.
      const g1 = withinWords(
        timing,
        gapMs(attempts[0]!, attempts[1]!),
        BACKOFF_1!,
        'no measurement: attempt 1 had not finished',
      );
      check
        .soft('DELIV-8', 'the back-off before attempt 2 is about 5 s', { id: 'delivery.backoff' })
        .that(g1.ok, { expected: g1.expected, seen: g1.seen });
      if (attempts.length >= 3) {
        const g2 = withinWords(
          timing,
          gapMs(attempts[1]!, attempts[2]!),
          BACKOFF_2!,
          'no measurement: attempt 2 had not finished',
        );
        check
          .soft('DELIV-8', 'the back-off before attempt 3 is about 20 s', { id: 'delivery.backoff' })
          .that(g2.ok, { expected: g2.expected, seen: g2.seen });
        // DELIV-7: a fourth attempt would come after another back-off; watch that long plus the delivery window.
        const seen = new Set(attempts.map((e) => e.seq));
        await ws.expectNoCallbacks(
          { predicate: (e) => isEvent('onComplete', endUserHandle)(e) && !seen.has(e.seq) },
          {
            clause: 'DELIV-7',
            id: 'delivery.three-attempts',
            rule: 'no fourth onComplete attempt follows attempt 3',
            windowMs: timing.scaled(BACKOFF_2!) + toleranceFor(timing, BACKOFF_2!) + HARNESS_SLACK_MS,
          },
        );
      }
    },
  ),
);
