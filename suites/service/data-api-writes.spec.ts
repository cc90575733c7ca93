/**
 * Host REST writes (3, 7): a keyed write, one record per Setting, many per List, a written record PENDING and
 * silent.
 *
 * How configEnd is written in the path, the path form of a keyed write and the write body beyond the envelope are
 * not shown (UNSPEC-8, UNSPEC-9): every request is written in the forms the target declares (`dataApi`,
 * spec/data-api-forms.ts), and no check here asserts a form. Records needing a known serviceKey are created through
 * the driver's seed (a REST write's answer body is not shown either). A read or a write the rule under test needs
 * but does not judge is a precondition (areas/reads.ts).
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import { expectSuccess } from './areas/errors.ts';
import { asList } from '../../judge/service/envelope.ts';
import { seedAddress, uniqueHandle, uniqueId } from './areas/scenario.ts';
import { payload } from '../../judge/service/journal.ts';
import { check, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { readOk } from './areas/reads.ts';

test.describe('writes', () => {
  test(
    'a keyed POST addresses an existing record by serviceKey (DATA-4)',
    { tag: clauseTags('DATA-4') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const k = await seedAddress(driver, ws, h, { label: 'home', city: 'Paris' });
      expectSuccess(
        await svc.writeRecord(ws, '/addresses', h, { data: { label: 'home', city: 'Lyon' } }, { serviceKey: k }),
        'the keyed write',
        'DATA-4',
        { id: 'data.keyed-write' },
      );
      const byKey = await svc.getRecord(ws, '/addresses', h, k);
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
          const k = await seedAddress(driver, ws, h);
          expectSuccess(
            await svc.writeRecord(ws, '/addresses', h, { data: { label: 'work' } }, { serviceKey: k }),
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
