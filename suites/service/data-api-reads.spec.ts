/**
 * Reads of the data API (4.2, 7): a Setting, a List, a record by key, each in the stored record envelope (2.3)
 *
 * How configEnd is written in the path, the path form of a keyed write and the write body beyond the envelope are
 * not shown (UNSPEC-8, UNSPEC-9): every request is written in the forms the target declares (`dataApi`,
 * spec/data-api-forms.ts), and no check here asserts a form. Records needing a known serviceKey are created through
 * the driver's seed (a REST write's answer body is not shown either). A read or a write the rule under test needs
 * but does not judge is a precondition (areas/reads.ts).
 */
import { test } from './fixtures.ts';
import type { ServiceResponse } from './fixtures.ts';
import { expectSuccess } from './areas/errors.ts';
import { asEnvelope, asList, envelopeProblems } from '../../judge/service/envelope.ts';
import { seedAddress, uniqueHandle, uniqueId } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { expectRead, readOk } from './areas/reads.ts';

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
        const k = await seedAddress(driver, ws, h);
        reads.push(['a read by key', await svc.getRecord(ws, '/addresses', h, k)]);
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
