/**
 * Records that do not bind (2.3): a field that could not be populated reads null with its reason, a 200 read
 * carries field problems in errors and warnings, and a List read never drops such a record.
 *
 * How configEnd is written in the path, the path form of a keyed write and the write body beyond the envelope are
 * not shown (UNSPEC-8, UNSPEC-9): every request is written in the forms the target declares (`dataApi`,
 * spec/data-api-forms.ts), and no check here asserts a form. Records needing a known serviceKey are created through
 * the driver's seed (a REST write's answer body is not shown either). A read or a write the rule under test needs
 * but does not judge is a precondition (areas/reads.ts).
 */
import { test } from './fixtures.ts';
import { answered, hintOf } from './areas/errors.ts';
import { asEnvelope, asList } from '../../judge/service/envelope.ts';
import { seedAddress, uniqueHandle } from './areas/scenario.ts';
import { check, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { readOk } from './areas/reads.ts';

test.describe('records that do not bind', () => {
  test(
    'a field that could not be populated reads null, with its reason in errors (ENV-2)',
    { tag: clauseTags('ENV-2') },
    async ({ ws, svc, driver }) => {
      driver.requireCapability('seed-records');
      const h = uniqueHandle();
      const k = await seedAddress(driver, ws, h, { label: 'odd', city: 42 });
      const env = readOk(
        await svc.getRecord(ws, '/addresses', h, k),
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
      const k = await seedAddress(driver, ws, h, { label: 'odd', city: 42, unknownField: 'x' });
      const r = await svc.getRecord(ws, '/addresses', h, k);
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
      await seedAddress(driver, ws, h, { label: 'fine', city: 'Paris' });
      await seedAddress(driver, ws, h, { label: 'odd', city: 42 });
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
