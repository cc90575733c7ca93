/** Probes of the seeded faults of the data API (DATA), its envelope (ENV), auth (AUTH) and error bodies (ERR). */
import { expect } from '@playwright/test';
import { type Probes, bearer, dataPath } from './helpers.ts';
import { turn, restWrite, read, hold, write } from './steps.ts';

export const DATA_API_PROBES = {
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
  'setting-read-as-list': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 3 });
      expect(Array.isArray((await read(s, 'profile/data/u-1')).json)).toBe(true);
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
  'release-keeps-withheld': {
    run: async (s) => {
      const w = await restWrite(s, 'contacts/data/u-1', { email: 'a@x.io' });
      await hold(s, w.json.serviceKey, true);
      await hold(s, w.json.serviceKey, false);
      expect((await read(s, `contacts/data/u-1/${w.json.serviceKey}`)).status).toBe(200);
      expect((await read(s, 'contacts/data/u-1')).json).toEqual([]);
    },
  },
  'list-omits-host-written': {
    run: async (s) => {
      await write(s, 'contacts/data/u-1', { email: 'a@x.io' });
      expect((await read(s, 'contacts/data/u-1')).json).toEqual([]);
    },
  },
  'list-read-raw-handle': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'contacts/data/u%20one'), { data: { email: 'a@x.io' } }, bearer(s));
      expect((await read(s, 'contacts/data/u%20one')).json).toEqual([]);
    },
  },
  'key-read-raw-handle': {
    run: async (s) => {
      const w = await s.api('POST', dataPath(s, 'contacts/data/u%20one'), { data: { email: 'a@x.io' } }, bearer(s));
      expect((await read(s, `contacts/data/u%20one/${w.json.serviceKey}`)).status).toBe(404);
    },
  },
  'keyed-write-creates-new': {
    run: async (s) => {
      const w = await write(s, 'contacts/data/u-1', { email: 'a@x.io' });
      const k = await s.api(
        'POST',
        dataPath(s, `contacts/data/u-1/${w.json.serviceKey}`),
        { data: { name: 'A' } },
        bearer(s),
      );
      expect(k.json.serviceKey).not.toBe(w.json.serviceKey);
    },
  },
  'put-answers-404': {
    run: async (s) => {
      expect((await s.api('PUT', dataPath(s, 'profile/data/u-1'), { data: {} }, bearer(s))).status).toBe(404);
    },
  },
  'org-handle-read-404': {
    run: async (s) => {
      expect((await read(s, 'profile/data/org-acme')).status).toBe(404);
    },
  },
  'malformed-body-500': {
    run: async (s) => {
      expect((await s.api('POST', dataPath(s, 'profile/data/u-1'), '{"data": {', bearer(s))).status).toBe(500);
    },
  },
  'setting-read-empty-200': {
    run: async (s) => {
      const r = await read(s, 'profile/data/u-9');
      expect(r.status).toBe(200);
      expect(r.json.data).toBeNull();
    },
  },
  'keyed-post-unknown-creates': {
    run: async (s) => {
      expect(
        (await s.api('POST', dataPath(s, 'contacts/data/u-1/sk-made-up'), { data: { email: 'a@x.io' } }, bearer(s)))
          .status,
      ).toBe(201);
      expect((await read(s, 'contacts/data/u-1/sk-made-up')).status).toBe(200);
    },
  },
  'unknown-configend-200': {
    run: async (s) => {
      expect((await read(s, 'no-such/data/u-1')).status).toBe(200);
    },
  },
  'unkeyed-write-skips-held-setting': {
    run: async (s) => {
      const w = await restWrite(s, 'profile/data/u-1', { email: 'a@x.io' });
      await hold(s, w.json.serviceKey, true);
      expect((await restWrite(s, 'profile/data/u-1', { email: 'b@x.io' })).status).toBe(200);
    },
  },
  'held-record-read-200': {
    run: async (s) => {
      const w = await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/records/${w.json.serviceKey}/migration-hold`, {
        held: true,
      });
      expect(
        (await s.api('GET', dataPath(s, `contacts/data/u-1/${w.json.serviceKey}`), undefined, bearer(s))).status,
      ).toBe(200);
    },
  },
  'identity-not-enforced': {
    run: async (s) => {
      await write(s, 'contacts/data/u-1', { email: 'a@x.io' });
      expect((await write(s, 'contacts/data/u-1', { email: 'a@x.io' })).status).toBe(201);
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
  'setting-write-appends': {
    run: async (s) => {
      const a = await write(s, 'profile/data/u-1', { age: 1 });
      const b = await write(s, 'profile/data/u-1', { age: 2 });
      expect(b.status).toBe(201);
      expect(b.json.serviceKey).not.toBe(a.json.serviceKey);
    },
  },
  'list-unkeyed-overwrites': {
    run: async (s) => {
      const a = await write(s, 'contacts/data/u-1', { email: 'a@x.io' });
      const b = await write(s, 'contacts/data/u-1', { email: 'b@x.io' });
      expect(b.json.serviceKey).toBe(a.json.serviceKey);
    },
  },
  'envelope-without-warnings': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 3 });
      expect((await read(s, 'profile/data/u-1')).json).not.toHaveProperty('warnings');
    },
  },
  'unbound-field-raw-value': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 'three' });
      const e = (await read(s, 'profile/data/u-1')).json;
      expect(e.data.age).toBe('three');
      expect(e.errors).toHaveProperty('age');
    },
  },
  'draft-completed-at-null': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.completedAt).toBeNull();
    },
  },
  'field-problem-422': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 'three' });
      expect((await read(s, 'profile/data/u-1')).status).toBe(422);
    },
  },
  'list-drops-unbound': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 42 } }, bearer(s));
      expect((await s.api('GET', dataPath(s, 'contacts/data/u-1'), undefined, bearer(s))).json).toEqual([]);
    },
  },
  'data-get-by-key-without-bearer': {
    run: async (s) => {
      const w = await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      expect((await s.api('GET', dataPath(s, `contacts/data/u-1/${w.json.serviceKey}`))).status).toBe(200);
    },
  },
  'data-list-any-bearer': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 1 });
      expect(
        (await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, { authorization: 'Bearer not-a-token' }))
          .status,
      ).toBe(200);
    },
  },
  'foreign-key-401': {
    run: async (s) => {
      const o = await s.driver('POST', '/workspaces', {});
      expect(
        (
          await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, {
            authorization: `Bearer ${o.json.bearerToken}`,
          })
        ).status,
      ).toBe(401);
    },
  },
  'parent-key-refused-on-sandbox': {
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey });
      expect(
        (await s.api('GET', `/api/${sb.json.workspaceKey}/endpoints/profile/data/u-1`, undefined, bearer(s))).status,
      ).toBe(403);
    },
  },
  'sandbox-key-covers-production': {
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey });
      expect(
        (
          await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, {
            authorization: `Bearer ${sb.json.bearerToken}`,
          })
        ).status,
      ).not.toBe(403);
    },
  },
  'not-found-with-message': {
    run: async (s) => {
      const r = await s.api('GET', dataPath(s, 'profile/data/u-9'), undefined, bearer(s));
      expect(r.status).toBe(404);
      expect(r.json).toHaveProperty('message');
    },
  },
  'migrating-409-without-message': {
    run: async (s) => {
      const w = await write(s, 'contacts/data/u-1', { email: 'a@x.io' });
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/records/${w.json.serviceKey}/migration-hold`, {
        held: true,
      });
      const r = await read(s, `contacts/data/u-1/${w.json.serviceKey}`);
      expect(r.status).toBe(409);
      expect(r.json).not.toHaveProperty('message');
    },
  },
  'identity-conflict-no-existing-key': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      const c = await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      expect(c.status).toBe(409);
      expect(c.json).not.toHaveProperty('existingKey');
    },
  },
  'error-500-with-detail': {
    run: async (s) => {
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/outage`, { status: 500 });
      const r = await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s));
      expect(r.status).toBe(500);
      expect(r.json).toHaveProperty('trace');
    },
  },
  'unavailable-503-with-message': {
    run: async (s) => {
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/outage`, { status: 503 });
      const r = await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s));
      expect(r.status).toBe(503);
      expect(r.json).toHaveProperty('message');
    },
  },
} satisfies Probes;
