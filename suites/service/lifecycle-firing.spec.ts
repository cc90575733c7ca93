/**
 * When each conversation event fires (6): onStart, config.saved per touched instance, onComplete only on done,
 * onSessionInterrupted and onSessionTimeout.
 * Each test drives one transition through the driver and waits for its event at the mock host.
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, payload } from '../../judge/service/journal.ts';
import { isEvent, uniqueHandle, waitEvent } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

/**
 * Whether a payload names this conversation. The type of conversationId is EVT-13's rule, so a
 * string id naming the same conversation still names it here.
 */
function namesConversation(e: JournalEntry, conversationId: number): boolean {
  return String(payload(e).conversationId) === String(conversationId);
}

test(
  'onStart fires when a fresh conversation opens for an end user (EVT-16)',
  { tag: clauseTags('EVT-16') },
  async ({ ws, driver }) => {
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
    const [e] = await waitEvent(ws, 'onStart', endUserHandle, 1, undefined, {
      clause: 'EVT-16',
      rule: 'onStart fires when a fresh conversation opens for an end user',
    });
    check('EVT-16', 'onStart names the conversation that opened').that(namesConversation(e!, c.conversationId), {
      expected: `conversationId ${c.conversationId}`,
      seen: describe(e!),
    });
  },
);

waiting(() =>
  test(
    'config.saved fires once per touched instance per turn, coalescing saves to one instance (EVT-17)',
    { tag: clauseTags('EVT-17') },
    async ({ ws, driver }) => {
      const endUserHandle = uniqueHandle();
      const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
      const { serviceKeys } = await driver.turn(c.conversationId, [
        { configEnd: '/profile', fields: { name: 'Ada' } },
        { configEnd: '/profile', fields: { email: 'ada@example.test' } },
        { configEnd: '/addresses', fields: { label: 'home', city: 'Paris' } },
      ]);
      const profileKey = serviceKeys[0]!;
      const addressKey = serviceKeys[2]!;
      precondition(serviceKeys[1] === profileKey, 'two saves to the Setting address its one record', {
        expected: show(profileKey),
        seen: show(serviceKeys[1]),
      });
      // Two touched instances: two config.saved; the count is judged per instance below.
      const got = await waitEvent(ws, 'config.saved', endUserHandle, 2, undefined, { lenient: true });
      const all = got.map(describe).join(' | ') || 'none';
      const profile = got.filter((e) => payload(e).serviceKey === profileKey);
      check
        .soft('EVT-17', 'two saves to one instance in a turn fire one config.saved for it', {
          id: 'state.saved-once-per-instance',
        })
        .that(profile.length === 1, {
          expected: `1 config.saved with serviceKey ${show(profileKey)}`,
          seen: `${profile.length}: ${all}`,
        });
      check
        .soft('EVT-17', 'one save to a List instance in the same turn fires one config.saved for it', {
          id: 'state.saved-once-per-instance',
        })
        .that(got.filter((e) => payload(e).serviceKey === addressKey).length === 1, {
          expected: `1 config.saved with serviceKey ${show(addressKey)}`,
          seen: all,
        });
      if (profile.length > 0) {
        const changed = payload(profile[0]!).changedFields;
        const names = Array.isArray(changed) ? changed : [];
        check
          .soft('EVT-17', "the coalesced config.saved names the union of the turn's fields", {
            id: 'state.saved-once-per-instance',
          })
          .that(names.includes('name') && names.includes('email'), {
            expected: 'changedFields with name and email',
            seen: `changedFields ${show(changed)} in ${describe(profile[0]!)}`,
          });
      }
      const seen = new Set(got.map((e) => e.seq));
      await ws.expectNoCallbacks(
        { predicate: (e) => isEvent('config.saved', endUserHandle)(e) && !seen.has(e.seq) },
        { clause: 'EVT-17', id: 'state.saved-once-per-instance', rule: 'the turn fires no further config.saved' },
      );
    },
  ),
);

test(
  'config.saved carries callbackStatus DELIVERED for an edit of a completed record (EVT-18)',
  { tag: clauseTags('EVT-18') },
  async ({ ws, driver }) => {
    const endUserHandle = uniqueHandle();
    const c1 = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
    const {
      serviceKeys: [key],
    } = await driver.turn(c1.conversationId, [{ fields: { name: 'Ada' } }]);
    const [first] = await waitEvent(ws, 'config.saved', endUserHandle);
    check
      .soft('EVT-18', 'config.saved of a draft carries callbackStatus PENDING', { id: 'state.saved-status-at-save' })
      .that(payload(first!).callbackStatus === 'PENDING', {
        expected: 'PENDING',
        seen: `callbackStatus ${show(payload(first!).callbackStatus)} in ${describe(first!)}`,
      });
    await driver.complete(c1.conversationId);
    await waitEvent(ws, 'onComplete', endUserHandle);
    const c2 = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
    await driver.turn(c2.conversationId, [{ serviceKey: key!, fields: { email: 'ada@example.test' } }]);
    const saved = await waitEvent(ws, 'config.saved', endUserHandle, 2);
    const edit = saved.find((e) => namesConversation(e, c2.conversationId));
    precondition(edit !== undefined, 'the config.saved of the edit arrived', {
      expected: `a config.saved of conversation ${c2.conversationId}`,
      seen: saved.map(describe).join(' | '),
    });
    check('EVT-18', 'config.saved of an edit of a completed record carries callbackStatus DELIVERED', {
      id: 'state.saved-status-at-save',
    }).that(payload(edit!).callbackStatus === 'DELIVERED', {
      expected: 'DELIVERED',
      seen: `callbackStatus ${show(payload(edit!).callbackStatus)} in ${describe(edit!)}`,
    });
  },
);

waiting(() =>
  test(
    'a turn that fills every field fires no onComplete: only the user saying done does (EVT-19)',
    { tag: clauseTags('EVT-19') },
    async ({ ws, driver }) => {
      const endUserHandle = uniqueHandle();
      const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
      await driver.turn(c.conversationId, [
        { fields: { name: 'Ada', email: 'ada@example.test', age: 36, newsletter: true } },
      ]);
      await waitEvent(ws, 'config.saved', endUserHandle);
      await ws.expectNoCallbacks(
        { predicate: isEvent('onComplete', endUserHandle) },
        {
          clause: 'EVT-19',
          id: 'state.no-oncomplete-unless-done',
          rule: 'a turn that fills every field of the class fires no onComplete',
        },
      );
    },
  ),
);

test(
  'onSessionInterrupted fires when a conversation closes without completing (EVT-20)',
  { tag: clauseTags('EVT-20') },
  async ({ ws, driver }) => {
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
    await driver.interrupt(c.conversationId);
    const [e] = await waitEvent(ws, 'onSessionInterrupted', endUserHandle, 1, undefined, {
      clause: 'EVT-20',
      id: 'state.interrupted-fires',
      rule: 'onSessionInterrupted fires when a conversation closes without completing',
    });
    check('EVT-20', 'onSessionInterrupted names the conversation that closed', { id: 'state.interrupted-fires' }).that(
      namesConversation(e!, c.conversationId),
      { expected: `conversationId ${c.conversationId}`, seen: describe(e!) },
    );
  },
);

test(
  'onSessionTimeout fires when a conversation is swept after the idle TTL (EVT-21)',
  { tag: clauseTags('EVT-21') },
  async ({ ws, driver }) => {
    driver.requireCapability('idle-sweep');
    const endUserHandle = uniqueHandle();
    const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
    await driver.idleSweep(c.conversationId);
    const [e] = await waitEvent(ws, 'onSessionTimeout', endUserHandle, 1, undefined, {
      clause: 'EVT-21',
      id: 'state.timeout-fires',
      rule: 'onSessionTimeout fires when a conversation is swept after the idle TTL',
    });
    check('EVT-21', 'onSessionTimeout names the conversation that was swept', { id: 'state.timeout-fires' }).that(
      namesConversation(e!, c.conversationId),
      { expected: `conversationId ${c.conversationId}`, seen: describe(e!) },
    );
  },
);
