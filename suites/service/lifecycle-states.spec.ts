/**
 * Record states and transitions (3), when each event fires (6) and where callbacks go (4.1):
 * each test drives one transition through the driver and reads the result over the data API.
 */
import { test, expect } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import { assertNothingArrives, waitForEntries } from '../../mock-host/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, header, payload } from './areas/journal.ts';
import { eventOf, isEvent, saveAndComplete, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { expectSuccess } from './areas/errors.ts';
import { clauseTags } from '../../spec/index.ts';

function envelopeOf(json: unknown): Record<string, unknown> {
  return (json && typeof json === 'object' && !Array.isArray(json) ? json : {}) as Record<string, unknown>;
}

test('onStart fires when a fresh conversation opens for an end user (EVT-16)', { tag: clauseTags('EVT-16') }, async ({ ws, driver }) => {
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  const [e] = await waitEvent(ws, 'onStart', endUserHandle);
  expect(payload(e!).conversationId, `EVT-16: onStart names the opened conversation: ${describe(e!)}`).toBe(c.conversationId);
});

waiting(() => test('config.saved fires once per touched instance per turn, coalescing saves to one instance (EVT-17)', { tag: clauseTags('EVT-17') }, async ({ ws, driver }) => {
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  const { serviceKeys } = await driver.turn(c.conversationId, [
    { configEnd: '/profile', fields: { name: 'Ada' } },
    { configEnd: '/profile', fields: { email: 'ada@example.test' } },
    { configEnd: '/addresses', fields: { label: 'home', city: 'Paris' } },
  ]);
  const profileKey = serviceKeys[0]!;
  const addressKey = serviceKeys[2]!;
  expect(serviceKeys[1], 'two saves to the Setting address its one record').toBe(profileKey);
  const got = await waitEvent(ws, 'config.saved', endUserHandle, 2);
  const profile = got.filter((e) => payload(e).serviceKey === profileKey);
  expect(profile.length, `EVT-17: one config.saved for the Setting record; got ${got.map(describe).join(' | ')}`).toBe(1);
  expect([...(payload(profile[0]!).changedFields as string[])].sort(), `EVT-17: the coalesced event names the union of the turn's fields`).toEqual(expect.arrayContaining(['email', 'name']));
  expect(got.filter((e) => payload(e).serviceKey === addressKey).length, 'EVT-17: one config.saved for the List instance').toBe(1);
  const seen = new Set(got.map((e) => e.seq));
  await ws.expectNoCallbacks({ predicate: (e) => isEvent('config.saved', endUserHandle)(e) && !seen.has(e.seq) });
}));

test('config.saved carries callbackStatus DELIVERED for an edit of a completed record (EVT-18)', { tag: clauseTags('EVT-18') }, async ({ ws, driver }) => {
  const endUserHandle = uniqueHandle();
  const c1 = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  const { serviceKeys: [key] } = await driver.turn(c1.conversationId, [{ fields: { name: 'Ada' } }]);
  const [first] = await waitEvent(ws, 'config.saved', endUserHandle);
  expect(payload(first!).callbackStatus, `EVT-18: a draft's config.saved says PENDING: ${describe(first!)}`).toBe('PENDING');
  await driver.complete(c1.conversationId);
  await waitEvent(ws, 'onComplete', endUserHandle);
  const c2 = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  await driver.turn(c2.conversationId, [{ serviceKey: key!, fields: { email: 'ada@example.test' } }]);
  const saved = await waitEvent(ws, 'config.saved', endUserHandle, 2);
  const edit = saved.find((e) => payload(e).conversationId === c2.conversationId);
  expect(edit, 'EVT-18: config.saved of the edit arrived').toBeDefined();
  expect(payload(edit!).callbackStatus, `EVT-18: ${describe(edit!)}`).toBe('DELIVERED');
});

waiting(() => test('a turn that fills every field fires no onComplete: only the user saying done does (EVT-19)', { tag: clauseTags('EVT-19') }, async ({ ws, driver }) => {
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  await driver.turn(c.conversationId, [{ fields: { name: 'Ada', email: 'ada@example.test', age: 36, newsletter: true } }]);
  await waitEvent(ws, 'config.saved', endUserHandle);
  await ws.expectNoCallbacks({ predicate: isEvent('onComplete', endUserHandle) });
}));

test('onSessionInterrupted fires when a conversation closes without completing (EVT-20)', { tag: clauseTags('EVT-20') }, async ({ ws, driver }) => {
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  await driver.interrupt(c.conversationId);
  const [e] = await waitEvent(ws, 'onSessionInterrupted', endUserHandle);
  expect(payload(e!).conversationId, `EVT-20: ${describe(e!)}`).toBe(c.conversationId);
});

test('onSessionTimeout fires when a conversation is swept after the idle TTL (EVT-21)', { tag: clauseTags('EVT-21') }, async ({ ws, driver }) => {
  driver.requireCapability('idle-sweep');
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  await driver.idleSweep(c.conversationId);
  const [e] = await waitEvent(ws, 'onSessionTimeout', endUserHandle);
  expect(payload(e!).conversationId, `EVT-21: ${describe(e!)}`).toBe(c.conversationId);
});

test('config.deleted fires after the record is gone: a GET by key answers 404 while the host holds the event (EVT-22)', { tag: clauseTags('EVT-22') }, async ({ ws, driver, svc, host, timing }) => {
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const { serviceKeys: [key] } = await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
  // Hold the host's answer: a service that removes the record only after the host answers is caught here.
  host.script({ id: uniqueId('hold-deleted'), match: { path: ws.hookPath!, event: 'config.deleted' }, steps: [{ action: 'hold', ms: Math.round(timing.scaled(8_000)), thenStatus: 200 }] });
  await driver.deleteRecord(c.conversationId, key!);
  const [e] = await waitEvent(ws, 'config.deleted', endUserHandle);
  expect(payload(e!).serviceKey, `EVT-22: ${describe(e!)}`).toBe(key);
  const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
  expect(read.status, `EVT-22: GET by key while config.deleted is in flight\n${read.curl}`).toBe(404);
});

test('a chat delete removes the record: GET by key answers 404 (STATE-7)', { tag: clauseTags('STATE-7') }, async ({ ws, driver, svc }) => {
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const { serviceKeys: [key] } = await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
  expectSuccess(await svc.getRecord(ws, '/addresses', endUserHandle, key!), 'the saved record reads before the delete');
  await driver.deleteRecord(c.conversationId, key!);
  await waitEvent(ws, 'config.deleted', endUserHandle);
  const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
  expect(read.status, `STATE-7\n${read.curl}`).toBe(404);
});

test('a scope delete fires config.bulk_deleted; any per-key config.deleted names a key of the manifest (EVT-23)', { tag: clauseTags('EVT-23') }, async ({ ws, driver }) => {
  driver.requireCapability('bulk-delete');
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const { serviceKeys } = await driver.turn(c.conversationId, [{ fields: { label: 'a' } }, { fields: { label: 'b' } }]);
  await driver.bulkDelete(c.conversationId, { configEnd: '/addresses' });
  const pages = await waitEvent(ws, 'config.bulk_deleted', endUserHandle);
  const manifest = new Set((pages.flatMap((p) => payload(p).keys as string[])));
  expect([...manifest].sort(), `EVT-23: manifest of ${pages.map(describe).join(' | ')}`).toEqual([...serviceKeys].sort());
  // EVT-23 reading: "small" is not shown (UNSPEC-13); per-key events are allowed, never required.
  for (const e of ws.callbacks({ predicate: isEvent('config.deleted', endUserHandle) })) {
    expect(manifest.has(payload(e).serviceKey as string), `EVT-23: ${describe(e)} names a key outside the manifest`).toBe(true);
  }
});

test('a scope delete removes every record of the scope (STATE-8)', { tag: clauseTags('STATE-8') }, async ({ ws, driver, svc }) => {
  driver.requireCapability('bulk-delete');
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const { serviceKeys } = await driver.turn(c.conversationId, [{ fields: { label: 'a' } }, { fields: { label: 'b' } }, { fields: { label: 'c' } }]);
  await driver.bulkDelete(c.conversationId, { configEnd: '/addresses' });
  await waitEvent(ws, 'config.bulk_deleted', endUserHandle);
  for (const key of serviceKeys) {
    const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
    expect(read.status, `STATE-8: ${key} after the scope delete\n${read.curl}`).toBe(404);
  }
});

test('a chat save creates the record as PENDING (STATE-1)', { tag: clauseTags('STATE-1') }, async ({ ws, driver, svc }) => {
  const endUserHandle = uniqueHandle();
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const { serviceKeys: [key] } = await driver.turn(c.conversationId, [{ fields: { label: 'home', city: 'Paris' } }]);
  const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
  expectSuccess(read, 'STATE-1: GET by key of a chat-saved record');
  expect(envelopeOf(read.json).callbackStatus, `STATE-1\n${read.curl}`).toBe('PENDING');
});

test('completion moves the record to DELIVERED and fires onComplete with its key (STATE-4)', { tag: clauseTags('STATE-4') }, async ({ ws, driver, svc }) => {
  const endUserHandle = uniqueHandle();
  const { key, onComplete: e } = await saveAndComplete(ws, driver, { endUserHandle, configEnd: '/addresses', fields: { label: 'home' } });
  expect(payload(e).serviceKeys, `STATE-4: ${describe(e)}`).toContain(key);
  const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
  expect(envelopeOf(read.json).callbackStatus, `STATE-4\n${read.curl}`).toBe('DELIVERED');
});

test('a record missing a required field still delivers: no readiness check (STATE-5)', { tag: clauseTags('STATE-5') }, async ({ makeWorkspace, driver, svc }) => {
  const ws = await makeWorkspace({
    classes: [{ configEnd: '/ticket', kind: 'SETTING', fields: [{ name: 'subject', type: 'string', required: true }, { name: 'note', type: 'string' }] }],
    facts: false,
  });
  const endUserHandle = uniqueHandle();
  const { key, onComplete: e } = await saveAndComplete(ws, driver, { endUserHandle, configEnd: '/ticket', fields: { note: 'no subject given' } });
  expect(payload(e).serviceKeys, `STATE-5: ${describe(e)}`).toContain(key);
  const read = await svc.listRecords(ws, '/ticket', endUserHandle);
  expect(envelopeOf(read.json).callbackStatus, `STATE-5\n${read.curl}`).toBe('DELIVERED');
});

test('a chat save on a DELIVERED record keeps it DELIVERED (STATE-6)', { tag: clauseTags('STATE-6') }, async ({ ws, driver, svc }) => {
  const endUserHandle = uniqueHandle();
  const { key } = await saveAndComplete(ws, driver, { endUserHandle, configEnd: '/addresses', fields: { label: 'home' } });
  const c2 = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  await driver.turn(c2.conversationId, [{ serviceKey: key!, fields: { city: 'Lyon' } }]);
  await waitEvent(ws, 'config.saved', endUserHandle, 2);
  const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
  expect(envelopeOf(read.json).callbackStatus, `STATE-6\n${read.curl}`).toBe('DELIVERED');
});

test('a later edit and completion fires another onComplete with a new delivery id for the same key (DELIV-13)', { tag: clauseTags('DELIV-13') }, async ({ ws, driver }) => {
  const endUserHandle = uniqueHandle();
  const { key } = await saveAndComplete(ws, driver, { endUserHandle, configEnd: '/addresses', fields: { label: 'home' } });
  const c2 = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  await driver.turn(c2.conversationId, [{ serviceKey: key!, fields: { city: 'Lyon' } }]);
  await driver.complete(c2.conversationId, { serviceKeys: [key!] });
  const both = await waitEvent(ws, 'onComplete', endUserHandle, 2);
  const [first, second] = both;
  expect(payload(second!).serviceKeys, `DELIV-13: ${describe(second!)}`).toContain(key);
  expect(header(second!, 'x-service-delivery-id'), 'DELIV-13: the second onComplete carries a new delivery id').not.toBe(header(first!, 'x-service-delivery-id'));
});

test('a sandbox delivers to the same hookPath as its production parent (HOOK-2)', { tag: clauseTags('HOOK-2') }, async ({ ws, makeWorkspace, driver, host, timing }) => {
  driver.requireCapability('sandbox');
  const sb = await makeWorkspace({ parent: ws });
  expect(sb.workspaceKey.startsWith('sb-'), 'a sandbox key has the sb- prefix').toBe(true);
  const endUserHandle = uniqueHandle();
  await driver.open(sb, { endUserHandle, configEnd: '/profile' });
  // Watch the whole mock host: a sandbox posting to any other path is seen, not missed.
  const v = await waitForEntries(host.journal, { predicate: (x) => x.kind !== 'facts' && payload(x).endUserHandle === endUserHandle }, { count: 1, deadlineMs: timing.deliveryDeadlineMs() });
  expect(v.ok, `HOOK-2: ${v.sentence}`).toBe(true);
  expect(v.entries[0]!.path, `HOOK-2: ${describe(v.entries[0]!)}`).toBe(ws.hookPath);
  expect(payload(v.entries[0]!).workspaceKey, 'HOOK-2: the event is the sandbox\'s').toBe(sb.workspaceKey);
});

test('a sandbox without its own hostBaseUrl inherits its production parent\'s (HOOK-3)', { tag: clauseTags('HOOK-3') }, async ({ ws, makeWorkspace, driver, host, timing }) => {
  driver.requireCapability('sandbox');
  const sb = await makeWorkspace({ parent: ws, hostBaseUrl: null });
  const endUserHandle = uniqueHandle();
  await driver.open(sb, { endUserHandle, configEnd: '/profile' });
  // The parent's hostBaseUrl is this mock host: an onStart of the sandbox's user arriving here proves the inheritance.
  const v = await waitForEntries(host.journal, { predicate: (x) => x.kind !== 'facts' && eventOf(x) === 'onStart' && payload(x).endUserHandle === endUserHandle }, { count: 1, deadlineMs: timing.deliveryDeadlineMs() });
  expect(v.ok, `HOOK-3: ${v.sentence}`).toBe(true);
  expect(payload(v.entries[0]!).workspaceKey, `HOOK-3: ${describe(v.entries[0]!)}`).toBe(sb.workspaceKey);
});

waiting(() => test('with hookPath or hostBaseUrl missing, events are skipped and values stay readable over the data API (HOOK-4)', { tag: clauseTags('HOOK-4') }, async ({ makeWorkspace, driver, svc, host, timing }) => {
  // Both cases share one quiet window (grouped: the same window).
  const cases = await Promise.all((['hookPath', 'hostBaseUrl'] as const).map(async (missing) => ({
    missing,
    ws: await makeWorkspace(missing === 'hookPath' ? { hookPath: null, facts: false } : { hostBaseUrl: null, facts: false }),
    endUserHandle: uniqueHandle(`no-${missing}`),
  })));
  const ofThese = (e: JournalEntry) => e.method === 'POST' && cases.some((c) => payload(e).workspaceKey === c.ws.workspaceKey || payload(e).endUserHandle === c.endUserHandle);
  for (const c of cases) {
    const conv = await driver.open(c.ws, { endUserHandle: c.endUserHandle, configEnd: '/profile' });
    await driver.turn(conv.conversationId, [{ fields: { name: 'Ada' } }]);
    await driver.complete(conv.conversationId);
  }
  const quiet = await assertNothingArrives(host.journal, { predicate: ofThese }, { windowMs: timing.quietWindowMs() });
  expect(host.journal.entries({ predicate: ofThese }).map(describe), 'HOOK-4: events were sent although hookPath or hostBaseUrl is missing').toEqual([]);
  expect(quiet.ok, `HOOK-4: ${quiet.sentence}`).toBe(true);
  for (const c of cases) {
    const read = await svc.listRecords(c.ws, '/profile', c.endUserHandle);
    expectSuccess(read, `HOOK-4: with ${c.missing} missing the saved value stays readable`);
    expect((envelopeOf(read.json).data as Record<string, unknown> | null)?.name, `HOOK-4 (${c.missing} missing)\n${read.curl}`).toBe('Ada');
  }
}));
