/**
 * onComplete's back-off after each way an attempt can fail (6, DELIV-8 reading: from the END of
 * the previous attempt): after a timed-out attempt (the end is the service's own 10 s timeout) and
 * after a refused connection (the attempt never reaches the host: its moment is bounded by the
 * mock host's refusal window). The 5xx case is delivery-retries.spec.ts's. Retry-schedule tests,
 * so registered with realTime(): every interval comes from timing, never a literal.
 */
import { test } from './fixtures.ts';
import { describe, header } from '../../judge/service/journal.ts';
import { uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { gapMs, monoMs, retryTimeline, withinWords } from './areas/times.ts';
import { refuseFor } from './areas/refusal.ts';
import { realTime } from './areas/waiting.ts';
import { check, precondition } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { BACKOFF_1, BACKOFF_2, completeOne } from './areas/deliveries.ts';

const TIMED_OUT = 'after a timed-out onComplete attempt the retry follows about 5 s after the 10 s timeout ended it';

realTime(() =>
  test(
    `${TIMED_OUT} (DELIV-8)`,
    { tag: clauseTags('DELIV-8') },
    async ({ makeWorkspace, driver, host, timing, evidence }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false });
      host.script({
        id: uniqueId('never-then-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [{ action: 'never' }, { action: 'respond', status: 200 }],
      });
      const endUserHandle = uniqueHandle('btimeout');
      await completeOne(ws, driver, endUserHandle);
      evidence.add({
        sentence: 'Expected: attempt 1 given up at the 10 s timeout, attempt 2 about 5 s after that end (DELIV-8).',
        timeline: retryTimeline(timing, { held: true, attempts: 2 }),
      });
      // Whether a retry comes is DELIV-6's rule, when attempt 1 is given up DELIV-3's: preconditions here.
      const deadline = timing.retryScheduleDeadlineMs();
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, deadline, { lenient: true });
      precondition(attempts.length >= 2, 'onComplete was retried after the timed-out attempt 1', {
        expected: '2 attempts',
        seen: attempts.map(describe).join(' | ') || 'none',
      });
      const [a1, a2] = attempts as [(typeof attempts)[0], (typeof attempts)[0]];
      precondition(a1.finished !== undefined, 'the service ended the held attempt 1', {
        expected: 'attempt 1 ended',
        seen: describe(a1),
      });
      // DELIV-8 reading: from the end of attempt 1 (the service giving it up) to the start of attempt 2.
      const g = withinWords(timing, gapMs(a1, a2), BACKOFF_1);
      check('DELIV-8', 'the back-off after a timed-out attempt is about 5 s from the end of that attempt', {
        id: 'delivery.backoff-after-timeout',
      }).that(g.ok, { expected: g.expected, seen: `${g.seen}: ${describe(a2)}` });
    },
  ),
);

const REFUSED = 'after a refused connection on attempt 2 the onComplete attempt 3 follows about 20 s later';

realTime(() =>
  test(`${REFUSED} (DELIV-8)`, { tag: clauseTags('DELIV-8') }, async ({ makeWorkspace, driver, host, timing }) => {
    test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
    const ws = await makeWorkspace({ facts: false });
    host.script({
      id: uniqueId('503-then-ok'),
      match: { path: ws.hookPath!, event: 'onComplete' },
      steps: [
        { action: 'respond', status: 503 },
        { action: 'respond', status: 200 },
      ],
    });
    const endUserHandle = uniqueHandle('brefused');
    await completeOne(ws, driver, endUserHandle);
    const [a1] = await waitEvent(ws, 'onComplete', endUserHandle, 1);
    // The window covers attempt 2 (about 5 s after attempt 1, within its tolerance) and ends before a
    // retry 5 s after it could come, so a service that waits 5 s again is seen, as one that waits 20 s.
    const tol1 = timing.tolerance(BACKOFF_1);
    const windowOf = await refuseFor(host, timing.scaled(BACKOFF_1) + tol1);
    const next = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs(), {
      lenient: true,
    });
    const w = windowOf();
    const a3 = next.find((e) => e.seq !== a1!.seq);
    // Harness self-checks: the window began before attempt 2 was due and the next attempt met it
    // (an attempt 2 that slipped in before the window is seen below: then nothing is decided).
    const a1End = a1!.finished ? monoMs(a1!.finished.monoNs) : monoMs(a1!.arrival.monoNs);
    const lateBy = w ? w.startMs - a1End : Infinity;
    const due = timing.scaled(BACKOFF_1);
    precondition(w?.endMs !== undefined && lateBy < due, 'the refusal window opened before attempt 2 was due', {
      expected: `opened within ${due.toFixed(0)} ms of attempt 1's end`,
      seen: `${lateBy.toFixed(0)} ms`,
    });
    // Whether a retry follows a refused connection is DELIV-5's rule, judged in delivery-retries.spec.ts.
    precondition(a3 !== undefined, 'an onComplete attempt followed the refused one', {
      expected: 'a further attempt',
      seen: 'none',
    });
    const start = monoMs(a3!.arrival.monoNs);
    const n = header(a3!, 'x-service-delivery-attempt');
    precondition(start >= w!.endMs! && n !== '2', 'attempt 2 met the refused listener (the next one is attempt 3)', {
      expected: 'no attempt 2 reached the host',
      seen: `${(start - w!.endMs!).toFixed(0)} ms after the window: ${describe(a3!)}`,
    });
    // The refused attempt 2 fell inside the window: the back-off after it lies between these bounds.
    const least = start - w!.endMs!;
    const most = start - w!.startMs;
    const expected = timing.scaled(BACKOFF_2);
    const tol = timing.tolerance(BACKOFF_2);
    const rule = 'the back-off after a refused connection on attempt 2 is about 20 s';
    const meets = most >= expected - tol && least <= expected + tol;
    check('DELIV-8', rule, { id: 'delivery.backoff-after-refused' }).that(meets, {
      expected: `${expected.toFixed(0)} ms ± ${tol.toFixed(0)} ms (contract ${BACKOFF_2} ms × scale ${timing.timeScale})`,
      seen: `${least.toFixed(0)} to ${most.toFixed(0)} ms (attempt 2 refused in the window): ${describe(a3!)}`,
    });
  }),
);
