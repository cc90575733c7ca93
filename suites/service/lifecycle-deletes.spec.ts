/**
 * Deletes (3, 6): a chat delete and a scope delete remove their records, config.deleted fires after the record is
 * gone and a scope delete fires config.bulk_deleted.
 * Each test drives one transition through the driver and reads the result over the data API.
 */
import { test } from './fixtures.ts';
import { describe, payload } from '../../judge/service/journal.ts';
import { isEvent, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { expectError, expectSuccess } from './areas/errors.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

test(
  'config.deleted fires after the record is gone: a GET by key answers 404 while the host holds the event (EVT-22)',
  { tag: clauseTags('EVT-22') },
  async ({ ws, driver, svc, host, timing }) => {
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    const {
      serviceKeys: [key],
    } = await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
    // Hold the host's answer: a service that removes the record only after the host answers is caught here.
    host.script({
      id: uniqueId('hold-deleted'),
      match: { path: ws.hookPath!, event: 'config.deleted' },
      steps: [{ action: 'hold', ms: Math.round(timing.scaled(8_000)), thenStatus: 200 }],
    });
    await driver.deleteRecord(c.conversationId, key!);
    const [e] = await waitEvent(ws, 'config.deleted', endUserHandle, 1, undefined, {
      clause: 'EVT-22',
      id: 'state.deleted-after-removal',
      rule: 'config.deleted fires when the user deletes one instance through the chat',
    });
    // Which key config.deleted names is EVT-9's rule: here it only tells that this event is the delete's.
    precondition(payload(e!).serviceKey === key, 'the config.deleted names the deleted key', {
      expected: show(key),
      seen: describe(e!),
    });
    const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
    expectError(
      'EVT-22',
      read,
      404,
      'a GET by key of the deleted record while its config.deleted is in flight',
      false,
      { id: 'state.deleted-after-removal' },
    );
  },
);

test(
  'a chat delete removes the record: GET by key answers 404 (STATE-7)',
  { tag: clauseTags('STATE-7') },
  async ({ ws, driver, svc }) => {
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    const {
      serviceKeys: [key],
    } = await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
    expectSuccess(
      await svc.getRecord(ws, '/addresses', endUserHandle, key!),
      'a GET by key of the saved record before the delete',
    );
    await driver.deleteRecord(c.conversationId, key!);
    await waitEvent(ws, 'config.deleted', endUserHandle);
    const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
    expectError('STATE-7', read, 404, 'a GET by key of a record deleted through the chat', false, {
      id: 'state.chat-delete-removes',
    });
  },
);

test(
  'a scope delete fires config.bulk_deleted; any per-key config.deleted names a key of the manifest (EVT-23)',
  { tag: clauseTags('EVT-23') },
  async ({ ws, driver }) => {
    driver.requireCapability('bulk-delete');
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    const { serviceKeys } = await driver.turn(c.conversationId, [
      { fields: { label: 'a' } },
      { fields: { label: 'b' } },
    ]);
    await driver.bulkDelete(c.conversationId, { configEnd: '/addresses' });
    const pages = await waitEvent(ws, 'config.bulk_deleted', endUserHandle, 1, undefined, {
      clause: 'EVT-23',
      id: 'state.bulk-deleted-fires',
      rule: 'config.bulk_deleted fires when the user deletes a whole scope in one confirmed action',
    });
    const manifest = new Set(
      pages.flatMap((p) => {
        const k = payload(p).keys;
        return Array.isArray(k) ? (k as string[]) : [];
      }),
    );
    // What the manifest holds is PAGE-5's rule (and its shape EVT-10's): here it is what the per-key events are
    // compared with.
    precondition(
      JSON.stringify([...manifest].sort()) === JSON.stringify([...serviceKeys].sort()),
      'the manifest is the deleted scope',
      { expected: show([...serviceKeys].sort()), seen: pages.map(describe).join(' | ') },
    );
    // EVT-23 reading: "small" is not shown (UNSPEC-13); per-key events are allowed, never required.
    for (const e of ws.callbacks({ predicate: isEvent('config.deleted', endUserHandle) })) {
      check
        .soft('EVT-23', 'a per-key config.deleted of a scope delete names a key of the manifest', {
          id: 'state.bulk-deleted-fires',
        })
        .that(manifest.has(payload(e).serviceKey as string), {
          expected: `one of ${[...manifest].map((k) => show(k)).join(', ')}`,
          seen: describe(e),
        });
    }
  },
);

test(
  'a scope delete removes every record of the scope (STATE-8)',
  { tag: clauseTags('STATE-8') },
  async ({ ws, driver, svc }) => {
    driver.requireCapability('bulk-delete');
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    const { serviceKeys } = await driver.turn(c.conversationId, [
      { fields: { label: 'a' } },
      { fields: { label: 'b' } },
      { fields: { label: 'c' } },
    ]);
    await driver.bulkDelete(c.conversationId, { configEnd: '/addresses' });
    await waitEvent(ws, 'config.bulk_deleted', endUserHandle);
    for (const key of serviceKeys) {
      const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
      expectError('STATE-8', read, 404, 'a GET by key of a record of a deleted scope', true, {
        id: 'state.scope-delete-removes',
      });
    }
  },
);
