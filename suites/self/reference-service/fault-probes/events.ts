/** Probes of the seeded faults of section 2 (event payloads: EVT). */
import { expect } from '@playwright/test';
import { byEvent, first, lifecycle, waitMs, type Probes, bearer, dataPath } from './helpers.ts';
import { turn, restWrite, read, completedThenReopened, json, seedAndBulk } from './steps.ts';

export const EVENTS_PROBES = {
  'lifecycle-body-array': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      expect(Array.isArray((await first(s, 'onSessionTimeout')).json)).toBe(true);
    },
  },
  'oncomplete-inline-data': {
    run: async (s) => {
      await lifecycle(s);
      expect((byEvent(s, 'onComplete')[0]!.json as any).data).toBeDefined();
    },
  },
  'bulk-extra-member': {
    run: async (s) => {
      await seedAndBulk(s, 1);
      expect(json(await first(s, 'config.bulk_deleted'))).toHaveProperty('scope', '/contacts');
    },
  },
  'eventtype-instead-of-event': {
    run: async (s) => {
      await s.open();
      const b = (await first(s, 'onStart')).json as any;
      expect(b.eventType).toBe('onStart');
      expect(b.event).toBeUndefined();
    },
  },
  'interrupted-without-timestamp': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      expect(json(await first(s, 'onSessionInterrupted'))).not.toHaveProperty('timestamp');
    },
  },
  'onstart-without-servicekeys': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).json).not.toHaveProperty('serviceKeys');
    },
  },
  'oncomplete-first-key-only': {
    run: async (s) => {
      const { keys } = await lifecycle(s);
      expect(keys).toHaveLength(2);
      expect((byEvent(s, 'onComplete')[0]!.json as any).serviceKeys).toEqual([keys[0]]);
    },
  },
  'oncomplete-lists-deleted-keys': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }, { fields: { email: 'b@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      expect((await first(s, 'onComplete')).json).toMatchObject({ serviceKeys: t.json.serviceKeys });
    },
  },
  'touched-list-keeps-chat-deleted': {
    run: async (s) => {
      const saves = [{ fields: { email: 'a@x.io' } }, { fields: { email: 'b@x.io' } }];
      const id = await s.open('u-1', '/contacts');
      const [gone, kept] = (await turn(s, id, saves)).json.serviceKeys;
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: gone });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      expect(json(await first(s, 'onComplete')).serviceKeys).toEqual([kept, gone]);
      // Keys the completion names are sent as named.
      const id2 = await s.open('u-1', '/contacts');
      const [gone2, kept2] = (await turn(s, id2, saves)).json.serviceKeys;
      await s.driver('POST', `/conversations/${id2}/delete`, { serviceKey: gone2 });
      await s.driver('POST', `/conversations/${id2}/complete`, { serviceKeys: [kept2] });
      expect(json(await first(s, 'onComplete', 2)).serviceKeys).toEqual([kept2]);
    },
  },
  'session-events-carry-touched-keys': {
    run: async (s) => {
      const id = await s.open();
      const keys = (await turn(s, id, [{ fields: { email: 'a@x.io' } }])).json.serviceKeys;
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      expect(json(await first(s, 'onSessionInterrupted')).serviceKeys).toEqual(keys);
      const id2 = await s.open();
      await turn(s, id2, [{ fields: { name: 'A' } }]);
      await s.driver('POST', `/conversations/${id2}/idle-sweep`, {});
      expect(json(await first(s, 'onSessionTimeout')).serviceKeys).toEqual(keys);
      expect(json(await first(s, 'onStart', 2)).serviceKeys).toEqual([]);
    },
  },
  'oncomplete-without-path': {
    run: async (s) => {
      await lifecycle(s);
      expect(byEvent(s, 'onComplete')[0]!.json).not.toHaveProperty('path');
    },
  },
  'changed-fields-with-values': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 3 } }]);
      expect(json(await first(s, 'config.saved')).changedFields).toEqual(['age=3']);
    },
  },
  'saved-status-lowercase': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 3 } }]);
      expect(json(await first(s, 'config.saved')).callbackStatus).toBe('pending');
    },
  },
  'deleted-with-servicekeys': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      expect(json(await first(s, 'config.deleted')).serviceKeys).toEqual(t.json.serviceKeys);
    },
  },
  'bulk-count-string': {
    run: async (s) => {
      await seedAndBulk(s, 2);
      expect(json(await first(s, 'config.bulk_deleted')).count).toBe('2');
    },
  },
  'bulk-deleted-org-handle': {
    run: async (s) => {
      await seedAndBulk(s, 1);
      expect(json(await first(s, 'config.bulk_deleted')).endUserHandle).toBe(`org-${s.ws.workspaceKey}`);
    },
  },
  'configend-without-slash': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).json).toMatchObject({ configEnd: 'profile' });
    },
  },
  'conversation-id-string': {
    run: async (s) => {
      await s.open();
      expect(typeof ((await first(s, 'onStart')).json as any).conversationId).toBe('string');
    },
  },
  'timestamp-with-zone': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).json).toMatchObject({ timestamp: expect.stringMatching(/Z$/) });
    },
  },
  'timestamp-no-millis': {
    run: async (s) => {
      await s.open();
      expect(json(await first(s, 'onStart')).timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    },
  },
  'timestamp-local-time': {
    run: async (s) => {
      await s.open();
      expect(Date.parse(`${json(await first(s, 'onStart')).timestamp}Z`) - Date.now()).toBeGreaterThan(3_500_000);
    },
  },
  'timeout-event-misspelled': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      expect(json(await first(s, 'onSessionTimedOut')).event).toBe('onSessionTimedOut');
    },
  },
  'onstart-first-conversation-only': {
    run: async (s) => {
      const a = await s.open();
      await s.driver('POST', `/conversations/${a}/interrupt`, {});
      await s.open();
      await first(s, 'onSessionInterrupted');
      await waitMs(300);
      expect(byEvent(s, 'onStart')).toHaveLength(1);
    },
  },
  'delivered-edit-saved-per-field': {
    run: async (s) => {
      const { key, c2 } = await completedThenReopened(s);
      await turn(s, c2, [{ serviceKey: key, fields: { name: 'A', email: 'b@x.io' } }]);
      await first(s, 'config.saved', 3);
      expect(
        byEvent(s, 'config.saved')
          .slice(1)
          .map((r) => (r.json as { changedFields: string[] }).changedFields),
      ).toEqual([['name'], ['email']]);
    },
  },
  'saved-per-field': {
    run: async (s) => {
      await lifecycle(s);
      expect(byEvent(s, 'config.saved')).toHaveLength(3);
    },
  },
  'turn-status-of-first-instance': {
    run: async (s) => {
      const { key, c2 } = await completedThenReopened(s);
      await turn(s, c2, [{ fields: { email: 'b@x.io' } }, { serviceKey: key, fields: { name: 'A' } }]);
      await first(s, 'config.saved', 3);
      expect(
        byEvent(s, 'config.saved')
          .map((r) => r.json)
          .find(
            (p) =>
              (p as { serviceKey: string }).serviceKey === key &&
              (p as { conversationId: number }).conversationId === c2,
          ),
      ).toMatchObject({ callbackStatus: 'PENDING' });
    },
  },
  'saved-status-pending-after-complete': {
    run: async (s) => {
      const id = await s.open();
      const t = await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { age: 1 } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await s.driver('POST', `/conversations/${id}/turns`, {
        saves: [{ serviceKey: t.json.serviceKeys[0], fields: { age: 2 } }],
      });
      expect(((await first(s, 'config.saved', 2)).json as any).callbackStatus).toBe('PENDING');
      expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.callbackStatus).toBe(
        'DELIVERED',
      );
    },
  },
  'complete-when-all-fields-saved': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      await turn(s, id, [{ fields: { email: 'a@x.io', name: 'A' } }]);
      await first(s, 'onComplete');
    },
  },
  'interrupt-silent-without-drafts': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      await first(s, 'onStart');
      await s.host.expectNone(
        (r) => r.headers['x-service-event'] === 'onSessionInterrupted',
        300,
        'onSessionInterrupted',
      );
    },
  },
  'sweep-silent-without-drafts': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      await first(s, 'onStart');
      await s.host.expectNone((r) => r.headers['x-service-event'] === 'onSessionTimeout', 300, 'onSessionTimeout');
    },
  },
  'chat-delete-rest-record-silent': {
    run: async (s) => {
      const w = await restWrite(s, 'contacts/data/u-1', { email: 'a@x.io' });
      const id = await s.open('u-1', '/contacts');
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: w.json.serviceKey });
      expect((await read(s, `contacts/data/u-1/${w.json.serviceKey}`)).status).toBe(404);
      await s.host.expectNone((r) => r.headers['x-service-event'] === 'config.deleted', 500, 'config.deleted');
    },
  },
  'deleted-names-creating-conversation': {
    run: async (s) => {
      const c1 = await s.open('u-1', '/contacts');
      const t = await turn(s, c1, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${c1}/interrupt`, {});
      const c2 = await s.open('u-1', '/contacts');
      await s.driver('POST', `/conversations/${c2}/delete`, { serviceKey: t.json.serviceKeys[0] });
      const e = await first(s, 'config.deleted');
      expect(e.json).toMatchObject({ conversationId: c1 });
      expect(e.headers['x-service-delivery-id']).toBe(`lc-${c1}-config.deleted`);
    },
  },
  'deleted-before-removal': {
    run: async (s) => {
      s.host.script = (r) => (r.headers['x-service-event'] === 'config.deleted' ? { hang: true } : { status: 200 });
      const id = await s.open('u-1', '/contacts');
      const t = await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      await first(s, 'config.deleted');
      expect(
        (await s.api('GET', dataPath(s, `contacts/data/u-1/${t.json.serviceKeys[0]}`), undefined, bearer(s))).status,
      ).toBe(200);
    },
  },
  'bulk-deleted-only-per-key': {
    run: async (s) => {
      await seedAndBulk(s, 2);
      await first(s, 'config.deleted', 2);
      expect(byEvent(s, 'config.bulk_deleted')).toHaveLength(0);
    },
  },
} satisfies Probes;
