/**
 * What is never retried (6, 8): onComplete after a 2xx or a 4xx answer or a 200 just under the timeout, and every
 * event but onComplete.
 * Tests tagged @realtime run again at time scale 1 (service-realtime project): every interval comes from timing,
 * never a literal.
 */
import { test } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { assertNothingArrives } from '../../mock-host/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, header, payload } from '../../judge/service/journal.ts';
import { eventOf, isEvent, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { waiting } from './areas/waiting.ts';
import { answered } from './areas/errors.ts';
import { check } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { BACKOFF_1, completeOne } from './areas/deliveries.ts';

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
