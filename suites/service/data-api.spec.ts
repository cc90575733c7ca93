/**
 * The data API (4.2, 7), the stored record envelope (2.3) and host REST writes (3). How configEnd
 * is written in the path, the path form of a keyed write and the write body beyond the envelope
 * are not shown (UNSPEC-8, UNSPEC-9): every request is written in the forms the target declares
 * (`dataApi`, spec/data-api-forms.ts), and no check here asserts a form. Records needing a known
 * serviceKey are created through the driver's seed (a REST write's answer body is not shown either).
 *
 * Each check names the clause its own condition decides. A read or a write the rule under test
 * needs but does not judge (the write before a read, the read of a record whose envelope is judged)
 * is a precondition: a service that breaks that step leaves these clauses blocked, and fails the
 * step's own clause in the test of that clause.
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import type { ServiceResponse } from './fixtures.ts';
import { answered, expectError, expectSuccess, hintOf } from './areas/errors.ts';
import { asEnvelope, asList, envelopeProblems } from './areas/envelope.ts';
import { uniqueHandle, uniqueId } from './areas/scenario.ts';
import { payload } from './areas/journal.ts';
import { check, precondition, show, type ClauseRef } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

type Envelope = ReturnType<typeof asEnvelope>;

/** A read this test needs but does not judge answered 200 (else its clauses are blocked); its envelope. */
function readOk(r: ServiceResponse, what: string): Envelope {
  precondition(r.status === 200, `${what} is answered 200`, { expected: '200', seen: answered(r), ...hintOf(r) });
  return asEnvelope(r.json);
}

/** A check of `clause`: the read answered 200 (the rule says it answers the record); its envelope. */
function expectRead(clause: ClauseRef, r: ServiceResponse, rule: string): Envelope {
  check(clause, rule).that(r.status === 200, { expected: '200', seen: answered(r), ...hintOf(r) });
  return asEnvelope(r.json);
}

test.describe('reads', () => {
  test(
    "GET /{endUserHandle} on a Setting answers the user's one record in the envelope (DATA-1)",
    { tag: clauseTags('DATA-1') },
    async ({ ws, svc }) => {
      const h = uniqueHandle();
      expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada', age: 36 } }), 'the REST write');
      const r = await svc.listRecords(ws, '/profile', h);
      const env = expectRead('DATA-1', r, 'GET /{endUserHandle} of a Setting with a record answers 200');
      check('DATA-1', 'a Setting read answers one record, not a list', { id: 'data.setting-read' }).that(
        !Array.isArray(r.json),
        { expected: 'one envelope (a JSON object)', seen: show(r.json) },
      );
      // Beside a failure, the hint (dataApi.writeBody) when the value does not read back: another body form?
      check('DATA-1', "the record read is the user's record, with the value written", {
        id: 'data.setting-read',
      }).equals(env.data?.name, 'Ada', r.formHint);
    },
  );

  test(
    'GET /{endUserHandle} on a List answers every instance, drafts included, each in the envelope (DATA-2)',
    { tag: clauseTags('DATA-2') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 2 });
      const c = await driver.open(ws, { endUserHandle: h, configEnd: '/addresses' });
      await driver.turn(c.conversationId, [{ fields: { label: 'chat-draft', city: 'Paris' } }]);
      const r = await svc.listRecords(ws, '/addresses', h);
      expectRead('DATA-2', r, 'GET /{endUserHandle} of a List answers 200');
      check('DATA-2', 'a List read is a JSON array of envelopes (DATA-2 reading)', { id: 'data.list-read' }).that(
        Array.isArray(r.json),
        { expected: 'a JSON array', seen: show(r.json) },
      );
      const list = asList(r.json);
      check
        .soft('DATA-2', 'the List read holds every instance: two seeded drafts and one chat draft', {
          id: 'data.list-read',
        })
        .equals(list.length, 3);
      check.soft('DATA-2', 'the chat draft is among the instances read', { id: 'data.list-read' }).that(
        list.some((e) => asEnvelope(e).data?.label === 'chat-draft'),
        { expected: 'an instance with label "chat-draft"', seen: show(list.map((e) => asEnvelope(e).data?.label)) },
      );
    },
  );

  test(
    'GET /{endUserHandle}/{serviceKey} answers one record by key in the envelope (DATA-3)',
    { tag: clauseTags('DATA-3') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const {
        serviceKeys: [a, b],
      } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 2 });
      const label = uniqueId('own');
      expectSuccess(
        await svc.writeRecord(ws, '/addresses', h, { data: { label } }, { serviceKey: b! }),
        'the keyed write that gives the record its own label',
      );
      const byKey = await svc.getRecord(ws, '/addresses', h, b!);
      const env = expectRead('DATA-3', byKey, 'GET /{endUserHandle}/{serviceKey} of a record answers 200');
      check
        .soft('DATA-3', 'the read by key answers the record of that key')
        .equals(env.data?.label, label, byKey.formHint);
      expectRead(
        'DATA-3',
        await svc.getRecord(ws, '/addresses', h, a!),
        'GET /{endUserHandle}/{serviceKey} of the other record answers 200',
      );
    },
  );

  test(
    'every read answers the envelope: data, errors, warnings, callbackStatus, completedAt (ENV-1)',
    { tag: clauseTags('ENV-1') },
    async ({ ws, svc, driver }) => {
      const h = uniqueHandle();
      expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'the REST write');
      const reads: Array<[string, ServiceResponse]> = [['a Setting read', await svc.listRecords(ws, '/profile', h)]];
      if (driver.has('seed-records')) {
        const {
          serviceKeys: [k],
        } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1 });
        reads.push(['a read by key', await svc.getRecord(ws, '/addresses', h, k!)]);
        const list = await svc.listRecords(ws, '/addresses', h);
        readOk(list, 'the List read');
        for (const e of asList(list.json))
          check
            .soft('ENV-1', 'each instance of a List read is the envelope of 2.3', { id: 'env.envelope' })
            .none(envelopeProblems(e), 'data, errors, warnings, callbackStatus and completedAt in their types');
      }
      for (const [what, r] of reads) {
        readOk(r, what);
        check
          .soft('ENV-1', `${what} answers the envelope of 2.3`, { id: 'env.envelope' })
          .none(envelopeProblems(r.json), 'data, errors, warnings, callbackStatus and completedAt in their types');
      }
    },
  );

  test('completedAt is non-null on drafts (ENV-3)', { tag: clauseTags('ENV-3') }, async ({ ws, svc, driver }) => {
    const h = uniqueHandle();
    expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'the REST write');
    const rest = readOk(await svc.listRecords(ws, '/profile', h), 'the read of the REST-written record');
    // The record must be a draft for ENV-3 to speak of it; that a REST write is PENDING is STATE-2's rule.
    precondition(rest.callbackStatus === 'PENDING', 'the REST-written record is a draft', {
      expected: 'callbackStatus PENDING',
      seen: show(rest.callbackStatus),
    });
    check
      .soft('ENV-3', 'completedAt of a REST-written draft is a timestamp, not null', { id: 'env.draft-completed-at' })
      .that(typeof rest.completedAt === 'string', { expected: 'a timestamp', seen: show(rest.completedAt) });
    const c = await driver.open(ws, { endUserHandle: h, configEnd: '/addresses' });
    const {
      serviceKeys: [k],
    } = await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
    const chat = readOk(await svc.getRecord(ws, '/addresses', h, k!), 'the read by key of the chat draft');
    check
      .soft('ENV-3', 'completedAt of a chat draft is a timestamp, not null', { id: 'env.draft-completed-at' })
      .that(typeof chat.completedAt === 'string', { expected: 'a timestamp', seen: show(chat.completedAt) });
  });
});

test.describe('records that do not bind', () => {
  test(
    'a field that could not be populated reads null, with its reason in errors (ENV-2)',
    { tag: clauseTags('ENV-2') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const {
        serviceKeys: [k],
      } = await driver.seed(ws, {
        configEnd: '/addresses',
        endUserHandle: h,
        count: 1,
        fields: { label: 'odd', city: 42 },
      });
      const env = readOk(
        await svc.getRecord(ws, '/addresses', h, k!),
        'the read by key of the record that does not bind',
      );
      check('ENV-2', 'data of a record with one unpopulated field is an object', { id: 'env.unbound-null' }).that(
        env.data !== null,
        { expected: 'an object', seen: show(env.data) },
      );
      check
        .soft('ENV-2', 'the field that could not be populated (city: 42 for a string) reads null', {
          id: 'env.unbound-null',
        })
        .equals(env.data!.city ?? null, null);
      check
        .soft('ENV-2', 'errors gives the reason of the unpopulated field', { id: 'env.unbound-null' })
        .that(typeof env.errors.city === 'string', {
          expected: 'errors.city, a reason string',
          seen: `errors ${show(env.errors)}`,
        });
    },
  );

  test(
    'a 200 read of a record with field problems deserializes, problems in errors and warnings (ENV-4)',
    { tag: clauseTags('ENV-4') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const {
        serviceKeys: [k],
      } = await driver.seed(ws, {
        configEnd: '/addresses',
        endUserHandle: h,
        count: 1,
        fields: { label: 'odd', city: 42, unknownField: 'x' },
      });
      const r = await svc.getRecord(ws, '/addresses', h, k!);
      check('ENV-4', 'a read of a record with field problems answers 200: field problems are not HTTP errors', {
        id: 'env.problems-not-errors',
      }).that(r.status === 200, { expected: '200', seen: answered(r), ...hintOf(r) });
      let parses = true;
      try {
        JSON.parse(r.text);
      } catch {
        parses = false;
      }
      check('ENV-4', 'the 200 body deserializes', { id: 'env.problems-not-errors' }).that(parses, {
        expected: 'a JSON body',
        seen: show(r.text),
      });
      const env = asEnvelope(r.json);
      check
        .soft('ENV-4', 'the field problems are carried in errors or warnings', { id: 'env.problems-not-errors' })
        .atLeast(Object.keys(env.errors).length + Object.keys(env.warnings).length, 1, ' entries');
    },
  );

  test(
    'a List read returns a record that does not bind, with errors filled, never dropping it (ENV-5)',
    { tag: clauseTags('ENV-5') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      await driver.seed(ws, {
        configEnd: '/addresses',
        endUserHandle: h,
        count: 1,
        fields: { label: 'fine', city: 'Paris' },
      });
      await driver.seed(ws, {
        configEnd: '/addresses',
        endUserHandle: h,
        count: 1,
        fields: { label: 'odd', city: 42 },
      });
      const r = await svc.listRecords(ws, '/addresses', h);
      readOk(r, 'the List read');
      const list = asList(r.json).map(asEnvelope);
      check
        .soft('ENV-5', 'the List read holds both records, the one that does not bind too', {
          id: 'env.list-keeps-unbound',
        })
        .equals(list.length, 2);
      check.soft('ENV-5', 'the record that does not bind carries its errors', { id: 'env.list-keeps-unbound' }).that(
        list.some((e) => typeof e.errors.city === 'string'),
        { expected: 'an instance with errors.city', seen: show(list.map((e) => e.errors)) },
      );
    },
  );
});

test.describe('writes', () => {
  test(
    'a keyed POST addresses an existing record by serviceKey (DATA-4)',
    { tag: clauseTags('DATA-4') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const {
        serviceKeys: [k],
      } = await driver.seed(ws, {
        configEnd: '/addresses',
        endUserHandle: h,
        count: 1,
        fields: { label: 'home', city: 'Paris' },
      });
      expectSuccess(
        await svc.writeRecord(ws, '/addresses', h, { data: { label: 'home', city: 'Lyon' } }, { serviceKey: k! }),
        'the keyed write',
        'DATA-4',
        { id: 'data.keyed-write' },
      );
      const byKey = await svc.getRecord(ws, '/addresses', h, k!);
      const env = readOk(byKey, 'the read by key after the keyed write');
      check
        .soft('DATA-4', 'the keyed write updated the record of that key', { id: 'data.keyed-write' })
        .equals(env.data?.city, 'Lyon', byKey.formHint);
      const list = await svc.listRecords(ws, '/addresses', h);
      readOk(list, 'the List read after the keyed write');
      check
        .soft('DATA-4', 'the keyed write created no second record', { id: 'data.keyed-write' })
        .equals(asList(list.json).length, 1);
    },
  );

  test(
    'a Setting has one record per endUserHandle: a second write updates it (DATA-13)',
    { tag: clauseTags('DATA-13') },
    async ({ ws, svc }) => {
      const h = uniqueHandle();
      expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'the first write');
      expectSuccess(
        await svc.writeRecord(ws, '/profile', h, { data: { name: 'Grace' } }),
        'a second write to the same Setting',
        'DATA-13',
        { id: 'data.setting-one-record' },
      );
      const r = await svc.listRecords(ws, '/profile', h);
      const env = readOk(r, 'the Setting read after two writes');
      check
        .soft('DATA-13', 'the Setting still holds one record', { id: 'data.setting-one-record' })
        .that(!Array.isArray(r.json), { expected: 'one envelope', seen: show(r.json) });
      check
        .soft('DATA-13', 'the second write updated that record', { id: 'data.setting-one-record' })
        .equals(env.data?.name, 'Grace', r.formHint);
    },
  );

  test(
    'a List has many records, each addressed by its own serviceKey (DATA-14)',
    { tag: clauseTags('DATA-14') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const { serviceKeys } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 3 });
      check('DATA-14', 'three records of a List have three distinct serviceKeys', {
        id: 'data.list-many-records',
      }).equals(new Set(serviceKeys).size, 3);
      const labels = serviceKeys.map((_k, i) => `label-${i}-${uniqueId('x')}`);
      for (let i = 0; i < 3; i++)
        expectSuccess(
          await svc.writeRecord(ws, '/addresses', h, { data: { label: labels[i] } }, { serviceKey: serviceKeys[i]! }),
          `the keyed write to record ${i + 1}`,
        );
      for (let i = 0; i < 3; i++) {
        const byKey = await svc.getRecord(ws, '/addresses', h, serviceKeys[i]!);
        const env = readOk(byKey, `the read by key of record ${i + 1}`);
        check
          .soft('DATA-14', `record ${i + 1} holds what was written to its own key`, { id: 'data.list-many-records' })
          .equals(env.data?.label, labels[i], byKey.formHint);
      }
      expectSuccess(
        await svc.writeRecord(ws, '/addresses', h, { data: { label: uniqueId('new') } }),
        'an unkeyed write that adds an instance',
      );
      const list = await svc.listRecords(ws, '/addresses', h);
      readOk(list, 'the List read');
      check
        .soft('DATA-14', 'the List holds every record: three seeded and one added', { id: 'data.list-many-records' })
        .equals(asList(list.json).length, 4);
    },
  );

  test(
    'a host REST write stores the record as PENDING (STATE-2)',
    { tag: clauseTags('STATE-2') },
    async ({ ws, svc }) => {
      const h = uniqueHandle();
      expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'the REST write');
      const env = readOk(await svc.listRecords(ws, '/profile', h), 'the read of the REST-written record');
      check('STATE-2', 'a record stored by a host REST write is PENDING', { id: 'state.rest-write-pending' }).equals(
        env.callbackStatus,
        'PENDING',
      );
    },
  );

  waiting(() =>
    test(
      'a host REST write fires no event within the delivery window (STATE-3)',
      { tag: clauseTags('STATE-3') },
      async ({ ws, svc, driver }) => {
        const h = uniqueHandle();
        expectSuccess(await svc.writeRecord(ws, '/profile', h, { data: { name: 'Ada' } }), 'a Setting write');
        expectSuccess(await svc.writeRecord(ws, '/addresses', h, { data: { label: 'home' } }), 'a List write');
        if (driver.has('seed-records')) {
          const {
            serviceKeys: [k],
          } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1 });
          expectSuccess(
            await svc.writeRecord(ws, '/addresses', h, { data: { label: 'work' } }, { serviceKey: k! }),
            'a keyed write',
          );
        }
        await ws.expectNoCallbacks(
          { predicate: (e) => payload(e).endUserHandle === h || e.endUserHandle === h },
          {
            clause: 'STATE-3',
            rule: 'host REST writes (a Setting write, a List write, a keyed write) fire no event, neither config.saved nor onComplete',
            id: 'state.rest-write-silent',
          },
        );
      },
    ),
  );
});

test.describe('statuses', () => {
  test('PUT on any data route answers 405 (DATA-5)', { tag: clauseTags('DATA-5') }, async ({ ws, svc, driver }) => {
    const h = uniqueHandle();
    expectError(
      'DATA-5',
      await svc.putRecord(ws, '/profile', h, { data: { name: 'Ada' } }),
      405,
      'PUT /{endUserHandle}',
      true,
      { id: 'data.put-405' },
    );
    if (driver.has('seed-records')) {
      const {
        serviceKeys: [k],
      } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1 });
      expectError(
        'DATA-5',
        await svc.putRecord(ws, '/addresses', h, { data: { label: 'x' } }, { serviceKey: k! }),
        405,
        'PUT /{endUserHandle}/{serviceKey}',
        true,
        { id: 'data.put-405' },
      );
    }
  });

  test(
    'a reserved org- handle in a data API path answers 400 (DATA-6)',
    { tag: clauseTags('DATA-6') },
    async ({ ws, svc }) => {
      const org = `org-${uniqueId('acme')}`;
      expectError(
        'DATA-6',
        await svc.listRecords(ws, '/profile', org),
        400,
        'GET /{endUserHandle} with an org- handle',
        true,
        { id: 'data.org-handle-400' },
      );
      expectError(
        'DATA-6',
        await svc.writeRecord(ws, '/profile', org, { data: { name: 'Ada' } }),
        400,
        'POST /{endUserHandle} with an org- handle',
        true,
        { id: 'data.org-handle-400' },
      );
      expectError(
        'DATA-6',
        await svc.getRecord(ws, '/addresses', org, uniqueId('k')),
        400,
        'GET /{endUserHandle}/{serviceKey} with an org- handle',
        true,
        { id: 'data.org-handle-400' },
      );
    },
  );

  test(
    'a malformed POST body on the write route answers 400 (DATA-7)',
    { tag: clauseTags('DATA-7') },
    async ({ ws, svc }) => {
      expectError(
        'DATA-7',
        await svc.writeRecord(ws, '/profile', uniqueHandle(), undefined, { rawBody: '{"data": {"name": "Ada"' }),
        400,
        'a write whose JSON body is cut short',
        true,
        { id: 'data.malformed-400' },
      );
      expectError(
        'DATA-7',
        await svc.writeRecord(ws, '/profile', uniqueHandle(), undefined, { rawBody: 'not json at all' }),
        400,
        'a write whose body is not JSON',
        true,
        { id: 'data.malformed-400' },
      );
    },
  );

  test(
    'GET on a Setting with no record for the endUserHandle answers 404 (DATA-8)',
    { tag: clauseTags('DATA-8') },
    async ({ ws, svc }) => {
      expectError(
        'DATA-8',
        await svc.listRecords(ws, '/profile', uniqueHandle('nobody')),
        404,
        'GET /{endUserHandle} of a Setting never written',
        false,
        { id: 'data.setting-none-404' },
      );
    },
  );

  test(
    'GET by key, or a keyed POST, for an unknown serviceKey answers 404 (DATA-9)',
    { tag: clauseTags('DATA-9') },
    async ({ ws, svc }) => {
      const h = uniqueHandle();
      expectError(
        'DATA-9',
        await svc.getRecord(ws, '/addresses', h, uniqueId('no-such-key')),
        404,
        'GET /{endUserHandle}/{serviceKey} of an unknown key',
        true,
        { id: 'data.unknown-key-404' },
      );
      expectError(
        'DATA-9',
        await svc.writeRecord(ws, '/addresses', h, { data: { label: 'x' } }, { serviceKey: uniqueId('no-such-key') }),
        404,
        'a keyed POST to an unknown key',
        true,
        { id: 'data.unknown-key-404' },
      );
    },
  );

  test(
    'a data route for a configEnd with no live config answers 404 (DATA-10)',
    { tag: clauseTags('DATA-10') },
    async ({ ws, svc }) => {
      const h = uniqueHandle();
      expectError(
        'DATA-10',
        await svc.listRecords(ws, '/no-such-endpoint', h),
        404,
        'GET /{endUserHandle} on an unknown configEnd',
        true,
        { id: 'data.unknown-configend-404' },
      );
      expectError(
        'DATA-10',
        await svc.writeRecord(ws, '/no-such-endpoint', h, { data: { a: 1 } }),
        404,
        'POST /{endUserHandle} on an unknown configEnd',
        true,
        { id: 'data.unknown-configend-404' },
      );
    },
  );

  test(
    'a record held mid-migration is withheld from list reads and answers data-route requests with 409 (DATA-11)',
    { tag: clauseTags('DATA-11') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('migration-hold', 'seed-records');
      const h = uniqueHandle();
      const {
        serviceKeys: [held, free],
      } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 2 });
      await driver.migrationHold(ws, held!, true);
      try {
        const list = await svc.listRecords(ws, '/addresses', h);
        check('DATA-11', 'a List read while one record is held answers 200', { id: 'data.held-409' }).that(
          list.status === 200,
          { expected: '200', seen: answered(list), ...hintOf(list) },
        );
        check
          .soft('DATA-11', 'the held record is withheld from the List read: only the free record is listed', {
            id: 'data.held-409',
          })
          .equals(asList(list.json).length, 1);
        expectError(
          'DATA-11',
          await svc.getRecord(ws, '/addresses', h, held!),
          409,
          'GET /{endUserHandle}/{serviceKey} of the held record',
          true,
          { id: 'data.held-409' },
        );
        expectError(
          'DATA-11',
          await svc.writeRecord(ws, '/addresses', h, { data: { label: 'moved' } }, { serviceKey: held! }),
          409,
          'a keyed POST to the held record',
          true,
          { id: 'data.held-409' },
        );
        const other = await svc.getRecord(ws, '/addresses', h, free!);
        check
          .soft('DATA-11', 'a record that is not held still reads 200 while another is held', { id: 'data.held-409' })
          .that(other.status === 200, { expected: '200', seen: answered(other), ...hintOf(other) });
      } finally {
        await driver.migrationHold(ws, held!, false);
      }
    },
  );

  test(
    'a second List record with the same identity-field value answers 409 IDENTITY_CONFLICT naming the existing key (DATA-12)',
    { tag: clauseTags('DATA-12') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const label = uniqueId('home');
      const {
        serviceKeys: [existing],
      } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: 1, fields: { label } });
      const r = await svc.writeRecord(ws, '/addresses', h, { data: { label, city: 'Lyon' } });
      check('DATA-12', 'a write giving a second record the same identity-field value answers 409', {
        id: 'data.identity-conflict',
      }).that(r.status === 409, { expected: '409', seen: answered(r), ...hintOf(r) });
      const body = (r.json ?? {}) as Record<string, unknown>;
      check
        .soft('DATA-12', 'the 409 body has code IDENTITY_CONFLICT', { id: 'data.identity-conflict' })
        .equals(body.code, 'IDENTITY_CONFLICT');
      check
        .soft('DATA-12', 'the 409 body names the identity field', { id: 'data.identity-conflict' })
        .equals(body.identityField, 'label');
      check
        .soft('DATA-12', 'the 409 body names the key of the record holding the value (existingKey)', {
          id: 'data.identity-conflict',
        })
        .equals(body.existingKey, existing);
    },
  );
});
