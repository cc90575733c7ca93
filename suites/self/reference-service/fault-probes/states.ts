/** Probes of the seeded faults of record states (STATE) and bulk-delete paging (PAGE). */
import { expect } from '@playwright/test';
import { byEvent, first, lifecycle, waitMs, type Probes, bearer, dataPath } from './helpers.ts';
import { turn, restWrite, read, completedThenReopened, json, seedAndBulk, write } from './steps.ts';

export const STATES_PROBES = {
  'sweep-finalizes-drafts': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      expect((await read(s, 'profile/data/u-1')).json.callbackStatus).toBe('DELIVERED');
      expect(byEvent(s, 'onComplete')).toHaveLength(0);
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
  'rest-write-delivered': {
    run: async (s) => {
      const w = await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      expect(w.json.callbackStatus).toBe('DELIVERED');
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
  'saved-on-rest-write': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      await first(s, 'config.saved');
    },
  },
  'complete-keeps-pending': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 1 } }]);
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await first(s, 'onComplete');
      expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.callbackStatus).toBe(
        'PENDING',
      );
    },
  },
  'readiness-check-blocks-oncomplete': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 1 } }]);
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await first(s, 'config.saved');
      await waitMs(300);
      expect(byEvent(s, 'onComplete')).toHaveLength(0);
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
  'edit-resets-pending': {
    run: async (s) => {
      const { keys } = await lifecycle(s);
      const c2 = await s.open('u-1', '/contacts');
      await turn(s, c2, [{ serviceKey: keys[0], fields: { name: 'B' } }]);
      expect(json(await first(s, 'config.saved', 3)).callbackStatus).toBe('DELIVERED');
      expect(
        (await s.api('GET', dataPath(s, `contacts/data/u-1/${keys[0]}`), undefined, bearer(s))).json.callbackStatus,
      ).toBe('PENDING');
    },
  },
  'chat-delete-keeps-record': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      await first(s, 'config.deleted');
      expect(
        (await s.api('GET', dataPath(s, `contacts/data/u-1/${t.json.serviceKeys[0]}`), undefined, bearer(s))).status,
      ).toBe(200);
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
  'scope-delete-keeps-last': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }, { fields: { email: 'b@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
      await first(s, 'config.bulk_deleted');
      expect(
        (await s.api('GET', dataPath(s, `contacts/data/u-1/${t.json.serviceKeys[1]}`), undefined, bearer(s))).status,
      ).toBe(200);
    },
  },
  'bulk-499-per-page': {
    run: async (s) => {
      await seedAndBulk(s, 500);
      await first(s, 'config.bulk_deleted', 2);
    },
  },
  'bulk-501-keys': {
    run: async (s) => {
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
        configEnd: '/contacts',
        endUserHandle: 'u-1',
        count: 501,
      });
      const id = await s.open('u-1', '/contacts');
      await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
      expect(((await first(s, 'config.bulk_deleted')).json as any).keys).toHaveLength(501);
    },
  },
  'pages-from-zero': {
    run: async (s) => {
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
        configEnd: '/contacts',
        endUserHandle: 'u-1',
        count: 501,
      });
      const id = await s.open('u-1', '/contacts');
      await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
      await first(s, 'config.bulk_deleted', 2);
      expect(byEvent(s, 'config.bulk_deleted').map((r) => (r.json as any).page)).toEqual([0, 1]);
    },
  },
  'bulk-page-one-twice': {
    run: async (s) => {
      await seedAndBulk(s, 501);
      const p2 = await first(s, 'config.bulk_deleted', 2);
      expect(p2.raw.equals(byEvent(s, 'config.bulk_deleted')[0]!.raw)).toBe(true);
    },
  },
  'count-only-page-one': {
    run: async (s) => {
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
        configEnd: '/contacts',
        endUserHandle: 'u-1',
        count: 501,
      });
      const id = await s.open('u-1', '/contacts');
      await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
      expect((await first(s, 'config.bulk_deleted', 2)).json).not.toHaveProperty('count');
    },
  },
  'manifest-omits-delivered': {
    run: async (s) => {
      const { c2 } = await completedThenReopened(s);
      await s.driver('POST', `/conversations/${c2}/bulk-delete`, { configEnd: '/contacts' });
      expect((await first(s, 'config.bulk_deleted')).json).toMatchObject({ count: 1, keys: [] });
    },
  },
  'bulk-duplicate-key': {
    run: async (s) => {
      await seedAndBulk(s, 501);
      const p2 = await first(s, 'config.bulk_deleted', 2);
      expect(json(p2).keys).toEqual([json(byEvent(s, 'config.bulk_deleted')[0]!).keys[0]]);
    },
  },
} satisfies Probes;
