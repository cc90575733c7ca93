/**
 * The data API (4.2, 7), the stored record envelope (2.3) and host REST writes (3). The write
 * body beyond the envelope is not shown (UNSPEC-8): the harness writes { data: {...} }; records
 * needing a known serviceKey are created through the driver's seed (a REST write's answer body is
 * not shown either).
 */
import { test, expect } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import type { ServiceResponse } from './fixtures.ts';
import { expectError, expectSuccess } from './areas/errors.ts';
import { asEnvelope, asList, envelopeProblems } from './areas/envelope.ts';
import { uniqueHandle, uniqueId } from './areas/scenario.ts';
import { payload } from './areas/journal.ts';
import { clauseTags } from '../../spec/index.ts';

function expectEnvelope(r: ServiceResponse, what: string): ReturnType<typeof asEnvelope> {
  expect(r.status, `${what}: ${r.text.slice(0, 300)}\n${r.curl}`).toBe(200);
  return asEnvelope(r.json);
}

test.describe('reads', () => {
  test('GET /{endUserHandle} on a Setting answers the user\'s one record in the envelope (DATA-1)', { tag: clauseTags('DATA-1') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada', age: 36 } }), 'the REST write');
    const r = await svc.listRecords(ws, '/profile', h);
    const env = expectEnvelope(r, 'DATA-1');
    expect(Array.isArray(r.json), 'DATA-1: a Setting read is one record, not a list').toBe(false);
    expect(env.data?.name, `DATA-1\n${r.curl}`).toBe('Ada');
  });

  test('GET /{endUserHandle} on a List answers every instance, drafts included, each in the envelope (DATA-2)', { tag: clauseTags('DATA-2') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 2 });
    const c = await driver.open(ws, { endUserHandle: h, configEnd: '/addresses' });
    await driver.turn(c.conversationId, [{ fields: { label: 'chat-draft', city: 'Paris' } }]);
    const r = await svc.listRecords(ws, '/addresses', h);
    expect(r.status, `DATA-2\n${r.curl}`).toBe(200);
    const list = asList(r.json);
    expect(Array.isArray(r.json), `DATA-2 reading: a List read is a JSON array of envelopes: ${r.text.slice(0, 200)}`).toBe(true);
    expect(list.length, `DATA-2: two seeded drafts and one chat draft\n${r.curl}`).toBe(3);
    expect(list.map((e) => asEnvelope(e).data?.label)).toContain('chat-draft');
  });

  test('GET /{endUserHandle}/{serviceKey} answers one record by key in the envelope (DATA-3)', { tag: clauseTags('DATA-3') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    const { serviceKeys: [a, b] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 2 });
    const label = uniqueId('own');
    await svc.writeRecord(ws, '/addresses', h, { data: { label } }, { serviceKey: b! });
    const env = expectEnvelope(await svc.getRecord(ws, '/addresses', h, b!), 'DATA-3');
    expect(env.data?.label, 'DATA-3: the record of that key').toBe(label);
    expectEnvelope(await svc.getRecord(ws, '/addresses', h, a!), 'DATA-3');
  });

  test('every read answers the envelope: data, errors, warnings, callbackStatus, completedAt (ENV-1)', { tag: clauseTags('ENV-1') }, async ({ ws, svc, driver }) => {
    const h = uniqueHandle();
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'the REST write');
    const reads: ServiceResponse[] = [await svc.listRecords(ws, '/profile', h)];
    if (driver.has('seed-records')) {
      const { serviceKeys: [k] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1 });
      reads.push(await svc.getRecord(ws, '/addresses', h, k!));
      const list = await svc.listRecords(ws, '/addresses', h);
      for (const e of asList(list.json)) expect(envelopeProblems(e), `ENV-1: a List item\n${list.curl}`).toEqual([]);
    }
    for (const r of reads) {
      expect(r.status, r.curl).toBe(200);
      expect(envelopeProblems(r.json), `ENV-1\n${r.curl}`).toEqual([]);
    }
  });

  test('completedAt is non-null on drafts (ENV-3)', { tag: clauseTags('ENV-3') }, async ({ ws, svc, driver }) => {
    const h = uniqueHandle();
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'the REST write');
    const rest = expectEnvelope(await svc.listRecords(ws, '/profile', h), 'ENV-3');
    expect(rest.callbackStatus, 'a REST-written record is a draft').toBe('PENDING');
    expect(typeof rest.completedAt, `ENV-3: completedAt of a REST-written draft is ${JSON.stringify(rest.completedAt)}`).toBe('string');
    const c = await driver.open(ws, { endUserHandle: h, configEnd: '/addresses' });
    const { serviceKeys: [k] } = await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
    const chat = expectEnvelope(await svc.getRecord(ws, '/addresses', h, k!), 'ENV-3');
    expect(typeof chat.completedAt, `ENV-3: completedAt of a chat draft is ${JSON.stringify(chat.completedAt)}`).toBe('string');
  });
});

test.describe('records that do not bind', () => {
  test('a field that could not be populated reads null, with its reason in errors (ENV-2)', { tag: clauseTags('ENV-2') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    const { serviceKeys: [k] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1, fields: { label: 'odd', city: 42 } });
    const env = expectEnvelope(await svc.getRecord(ws, '/addresses', h, k!), 'ENV-2');
    expect(env.data, 'ENV-2: data is an object').not.toBeNull();
    expect(env.data!.city ?? null, 'ENV-2: the unbindable field reads null').toBeNull();
    expect(typeof env.errors.city, `ENV-2: errors.city gives the reason: ${JSON.stringify(env.errors)}`).toBe('string');
  });

  test('a 200 read of a record with field problems deserializes, problems in errors and warnings (ENV-4)', { tag: clauseTags('ENV-4') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    const { serviceKeys: [k] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1, fields: { label: 'odd', city: 42, unknownField: 'x' } });
    const r = await svc.getRecord(ws, '/addresses', h, k!);
    expect(r.status, `ENV-4: field problems are not HTTP errors\n${r.curl}`).toBe(200);
    expect(() => JSON.parse(r.text), 'ENV-4: the body deserializes').not.toThrow();
    const env = asEnvelope(r.json);
    expect(Object.keys(env.errors).length + Object.keys(env.warnings).length, `ENV-4: the problems are carried in errors/warnings: ${r.text.slice(0, 300)}`).toBeGreaterThan(0);
  });

  test('a List read returns a record that does not bind, with errors filled, never dropping it (ENV-5)', { tag: clauseTags('ENV-5') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1, fields: { label: 'fine', city: 'Paris' } });
    await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1, fields: { label: 'odd', city: 42 } });
    const r = await svc.listRecords(ws, '/addresses', h);
    expect(r.status, r.curl).toBe(200);
    const list = asList(r.json).map(asEnvelope);
    expect(list.length, `ENV-5: both records are listed\n${r.text.slice(0, 400)}`).toBe(2);
    expect(list.some((e) => typeof e.errors.city === 'string'), 'ENV-5: the unbound record carries its errors').toBe(true);
  });
});

test.describe('writes', () => {
  test('a keyed POST addresses an existing record by serviceKey (DATA-4)', { tag: clauseTags('DATA-4') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    const { serviceKeys: [k] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1, fields: { label: 'home', city: 'Paris' } });
    expectSuccess(await svc.writeRecord(ws, '/addresses', h, { data: { label: 'home', city: 'Lyon' } }, { serviceKey: k! }), 'DATA-4: the keyed write');
    expect(expectEnvelope(await svc.getRecord(ws, '/addresses', h, k!), 'DATA-4').data?.city, 'DATA-4: the keyed write updated that record').toBe('Lyon');
    expect(asList((await svc.listRecords(ws, '/addresses', h)).json).length, 'DATA-4: no second record was created').toBe(1);
  });

  test('a Setting has one record per endUserHandle: a second write updates it (DATA-13)', { tag: clauseTags('DATA-13') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'first write');
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Grace' } }), 'second write');
    const r = await svc.listRecords(ws, '/profile', h);
    expect(Array.isArray(r.json), 'DATA-13: still one record').toBe(false);
    expect(expectEnvelope(r, 'DATA-13').data?.name, `DATA-13\n${r.curl}`).toBe('Grace');
  });

  test('a List has many records, each addressed by its own serviceKey (DATA-14)', { tag: clauseTags('DATA-14') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    const { serviceKeys } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 3 });
    expect(new Set(serviceKeys).size, 'DATA-14: distinct keys').toBe(3);
    const labels = serviceKeys.map((k, i) => `label-${i}-${uniqueId('x')}`);
    for (let i = 0; i < 3; i++) expectSuccess(await svc.writeRecord(ws, '/addresses', h, { data: { label: labels[i] } }, { serviceKey: serviceKeys[i]! }), 'keyed write');
    for (let i = 0; i < 3; i++) expect(expectEnvelope(await svc.getRecord(ws, '/addresses', h, serviceKeys[i]!), 'DATA-14').data?.label).toBe(labels[i]);
    expectSuccess(await svc.writeRecord(ws, '/addresses', h, { data: { label: uniqueId('new') } }), 'an unkeyed write adds an instance');
    expect(asList((await svc.listRecords(ws, '/addresses', h)).json).length, 'DATA-14: the List holds every record').toBe(4);
  });

  test('a host REST write stores the record as PENDING (STATE-2)', { tag: clauseTags('STATE-2') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'the REST write');
    expect(expectEnvelope(await svc.listRecords(ws, '/profile', h), 'STATE-2').callbackStatus, 'STATE-2').toBe('PENDING');
  });

  waiting(() => test('a host REST write fires no event within the delivery window (STATE-3)', { tag: clauseTags('STATE-3') }, async ({ ws, svc, driver }) => {
    const h = uniqueHandle();
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'a Setting write');
    expectSuccess(await svc.writeRecord(ws, '/addresses', h, { data: { label: 'home' } }), 'a List write');
    if (driver.has('seed-records')) {
      const { serviceKeys: [k] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1 });
      expectSuccess(await svc.writeRecord(ws, '/addresses', h, { data: { label: 'work' } }, { serviceKey: k! }), 'a keyed write');
    }
    await ws.expectNoCallbacks({ predicate: (e) => payload(e).endUserHandle === h || e.endUserHandle === h });
  }));
});

test.describe('statuses', () => {
  test('PUT on any data route answers 405 (DATA-5)', { tag: clauseTags('DATA-5') }, async ({ ws, svc, driver }) => {
    const h = uniqueHandle();
    expectError(await svc.putRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 405, 'PUT /{endUserHandle}');
    if (driver.has('seed-records')) {
      const { serviceKeys: [k] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1 });
      expectError(await svc.putRecord(ws, '/addresses', h, { data: { label: 'x' } }, { serviceKey: k! }), 405, 'PUT /{endUserHandle}/{serviceKey}');
    }
  });

  test('a reserved org- handle in a data API path answers 400 (DATA-6)', { tag: clauseTags('DATA-6') }, async ({ ws, svc }) => {
    const org = `org-${uniqueId('acme')}`;
    expectError(await svc.listRecords(ws, '/profile', org), 400, 'GET with an org- handle');
    expectError(await svc.writeRecord(ws, '/profile', org, { data: { name: 'Ada' } }), 400, 'POST with an org- handle');
    expectError(await svc.getRecord(ws, '/addresses', org, uniqueId('k')), 400, 'GET by key with an org- handle');
  });

  test('a malformed POST body on the write route answers 400 (DATA-7)', { tag: clauseTags('DATA-7') }, async ({ ws, svc }) => {
    expectError(await svc.writeRecord(ws, '/profile', uniqueHandle(), undefined, { rawBody: '{"data": {"name": "Ada"' }), 400, 'a truncated JSON body');
    expectError(await svc.writeRecord(ws, '/profile', uniqueHandle(), undefined, { rawBody: 'not json at all' }), 400, 'a body that is not JSON');
  });

  test('GET on a Setting with no record for the endUserHandle answers 404 (DATA-8)', { tag: clauseTags('DATA-8') }, async ({ ws, svc }) => {
    expectError(await svc.listRecords(ws, '/profile', uniqueHandle('nobody')), 404, 'GET of a Setting never written');
  });

  test('GET by key, or a keyed POST, for an unknown serviceKey answers 404 (DATA-9)', { tag: clauseTags('DATA-9') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectError(await svc.getRecord(ws, '/addresses', h, uniqueId('no-such-key')), 404, 'GET by an unknown key');
    expectError(await svc.writeRecord(ws, '/addresses', h, { data: { label: 'x' } }, { serviceKey: uniqueId('no-such-key') }), 404, 'keyed POST to an unknown key');
  });

  test('a data route for a configEnd with no live config answers 404 (DATA-10)', { tag: clauseTags('DATA-10') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectError(await svc.listRecords(ws, '/no-such-endpoint', h), 404, 'GET on an unknown configEnd');
    expectError(await svc.writeRecord(ws, '/no-such-endpoint', h, { data: { a: 1 } }), 404, 'POST on an unknown configEnd');
  });

  test('a record held mid-migration is withheld from list reads and answers data-route requests with 409 (DATA-11)', { tag: clauseTags('DATA-11') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('migration-hold', 'seed-records');
    const h = uniqueHandle();
    const { serviceKeys: [held, free] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 2 });
    await driver.migrationHold(ws, held!, true);
    try {
      const list = await svc.listRecords(ws, '/addresses', h);
      expect(list.status, list.curl).toBe(200);
      expect(asList(list.json).length, `DATA-11: only the free record is listed\n${list.text.slice(0, 300)}`).toBe(1);
      expect((await svc.getRecord(ws, '/addresses', h, held!)).status, 'DATA-11: GET by key of the held record').toBe(409);
      expect((await svc.writeRecord(ws, '/addresses', h, { data: { label: 'moved' } }, { serviceKey: held! })).status, 'DATA-11: keyed POST to the held record').toBe(409);
      expect((await svc.getRecord(ws, '/addresses', h, free!)).status, 'the free record reads').toBe(200);
    } finally {
      await driver.migrationHold(ws, held!, false);
    }
  });

  test('a second List record with the same identity-field value answers 409 IDENTITY_CONFLICT naming the existing key (DATA-12)', { tag: clauseTags('DATA-12') }, async ({ ws, svc, driver }) => {
    driver.requireCapability('seed-records');
    const h = uniqueHandle();
    const label = uniqueId('home');
    const { serviceKeys: [existing] } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1, fields: { label } });
    const r = await svc.writeRecord(ws, '/addresses', h, { data: { label, city: 'Lyon' } });
    expect(r.status, `DATA-12\n${r.curl}`).toBe(409);
    const body = (r.json ?? {}) as Record<string, unknown>;
    expect(body.code, `DATA-12: ${r.text}`).toBe('IDENTITY_CONFLICT');
    expect(body.identityField, `DATA-12: ${r.text}`).toBe('label');
    expect(body.existingKey, `DATA-12: ${r.text}`).toBe(existing);
  });
});
