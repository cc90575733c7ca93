/** Probes of the faults that break a rule only where two features meet (found by the stateful suite). */
import { expect } from '@playwright/test';
import { bearer, byEvent, dataPath, first, type Probes } from './helpers.ts';
import type { Stage } from '../host.ts';

const turn = (s: Stage, id: number, saves: unknown[]) => s.driver('POST', `/conversations/${id}/turns`, { saves });
const restWrite = (s: Stage, tail: string, data: object) => s.api('POST', dataPath(s, tail), { data }, bearer(s));
const read = (s: Stage, tail: string) => s.api('GET', dataPath(s, tail), undefined, bearer(s));
const hold = (s: Stage, key: string, held: boolean) =>
  s.driver('POST', `/workspaces/${s.ws.workspaceKey}/records/${key}/migration-hold`, { held });

/** A completed /contacts record of u-1 (conversation 1), and a second conversation opened on /contacts. */
async function completedThenReopened(s: Stage): Promise<{ key: string; c2: number }> {
  const c1 = await s.open('u-1', '/contacts');
  const t = await turn(s, c1, [{ fields: { email: 'a@x.io' } }]);
  await s.driver('POST', `/conversations/${c1}/complete`, {});
  await first(s, 'onComplete');
  return { key: t.json.serviceKeys[0], c2: await s.open('u-1', '/contacts') };
}

export const COMBINATION_PROBES = {
  'oncomplete-lists-deleted-keys': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }, { fields: { email: 'b@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      expect((await first(s, 'onComplete')).json).toMatchObject({ serviceKeys: t.json.serviceKeys });
    },
  },
  'scope-delete-this-conversation-only': {
    run: async (s) => {
      const w = await restWrite(s, 'contacts/data/u-1', { email: 'a@x.io' });
      const id = await s.open('u-1', '/contacts');
      await s.driver('POST', `/conversations/${id}/bulk-delete`, { configEnd: '/contacts' });
      expect((await first(s, 'config.bulk_deleted')).json).toMatchObject({ keys: [w.json.serviceKey] });
      expect((await read(s, `contacts/data/u-1/${w.json.serviceKey}`)).status).toBe(200);
    },
  },
  'unkeyed-write-skips-held-setting': {
    run: async (s) => {
      const w = await restWrite(s, 'profile/data/u-1', { email: 'a@x.io' });
      await hold(s, w.json.serviceKey, true);
      expect((await restWrite(s, 'profile/data/u-1', { email: 'b@x.io' })).status).toBe(200);
    },
  },
  'list-drops-closed-drafts': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      expect((await read(s, 'contacts/data/u-1')).json).toEqual([]);
    },
  },
  'cross-endpoint-edit-resets-pending': {
    run: async (s) => {
      const { key, c2 } = await completedThenReopened(s);
      await s.driver('POST', `/conversations/${c2}/interrupt`, {});
      const p = await s.open('u-1', '/profile');
      await turn(s, p, [{ configEnd: '/contacts', serviceKey: key, fields: { name: 'A' } }]);
      expect((await read(s, `contacts/data/u-1/${key}`)).json.callbackStatus).toBe('PENDING');
    },
  },
  'sweep-finalizes-drafts': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      expect((await read(s, 'profile/data/u-1')).json.callbackStatus).toBe('DELIVERED');
      expect(byEvent(s, 'onComplete')).toHaveLength(0);
    },
  },
  'release-keeps-withheld': {
    run: async (s) => {
      const w = await restWrite(s, 'contacts/data/u-1', { email: 'a@x.io' });
      await hold(s, w.json.serviceKey, true);
      await hold(s, w.json.serviceKey, false);
      expect((await read(s, `contacts/data/u-1/${w.json.serviceKey}`)).status).toBe(200);
      expect((await read(s, 'contacts/data/u-1')).json).toEqual([]);
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
  'chat-delete-rest-record-silent': {
    run: async (s) => {
      const w = await restWrite(s, 'contacts/data/u-1', { email: 'a@x.io' });
      const id = await s.open('u-1', '/contacts');
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: w.json.serviceKey });
      expect((await read(s, `contacts/data/u-1/${w.json.serviceKey}`)).status).toBe(404);
      await s.host.expectNone((r) => r.headers['x-service-event'] === 'config.deleted', 500, 'config.deleted');
    },
  },
  'setting-chat-after-rest-second-record': {
    run: async (s) => {
      const w = await restWrite(s, 'profile/data/u-1', { email: 'a@x.io' });
      const id = await s.open();
      const t = await turn(s, id, [{ fields: { age: 3 } }]);
      expect(t.json.serviceKeys[0]).not.toBe(w.json.serviceKey);
    },
  },
  'setting-read-after-chat-delete': {
    run: async (s) => {
      const id = await s.open();
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      const again = await turn(s, id, [{ fields: { email: 'b@x.io' } }]);
      expect((await read(s, `profile/data/u-1/${again.json.serviceKeys[0]}`)).status).toBe(200);
      expect((await read(s, 'profile/data/u-1')).status).toBe(404);
    },
  },
  'manifest-omits-delivered': {
    run: async (s) => {
      const { c2 } = await completedThenReopened(s);
      await s.driver('POST', `/conversations/${c2}/bulk-delete`, { configEnd: '/contacts' });
      expect((await first(s, 'config.bulk_deleted')).json).toMatchObject({ count: 1, keys: [] });
    },
  },
  // A scope of both states: the completed record (DELIVERED) and a draft of the second conversation (PENDING).
  'scope-delete-keeps-delivered': {
    run: async (s) => {
      const { key, c2 } = await completedThenReopened(s);
      const t = await turn(s, c2, [{ fields: { email: 'b@x.io' } }]);
      await s.driver('POST', `/conversations/${c2}/bulk-delete`, { configEnd: '/contacts' });
      expect((await first(s, 'config.bulk_deleted')).json).toMatchObject({ count: 2 });
      expect((await read(s, `contacts/data/u-1/${key}`)).status).toBe(200);
      expect((await read(s, `contacts/data/u-1/${t.json.serviceKeys[0]}`)).status).toBe(404);
    },
  },
  'interrupt-finalizes-drafts': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      expect((await read(s, 'profile/data/u-1')).json.callbackStatus).toBe('DELIVERED');
      expect(byEvent(s, 'onComplete')).toHaveLength(0);
    },
  },
  'rest-write-in-live-conversation-saved': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.api(
        'POST',
        dataPath(s, `contacts/data/u-1/${t.json.serviceKeys[0]}`),
        { data: { name: 'A' } },
        bearer(s),
      );
      await first(s, 'config.saved', 2);
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
} satisfies Probes;
