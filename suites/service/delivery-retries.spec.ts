/**
 * Delivery, timeouts and retries (6, 8): the retry triggers of onComplete (5xx, timeout, connect
 * failure), the three-attempt bound and its back-off, what is never retried, and delivery off the
 * request thread. Tests tagged @realtime run again at time scale 1 (service-realtime project):
 * every interval comes from timing, never a literal.
 */
import { request as httpRequest } from 'node:http';
import { test } from './fixtures.ts';
import type { DriverClient, TestWorkspace } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { assertNothingArrives } from '../../mock-host/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, header, payload } from './areas/journal.ts';
import { eventOf, isEvent, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { durationMs, gapMs, retryTimeline, toleranceFor, withinWords } from './areas/times.ts';
import { hmacSignerOf } from './areas/signatures.ts';
import { HARNESS_SLACK_MS } from './target-config/timing.ts';
import { realTime, waiting } from './areas/waiting.ts';
import { answered, expectSuccess } from './areas/errors.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

const [BACKOFF_1, BACKOFF_2] = CONTRACT.backoffMs;

async function completeOne(
  ws: TestWorkspace,
  driver: DriverClient,
  endUserHandle: string,
): Promise<{ conversationId: number; key: string }> {
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const {
    serviceKeys: [key],
  } = await driver.turn(c.conversationId, [{ fields: { label: 'home', city: 'Paris' } }]);
  await driver.complete(c.conversationId);
  return { conversationId: c.conversationId, key: key! };
}

/** Fires a request at the mock host that its 'refuse' step answers by closing the listener. */
function triggerRefusal(hostUrl: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(
      `${hostUrl}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', () => resolve()); // the refuse step resets this very request
    req.setTimeout(5_000, () => {
      req.destroy();
      resolve();
    });
    req.end('{}');
  });
}

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

waiting(() =>
  test(
    'onComplete is not retried after a 2xx or a 4xx answer, nor after a 200 given just under the 10 s timeout (DELIV-10, DELIV-3)',
    { tag: clauseTags('DELIV-10', 'DELIV-3') },
    async ({ makeWorkspace, driver, host, timing, evidence }) => {
      // One quiet window for every "no retry" answer: the same window, so grouped.
      const ws = await makeWorkspace({ facts: false });
      const answers = [200, 204, 400, 401, 404, 410];
      const handles = answers.map((s) => uniqueHandle(`r${s}`));
      answers.forEach((status, i) =>
        host.script({
          id: uniqueId(`answer-${status}`),
          match: { path: ws.hookPath!, event: 'onComplete', endUserHandle: handles[i]! },
          steps: [{ action: 'respond', status }],
        }),
      );
      // DELIV-3 reading: an answer just under the whole-request timeout is a success.
      const timeout = timing.scaled(CONTRACT.requestTimeoutMs);
      const under = Math.round(Math.max(timeout - 2 * timing.tolerance(CONTRACT.requestTimeoutMs), timeout / 2));
      const slow = uniqueHandle('rslow');
      host.script({
        id: uniqueId('slow-ok'),
        match: { path: ws.hookPath!, event: 'onComplete', endUserHandle: slow },
        steps: [{ action: 'hold', ms: under, thenStatus: 200 }],
      });
      const all = [...handles, slow];
      await Promise.all(all.map((h) => completeOne(ws, driver, h)));
      const firsts: JournalEntry[] = [];
      for (const h of all) firsts.push(...(await waitEvent(ws, 'onComplete', h, 1)));
      const seen = new Set(firsts.map((e) => e.seq));
      const ours = new Set(all);
      // One window for every user; afterwards each user's further attempts are judged by its own rule
      // (a retry of the slow 200 is DELIV-3's failure: a timeout shorter than 10 s, not DELIV-10's).
      const quiet = await assertNothingArrives(
        host.journal,
        {
          path: ws.hookPath!,
          predicate: (e) =>
            isEvent('onComplete')(e) && ours.has(payload(e).endUserHandle as string) && !seen.has(e.seq),
        },
        { windowMs: under + timing.scaled(BACKOFF_1!) + timing.quietWindowMs() },
      );
      evidence.add({ sentence: quiet.sentence, seqs: quiet.evidence.seqs });
      const retriesOf = (h: string) =>
        ws.callbacks({ predicate: (e) => isEvent('onComplete', h)(e) && !seen.has(e.seq) });
      answers.forEach((status, i) => {
        const again = retriesOf(handles[i]!);
        check
          .soft('DELIV-10', `onComplete answered ${status} is not retried`, { id: 'delivery.no-retry-after-2xx-4xx' })
          .that(again.length === 0, { expected: 'no further attempt', seen: again.map(describe).join(' | ') });
      });
      const slowAgain = retriesOf(slow);
      check
        .soft('DELIV-3', `onComplete answered 200 after ${under} ms, under the ${timeout} ms timeout, is not retried`, {
          id: 'delivery.slow-success-not-retried',
        })
        .that(slowAgain.length === 0, { expected: 'no further attempt', seen: slowAgain.map(describe).join(' | ') });
      const slowFirst = firsts.find((e) => payload(e).endUserHandle === slow)!;
      const slowNow = host.journal.entries({ predicate: (e) => e.seq === slowFirst.seq })[0] ?? slowFirst;
      check
        .soft('DELIV-3', `an attempt answered 200 after ${under} ms, under the ${timeout} ms timeout, is waited for`, {
          id: 'delivery.slow-success-not-retried',
        })
        .that(slowNow.response?.status === 200, {
          expected: 'the 200 answer sent to the service',
          seen: `${slowNow.finished ? `the attempt ended (${slowNow.finished.outcome})` : 'the attempt had not ended'} with ${slowNow.response?.status === undefined ? 'no answer sent' : `answer ${slowNow.response.status}`}: ${describe(slowNow)}`,
        });
    },
  ),
);

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

waiting(() =>
  test(
    'a record whose onComplete attempts all failed still reads DELIVERED (DELIV-14)',
    { tag: clauseTags('DELIV-14') },
    async ({ makeWorkspace, driver, svc, host, timing }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false });
      host.script({
        id: uniqueId('503-always'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [{ action: 'respond', status: 503 }],
        then: 'repeat-last',
      });
      const endUserHandle = uniqueHandle('rlost');
      const { key } = await completeOne(ws, driver, endUserHandle);
      // Every attempt the service makes fails; how many it makes is DELIV-4/DELIV-7's rule, so the wait is lenient.
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 3, timing.retryScheduleDeadlineMs(), {
        lenient: true,
      });
      precondition(attempts.length >= 1, 'the onComplete was attempted', {
        expected: 'at least one attempt',
        seen: 'none',
      });
      const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
      expectSuccess(read, 'a GET by key of the record whose onComplete attempts all failed');
      const status = (read.json as { callbackStatus?: unknown } | undefined)?.callbackStatus;
      check('DELIV-14', 'a record whose onComplete attempts all failed reads callbackStatus DELIVERED', {
        id: 'delivery.status-not-delivery',
      }).that(status === 'DELIVERED', { expected: 'DELIVERED', seen: answered(read) });
    },
  ),
);

waiting(() =>
  test(
    'every event but onComplete is one POST, not redelivered after a 503 or a reset (DELIV-1)',
    { tag: clauseTags('DELIV-1') },
    async ({ makeWorkspace, driver, host, timing, evidence }) => {
      const ws = await makeWorkspace({ facts: false });
      const resetUser = uniqueHandle('rreset');
      host.script({
        id: uniqueId('reset-saved'),
        match: { path: ws.hookPath!, event: 'config.saved', endUserHandle: resetUser },
        steps: [{ action: 'reset' }],
        then: 'repeat-last',
      });
      for (const event of [
        'onStart',
        'config.saved',
        'config.deleted',
        'config.bulk_deleted',
        'onSessionInterrupted',
        'onSessionTimeout',
      ]) {
        host.script({
          id: uniqueId(`503-${event}`),
          match: { path: ws.hookPath!, event },
          steps: [{ action: 'respond', status: 503 }],
          then: 'repeat-last',
        });
      }
      const user = uniqueHandle('r503ev');
      const c1 = await driver.open(ws, { endUserHandle: user, configEnd: '/addresses' });
      const {
        serviceKeys: [k1],
      } = await driver.turn(c1.conversationId, [{ fields: { label: 'a' } }]);
      await driver.deleteRecord(c1.conversationId, k1!);
      await driver.interrupt(c1.conversationId);
      const c2 = await driver.open(ws, { endUserHandle: user, configEnd: '/addresses' });
      await driver.turn(c2.conversationId, [{ fields: { label: 'b' } }]);
      await driver.bulkDelete(c2.conversationId, { configEnd: '/addresses' });
      await driver.idleSweep(c2.conversationId);
      const c3 = await driver.open(ws, { endUserHandle: resetUser, configEnd: '/profile' });
      await driver.turn(c3.conversationId, [{ fields: { name: 'Ada' } }]);
      for (const [ev, n] of [
        ['onStart', 2],
        ['config.saved', 2],
        ['config.deleted', 1],
        ['config.bulk_deleted', 1],
        ['onSessionInterrupted', 1],
        ['onSessionTimeout', 1],
      ] as const) {
        await waitEvent(ws, ev, user, n);
      }
      await waitEvent(ws, 'config.saved', resetUser, 1);
      const users = new Set([user, resetUser]);
      const mine = (e: JournalEntry) => users.has(payload(e).endUserHandle as string);
      // Same delivery id and same body bytes twice = a redelivery; watch one back-off plus the delivery window.
      const key = (e: JournalEntry) => `${header(e, 'x-service-delivery-id') ?? ''} ${e.bodySha256}`;
      const isRedelivery = (e: JournalEntry) =>
        mine(e) && ws.callbacks({ predicate: (x) => x.seq < e.seq && mine(x) && key(x) === key(e) }).length > 0;
      const quiet = await assertNothingArrives(
        host.journal,
        { path: ws.hookPath!, predicate: isRedelivery },
        { windowMs: timing.scaled(BACKOFF_1!) + timing.quietWindowMs() },
      );
      evidence.add({ sentence: quiet.sentence, seqs: quiet.evidence.seqs });
      check
        .soft('DELIV-1', 'an event other than onComplete answered 503 or reset is not redelivered during the window', {
          id: 'delivery.no-retry-other-events',
        })
        .that(quiet.ok, { expected: 'no redelivery', seen: quiet.sentence });
      const groups = new Map<string, JournalEntry[]>();
      for (const e of ws.callbacks({ predicate: mine })) groups.set(key(e), [...(groups.get(key(e)) ?? []), e]);
      for (const g of groups.values()) {
        const ev = eventOf(g[0]!) ?? 'an event';
        const how =
          g[0]!.response?.fault === 'reset' ? 'reset' : `answered ${String(g[0]!.response?.status ?? 'nothing')}`;
        check
          .soft('DELIV-1', `${ev} ${how} is one POST, not redelivered`, { id: 'delivery.no-retry-other-events' })
          .that(g.length === 1, { expected: '1 delivery', seen: `${g.length}: ${g.map(describe).join(' then ')}` });
      }
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

realTime(() =>
  test(
    'every attempt of one onComplete carries the same delivery id and the same body bytes (DELIV-11)',
    { tag: clauseTags('DELIV-11') },
    async ({ makeWorkspace, driver, host, timing }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' } });
      host.script({
        id: uniqueId('503-503-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [
          { action: 'respond', status: 503 },
          { action: 'respond', status: 200 },
        ],
      });
      const endUserHandle = uniqueHandle('rstable');
      await completeOne(ws, driver, endUserHandle);
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs());
      const ids = attempts.map((e) => header(e, 'x-service-delivery-id'));
      check
        .soft('DELIV-11', 'every attempt of one onComplete carries the same X-Service-Delivery-Id', {
          id: 'delivery.same-id-same-body',
        })
        .that(new Set(ids).size === 1, {
          expected: `${show(ids[0])} on every attempt`,
          seen: ids.map((id, i) => `attempt ${i + 1}: ${show(id)}`).join(', '),
        });
      const hashes = new Set(attempts.map((e) => e.bodySha256));
      check
        .soft('DELIV-11', 'a retry of onComplete re-sends the same body bytes', { id: 'delivery.same-id-same-body' })
        .that(hashes.size === 1, {
          expected: 'identical body bytes on every attempt',
          seen: attempts.map(describe).join(' | '),
        });
    },
  ),
);

realTime(() =>
  test(
    'each onComplete retry is re-signed over the unchanged body with a fresh t (SIGN-5)',
    { tag: clauseTags('SIGN-5') },
    async ({ makeWorkspace, driver, host, timing, evidence }) => {
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' } });
      host.script({
        id: uniqueId('503-503-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [
          { action: 'respond', status: 503 },
          { action: 'respond', status: 503 },
          { action: 'respond', status: 200 },
        ],
      });
      const endUserHandle = uniqueHandle('rresign');
      await completeOne(ws, driver, endUserHandle);
      // Attempts must arrive over a second apart for t to move: three at a small time scale, two at real time.
      const needed = timing.scaled(BACKOFF_1) >= 2_000 ? 2 : 3;
      evidence.add({
        sentence: `Expected ${needed} attempts on the retry schedule, each re-signed (SIGN-5).`,
        timeline: retryTimeline(timing, { attempts: needed }),
      });
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, needed, timing.retryScheduleDeadlineMs());
      // Who signed and over which bytes, whatever the hex case or the joiner (those are SIGN-11's and SIGN-12's own rules).
      const checks = attempts.map((e) => {
        const v = hmacSignerOf(e, [ws.signing.secret!]);
        return { e, v: { ...v, ok: v.secretIndex !== undefined } };
      });
      // The signature of attempt 1 is the signing rules' own (SIGN-11, SIGN-12); SIGN-5 is that each retry is signed afresh.
      precondition(checks[0]!.v.ok, 'attempt 1 of onComplete carries a valid HMAC signature', {
        expected: 'a signature that verifies',
        seen: `${checks[0]!.v.reason}: ${describe(checks[0]!.e)}`,
      });
      checks.slice(1).forEach(({ e, v }, i) => {
        check
          .soft('SIGN-5', `attempt ${i + 2} of onComplete is signed over its unchanged body`, {
            id: 'sign.resigned-each-attempt',
          })
          .that(v.ok, {
            expected: 'a signature that verifies over the bytes of this attempt',
            seen: `${v.reason}: ${describe(e)}`,
          });
      });
      // SIGN-5 reading: t moves with the attempts' arrivals (skew-free: compared pairwise), equal t only within one second.
      for (let i = 0; i < checks.length; i++) {
        for (let j = i + 1; j < checks.length; j++) {
          const a = checks[i]!;
          const b = checks[j]!;
          const arrival = (b.e.arrival.wallMs - a.e.arrival.wallMs) / 1000;
          const dt = (b.v.t ?? 0) - (a.v.t ?? 0);
          check
            .soft('SIGN-5', `t of attempt ${j + 1} moved from attempt ${i + 1} as the time between them`, {
              id: 'sign.resigned-each-attempt',
            })
            .that(Math.abs(dt - arrival) <= 1.5, {
              expected: `t moved ${arrival.toFixed(2)} s ± 1.5 s`,
              seen: `t moved ${dt} s (t ${String(a.v.t)} on #${a.e.seq}, ${String(b.v.t)} on #${b.e.seq})`,
            });
          if (arrival > 1.2)
            check
              .soft('SIGN-5', `attempt ${j + 1}, over a second after attempt ${i + 1}, carries a fresh t`, {
                id: 'sign.resigned-each-attempt',
              })
              .that(b.v.t !== a.v.t, {
                expected: `a t other than ${String(a.v.t)}`,
                seen: `the same t ${String(b.v.t)} on #${a.e.seq} and #${b.e.seq}, ${arrival.toFixed(2)} s apart`,
              });
        }
      }
    },
  ),
);

test(
  'onComplete is delivered off the request thread: complete answers while the host holds attempt 1 (DELIV-9)',
  { tag: clauseTags('DELIV-9') },
  async ({ makeWorkspace, driver, host, timing }) => {
    const ws = await makeWorkspace({ facts: false });
    host.script({
      id: uniqueId('hold-complete'),
      match: { path: ws.hookPath!, event: 'onComplete' },
      steps: [{ action: 'hold', ms: Math.round(timing.scaled(8_000)), thenStatus: 200 }],
    });
    const endUserHandle = uniqueHandle('roffthread');
    const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
    await driver.complete(c.conversationId);
    // The mock host's entries read the same monotonic clock (mock-host/clock.ts).
    const returnedNs = process.hrtime.bigint();
    // Attempt 1 may reach the host after complete answered: its end is compared with that moment.
    const [e] = await waitEvent(ws, 'onComplete', endUserHandle, 1);
    const endedFirst = e!.finished !== undefined && BigInt(e!.finished.monoNs) <= returnedNs;
    check('DELIV-9', 'the complete call answers while the host still holds attempt 1', {
      id: 'delivery.off-request-thread',
    }).that(!endedFirst, {
      expected: 'attempt 1 still held (or not yet sent) when complete answered',
      seen: `the host had ended attempt 1 (${e!.finished?.outcome ?? ''}) before complete answered: ${describe(e!)}`,
    });
  },
);

test(
  "a host holding a delivery does not delay the service's answers to API calls (DELIV-15)",
  { tag: clauseTags('DELIV-15') },
  async ({ makeWorkspace, driver, svc, host, timing }) => {
    const ws = await makeWorkspace({ facts: false });
    host.script({
      id: uniqueId('hold-complete'),
      match: { path: ws.hookPath!, event: 'onComplete' },
      steps: [{ action: 'hold', ms: Math.round(timing.scaled(8_000)), thenStatus: 200 }],
    });
    const endUserHandle = uniqueHandle('rslowhost');
    const { key } = await completeOne(ws, driver, endUserHandle);
    const [held] = await waitEvent(ws, 'onComplete', endUserHandle, 1);
    const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
    const other = await driver.open(ws, { endUserHandle: uniqueHandle('other'), configEnd: '/profile' });
    const still = host.journal.entries({ predicate: (e) => e.seq === held!.seq })[0];
    check
      .soft('DELIV-15', 'a data read and an open answer while the host holds a delivery', {
        id: 'delivery.host-never-blocks',
      })
      .that(still?.finished === undefined, {
        expected: 'both answered while the delivery was still held',
        seen: `the held delivery had ended (${still?.finished?.outcome ?? ''}) before the data read (${read.status}) and the open (conversation ${other.conversationId}) answered`,
      });
    check
      .soft('DELIV-15', 'a GET by key while the host holds a delivery is answered 200', {
        id: 'delivery.host-never-blocks',
      })
      .that(read.status === 200, { expected: '200', seen: answered(read) });
  },
);
