/**
 * Record states and transitions (3), when each event fires (6) and where callbacks go (4.1):
 * each test drives one transition through the driver and reads the result over the data API.
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import { assertNothingArrives, waitForEntries } from '../../mock-host/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, header, payload } from './areas/journal.ts';
import { eventOf, isEvent, saveAndComplete, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { answered, expectError, expectSuccess } from './areas/errors.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

function envelopeOf(json: unknown): Record<string, unknown> {
  return (json && typeof json === 'object' && !Array.isArray(json) ? json : {}) as Record<string, unknown>;
}

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
    // What the manifest holds is PAGE-5's rule (and its shape EVT-10's): here it is what the per-key events are compared with.
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
      envelopeOf(read.json).callbackStatus === 'PENDING',
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
      envelopeOf(read.json).callbackStatus === 'DELIVERED',
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
    }).that(envelopeOf(read.json).callbackStatus === 'DELIVERED', { expected: 'DELIVERED', seen: answered(read) });
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
    }).that(envelopeOf(read.json).callbackStatus === 'DELIVERED', { expected: 'DELIVERED', seen: answered(read) });
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

test(
  'a sandbox delivers to the same hookPath as its production parent (HOOK-2)',
  { tag: clauseTags('HOOK-2') },
  async ({ ws, makeWorkspace, driver, host, timing }) => {
    driver.requireCapability('sandbox');
    const sb = await makeWorkspace({ parent: ws });
    precondition(sb.workspaceKey.startsWith('sb-'), 'a sandbox key has the sb- prefix', {
      expected: 'sb-…',
      seen: sb.workspaceKey,
    });
    const endUserHandle = uniqueHandle();
    await driver.open(sb, { endUserHandle, configEnd: '/profile' });
    // Watch the whole mock host: a sandbox posting to any other path is seen, not missed. That
    // anything arrives at all is the inherited hostBaseUrl's doing (HOOK-3), a precondition here.
    const v = await waitForEntries(
      host.journal,
      { predicate: (x) => x.kind !== 'facts' && payload(x).endUserHandle === endUserHandle },
      { count: 1, deadlineMs: timing.deliveryDeadlineMs() },
    );
    precondition(v.ok, "a callback of the sandbox's conversation reaches the mock host", {
      expected: 'one callback',
      seen: v.sentence,
    });
    const e = v.entries[0]!;
    check('HOOK-2', "a sandbox delivers to its production parent's hookPath", { id: 'hook.sandbox-same-path' }).that(
      e.path === ws.hookPath,
      { expected: `path ${show(ws.hookPath)}`, seen: `path ${show(e.path)}: ${describe(e)}` },
    );
    precondition(payload(e).workspaceKey === sb.workspaceKey, "the event is the sandbox's", {
      expected: `workspaceKey ${sb.workspaceKey}`,
      seen: describe(e),
    });
  },
);

test(
  "a sandbox without its own hostBaseUrl inherits its production parent's (HOOK-3)",
  { tag: clauseTags('HOOK-3') },
  async ({ ws, makeWorkspace, driver, host, timing }) => {
    driver.requireCapability('sandbox');
    const sb = await makeWorkspace({ parent: ws, hostBaseUrl: null });
    const endUserHandle = uniqueHandle();
    await driver.open(sb, { endUserHandle, configEnd: '/profile' });
    // The parent's hostBaseUrl is this mock host: an onStart of the sandbox's user arriving here proves the inheritance.
    const v = await waitForEntries(
      host.journal,
      {
        predicate: (x) => x.kind !== 'facts' && eventOf(x) === 'onStart' && payload(x).endUserHandle === endUserHandle,
      },
      { count: 1, deadlineMs: timing.deliveryDeadlineMs() },
    );
    check('HOOK-3', "the onStart of a sandbox without its own hostBaseUrl reaches its parent's hostBaseUrl", {
      id: 'hook.sandbox-inherits-host',
    }).that(v.ok, { expected: "one onStart at the parent's hostBaseUrl", seen: v.sentence });
    precondition(payload(v.entries[0]!).workspaceKey === sb.workspaceKey, "the event is the sandbox's", {
      expected: `workspaceKey ${sb.workspaceKey}`,
      seen: describe(v.entries[0]!),
    });
  },
);

waiting(() =>
  test(
    'with hookPath or hostBaseUrl missing, events are skipped and values stay readable over the data API (HOOK-4)',
    { tag: clauseTags('HOOK-4') },
    async ({ makeWorkspace, driver, svc, host, timing, evidence }) => {
      // Both cases share one quiet window (grouped: the same window).
      const cases = await Promise.all(
        (['hookPath', 'hostBaseUrl'] as const).map(async (missing) => ({
          missing,
          ws: await makeWorkspace(
            missing === 'hookPath' ? { hookPath: null, facts: false } : { hostBaseUrl: null, facts: false },
          ),
          endUserHandle: uniqueHandle(`no-${missing}`),
        })),
      );
      const ofCase = (c: (typeof cases)[number]) => (e: JournalEntry) =>
        e.method === 'POST' &&
        (payload(e).workspaceKey === c.ws.workspaceKey || payload(e).endUserHandle === c.endUserHandle);
      const ofThese = (e: JournalEntry) => cases.some((c) => ofCase(c)(e));
      for (const c of cases) {
        const conv = await driver.open(c.ws, { endUserHandle: c.endUserHandle, configEnd: '/profile' });
        await driver.turn(conv.conversationId, [{ fields: { name: 'Ada' } }]);
        await driver.complete(conv.conversationId);
      }
      const quiet = await assertNothingArrives(
        host.journal,
        { predicate: ofThese },
        { windowMs: timing.quietWindowMs() },
      );
      evidence.add({ sentence: quiet.sentence, seqs: quiet.evidence.seqs });
      check
        .soft('HOOK-4', 'with hookPath or hostBaseUrl missing, no event is sent during the quiet window', {
          id: 'hook.skipped-when-missing',
        })
        .that(quiet.ok, { expected: 'none', seen: quiet.sentence });
      for (const c of cases) {
        // Every event of the case, also those sent before the window started.
        const sent = host.journal.entries({ predicate: ofCase(c) });
        check
          .soft('HOOK-4', `with ${c.missing} missing, events are skipped`, { id: 'hook.skipped-when-missing' })
          .that(sent.length === 0, { expected: 'no request', seen: sent.map(describe).join(' | ') });
      }
      for (const c of cases) {
        const read = await svc.listRecords(c.ws, '/profile', c.endUserHandle);
        expectSuccess(read, `a GET of the saved record with ${c.missing} missing`, 'HOOK-4', {
          id: 'hook.values-readable',
        });
        const name = (envelopeOf(read.json).data as Record<string, unknown> | null)?.name;
        check
          .soft('HOOK-4', `with ${c.missing} missing, the saved value stays readable over the data API`, {
            id: 'hook.values-readable',
          })
          .that(name === 'Ada', { expected: 'data.name "Ada"', seen: answered(read) });
      }
    },
  ),
);
