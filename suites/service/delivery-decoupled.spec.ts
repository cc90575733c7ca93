/**
 * Delivery off the service's own work (6, 8): onComplete is sent off the request thread, a host holding a
 * delivery delays no answer of the service, and a record reads DELIVERED whatever its attempts' outcome.
 * Tests tagged @realtime run again at time scale 1 (service-realtime project): every interval comes from timing,
 * never a literal.
 */
import { test } from './fixtures.ts';
import { describe } from '../../judge/service/journal.ts';
import { uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { waiting } from './areas/waiting.ts';
import { answered, expectSuccess } from './areas/errors.ts';
import { check, precondition } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { completeOne } from './areas/deliveries.ts';

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
