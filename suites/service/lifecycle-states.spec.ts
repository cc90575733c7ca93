/**
 * Record states and transitions (3): PENDING on a chat save, DELIVERED on completion and after, no readiness check,
 * and a new delivery id for each later completion.
 * Each test drives one transition through the driver and reads the result over the data API.
 */
import { test } from './fixtures.ts';
import { describe, header, payload } from '../../judge/service/journal.ts';
import { saveAndComplete, uniqueHandle, waitEvent } from './areas/scenario.ts';
import { answered, expectSuccess } from './areas/errors.ts';
import { check, show } from '../shared/index.ts';
import { asEnvelope } from '../../judge/service/envelope.ts';
import { clauseTags } from '../../spec/index.ts';

test(
  'a chat save creates the record as PENDING (STATE-1)',
  { tag: clauseTags('STATE-1') },
  async ({ ws, driver, svc }) => {
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    const {
      serviceKeys: [key],
    } = await driver.turn(c.conversationId, [{ fields: { label: 'home', city: 'Paris' } }]);
    const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
    expectSuccess(read, 'a GET by key of a chat-saved record');
    check('STATE-1', 'a record saved through the chat reads callbackStatus PENDING').that(
      asEnvelope(read.json).callbackStatus === 'PENDING',
      { expected: 'PENDING', seen: answered(read) },
    );
  },
);

test(
  'completion moves the record to DELIVERED and fires onComplete with its key (STATE-4)',
  { tag: clauseTags('STATE-4') },
  async ({ ws, driver, svc }) => {
    const endUserHandle = uniqueHandle();
    const { key, onComplete: e } = await saveAndComplete(
      ws,
      driver,
      { endUserHandle, configEnd: '/addresses', fields: { label: 'home' } },
      { clause: 'STATE-4', id: 'state.complete-delivered', rule: 'completion fires onComplete' },
    );
    const keys = payload(e).serviceKeys;
    check
      .soft('STATE-4', "the onComplete of a completion names the completed record's key", {
        id: 'state.complete-delivered',
      })
      .that(Array.isArray(keys) && keys.includes(key), {
        expected: `serviceKeys with ${show(key)}`,
        seen: describe(e),
      });
    const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
    expectSuccess(read, 'a GET by key of the completed record');
    check('STATE-4', 'a completed record reads callbackStatus DELIVERED', { id: 'state.complete-delivered' }).that(
      asEnvelope(read.json).callbackStatus === 'DELIVERED',
      { expected: 'DELIVERED', seen: answered(read) },
    );
  },
);

test(
  'a record missing a required field still delivers: no readiness check (STATE-5)',
  { tag: clauseTags('STATE-5') },
  async ({ makeWorkspace, driver, svc }) => {
    const ws = await makeWorkspace({
      classes: [
        {
          configEnd: '/ticket',
          kind: 'SETTING',
          fields: [
            { name: 'subject', type: 'string', required: true },
            { name: 'note', type: 'string' },
          ],
        },
      ],
      facts: false,
    });
    const endUserHandle = uniqueHandle();
    // STATE-5: the completion of a record missing its required field fires onComplete all the same.
    const { key, onComplete: e } = await saveAndComplete(
      ws,
      driver,
      { endUserHandle, configEnd: '/ticket', fields: { note: 'no subject given' } },
      {
        clause: 'STATE-5',
        id: 'state.no-readiness-check',
        rule: 'the completion of a record missing a required field fires onComplete all the same',
      },
    );
    const keys = payload(e).serviceKeys;
    check
      .soft('STATE-5', 'the onComplete of a record missing a required field names its key', {
        id: 'state.no-readiness-check',
      })
      .that(Array.isArray(keys) && keys.includes(key), {
        expected: `serviceKeys with ${show(key)}`,
        seen: describe(e),
      });
    const read = await svc.listRecords(ws, '/ticket', endUserHandle);
    expectSuccess(read, "a GET of the user's Setting record");
    check('STATE-5', 'a completed record missing a required field reads callbackStatus DELIVERED', {
      id: 'state.no-readiness-check',
    }).that(asEnvelope(read.json).callbackStatus === 'DELIVERED', { expected: 'DELIVERED', seen: answered(read) });
  },
);

test(
  'a chat save on a DELIVERED record keeps it DELIVERED (STATE-6)',
  { tag: clauseTags('STATE-6') },
  async ({ ws, driver, svc }) => {
    const endUserHandle = uniqueHandle();
    const { key } = await saveAndComplete(ws, driver, {
      endUserHandle,
      configEnd: '/addresses',
      fields: { label: 'home' },
    });
    const c2 = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    await driver.turn(c2.conversationId, [{ serviceKey: key!, fields: { city: 'Lyon' } }]);
    await waitEvent(ws, 'config.saved', endUserHandle, 2);
    const read = await svc.getRecord(ws, '/addresses', endUserHandle, key!);
    expectSuccess(read, 'a GET by key of the edited record');
    check('STATE-6', 'a DELIVERED record edited through the chat still reads callbackStatus DELIVERED', {
      id: 'state.edit-keeps-delivered',
    }).that(asEnvelope(read.json).callbackStatus === 'DELIVERED', { expected: 'DELIVERED', seen: answered(read) });
  },
);

test(
  'a later edit and completion fires another onComplete with a new delivery id for the same key (DELIV-13)',
  { tag: clauseTags('DELIV-13') },
  async ({ ws, driver }) => {
    const endUserHandle = uniqueHandle();
    const { key } = await saveAndComplete(ws, driver, {
      endUserHandle,
      configEnd: '/addresses',
      fields: { label: 'home' },
    });
    const c2 = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
    await driver.turn(c2.conversationId, [{ serviceKey: key!, fields: { city: 'Lyon' } }]);
    await driver.complete(c2.conversationId, { serviceKeys: [key!] });
    const both = await waitEvent(ws, 'onComplete', endUserHandle, 2, undefined, {
      clause: 'DELIV-13',
      id: 'delivery.repeat-complete-new-id',
      rule: 'an edit and completion of the same key in a later conversation fires another onComplete',
    });
    const [first, second] = both;
    const keys = payload(second!).serviceKeys;
    check
      .soft('DELIV-13', 'the second onComplete names the same key', { id: 'delivery.repeat-complete-new-id' })
      .that(Array.isArray(keys) && keys.includes(key), {
        expected: `serviceKeys with ${show(key)}`,
        seen: describe(second!),
      });
    const id1 = header(first!, 'x-service-delivery-id');
    const id2 = header(second!, 'x-service-delivery-id');
    check
      .soft('DELIV-13', 'the second onComplete carries a new delivery id', { id: 'delivery.repeat-complete-new-id' })
      .that(id2 !== id1, { expected: `a delivery id other than ${show(id1)}`, seen: show(id2) });
  },
);
