/**
 * The statuses of the data API (7): 405 for PUT, 400 for an org- handle or a malformed body, 404 for what does
 * not exist, 409 for a held record and an identity conflict.
 *
 * How configEnd is written in the path, the path form of a keyed write and the write body beyond the envelope are
 * not shown (UNSPEC-8, UNSPEC-9): every request is written in the forms the target declares (`dataApi`,
 * spec/data-api-forms.ts), and no check here asserts a form. Records needing a known serviceKey are created through
 * the driver's seed (a REST write's answer body is not shown either). A read or a write the rule under test needs
 * but does not judge is a precondition (areas/reads.ts).
 */
import { test } from './fixtures.ts';
import { answered, expectError, hintOf } from './areas/errors.ts';
import { asList } from '../../judge/service/envelope.ts';
import { seedAddress, uniqueHandle, uniqueId } from './areas/scenario.ts';
import { check } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { checkConflictBody, writeIdentityConflict } from './areas/identity-conflict.ts';

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
      const k = await seedAddress(driver, ws, h);
      expectError(
        'DATA-5',
        await svc.putRecord(ws, '/addresses', h, { data: { label: 'x' } }, { serviceKey: k }),
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
      const c = await writeIdentityConflict(ws, svc, driver, { city: 'Lyon' });
      check('DATA-12', 'a write giving a second record the same identity-field value answers 409', {
        id: 'data.identity-conflict',
      }).that(c.r.status === 409, { expected: '409', seen: answered(c.r), ...hintOf(c.r) });
      checkConflictBody('DATA-12', 'data.identity-conflict', 'the 409 body', c);
    },
  );
});
