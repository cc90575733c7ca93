/** Probes of the fault-model rows' faults on the contract routes: envelope, data API, auth, error bodies, embed-tokens, upload. */
import { expect } from '@playwright/test';
import { bearer, dataPath, multipart, type Probes } from './helpers.ts';
import type { Stage } from '../host.ts';

const write = (s: Stage, tail: string, data: object) => s.api('POST', dataPath(s, tail), { data }, bearer(s));
const read = (s: Stage, tail: string) => s.api('GET', dataPath(s, tail), undefined, bearer(s));
const embed = (s: Stage, body: object, authorization = s.ws.embedAuthorization) =>
  s.api('POST', `/api/${s.ws.workspaceKey}/embed-tokens`, body, { authorization });
const contextOf = (n: number, ch = 'x') => ({
  data: { note: ch.repeat(n - JSON.stringify({ data: { note: '' } }).length) },
});
async function upload(s: Stage, parts: Parameters<typeof multipart>[0], apiKey = s.ws.apiKey): Promise<number> {
  const m = multipart(parts);
  const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
    method: 'POST',
    body: m.body as unknown as BodyInit,
    headers: { 'content-type': m.type, 'x-api-key': apiKey },
  });
  return res.status;
}
/** A two-file upload of exactly n bytes, neither file over 25 MB. */
function partsOfSize(n: number): Parameters<typeof multipart>[0] {
  const shape = (rest: number) => [
    { name: 'manifest', body: JSON.stringify({ sources: ['a', 'b'] }) },
    { name: 'a', filename: 'a', body: Buffer.alloc(25_000_000, 97) },
    { name: 'b', filename: 'b', body: Buffer.alloc(rest, 98) },
  ];
  return shape(n - multipart(shape(0)).body.length);
}

export const ROW_ROUTE_PROBES = {
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
  'field-problem-422': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 'three' });
      expect((await read(s, 'profile/data/u-1')).status).toBe(422);
    },
  },
  'setting-read-as-list': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 3 });
      expect(Array.isArray((await read(s, 'profile/data/u-1')).json)).toBe(true);
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
  'identity-not-enforced': {
    run: async (s) => {
      await write(s, 'contacts/data/u-1', { email: 'a@x.io' });
      expect((await write(s, 'contacts/data/u-1', { email: 'a@x.io' })).status).toBe(201);
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
  'data-list-any-bearer': {
    run: async (s) => {
      await write(s, 'profile/data/u-1', { age: 1 });
      expect(
        (await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, { authorization: 'Bearer not-a-token' }))
          .status,
      ).toBe(200);
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
  'embed-missing-handle-accepted': {
    run: async (s) => {
      expect((await embed(s, {})).status).toBe(200);
    },
  },
  'embed-handle-256-accepted': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'a'.repeat(256) })).status).toBe(200);
    },
  },
  'embed-handle-length-in-bytes': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'é'.repeat(255) })).status).toBe(400);
    },
  },
  'embed-org-handle-accepted': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'org-acme' })).status).toBe(200);
    },
  },
  'embed-org-anywhere': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'user-org-acme' })).status).toBe(400);
    },
  },
  'embed-organization-id-unchecked': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'u', organizationId: 42 })).status).toBe(200);
    },
  },
  'embed-foreign-referent-accepted': {
    run: async (s) => {
      const o = await s.driver('POST', '/workspaces', {
        classes: [{ configEnd: '/contacts', kind: 'LIST', fields: [{ name: 'email', type: 'string' }] }],
      });
      const k = (
        await s.driver('POST', `/workspaces/${o.json.workspaceKey}/seed`, {
          configEnd: '/contacts',
          endUserHandle: 'u-1',
          count: 1,
        })
      ).json.serviceKeys[0];
      expect((await embed(s, { endUserHandle: 'u-1', openingContext: { referentKeys: [k] } })).status).toBe(200);
    },
  },
  'embed-context-16384-rejected': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'u', openingContext: contextOf(16384) })).status).toBe(400);
    },
  },
  'embed-context-size-in-bytes': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'u', openingContext: contextOf(16384, 'é') })).status).toBe(400);
    },
  },
  'embed-nested-data-accepted': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'u', openingContext: { data: { a: { b: 1 } } } })).status).toBe(200);
    },
  },
  'embed-unknown-tool-400': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'u', openingContext: { toolClass: 'no-such-tool' } })).status).toBe(400);
    },
  },
  'embed-any-authorization': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'u' }, 'Bearer not-a-key')).status).toBe(200);
    },
  },
  'embed-requires-context': {
    run: async (s) => {
      expect((await embed(s, { endUserHandle: 'u' })).status).toBe(400);
    },
  },
  'upload-missing-manifest-accepted': {
    run: async (s) => {
      expect(await upload(s, [{ name: 'a', filename: 'a', body: 'x' }])).toBe(202);
    },
  },
  'upload-missing-file-accepted': {
    run: async (s) => {
      expect(await upload(s, [{ name: 'manifest', body: JSON.stringify({ sources: ['gone.ts'] }) }])).toBe(202);
    },
  },
  'upload-file-25mb-rejected': {
    run: async (s) => {
      expect(
        await upload(s, [
          { name: 'manifest', body: JSON.stringify({ sources: ['big'] }) },
          { name: 'big', filename: 'big', body: Buffer.alloc(25_000_000, 98) },
        ]),
      ).toBe(413);
    },
  },
  'upload-request-30mb-plus-1-accepted': {
    run: async (s) => {
      expect(await upload(s, partsOfSize(30_000_001))).toBe(202);
    },
  },
  'upload-request-30mb-rejected': {
    run: async (s) => {
      expect(await upload(s, partsOfSize(30_000_000))).toBe(413);
    },
  },
  'upload-any-api-key': {
    run: async (s) => {
      expect(await upload(s, [{ name: 'manifest', body: JSON.stringify({ sources: [] }) }], 'not-a-key')).toBe(202);
    },
  },
  'upload-octet-stream-refused': {
    run: async (s) => {
      const boundary = '----ccsoctet';
      const body = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="manifest"\r\n\r\n{"sources":["a.ts"]}\r\n--${boundary}\r\nContent-Disposition: form-data; name="a.ts"; filename="a.ts"\r\nContent-Type: application/octet-stream\r\n\r\nexport {};\r\n--${boundary}--\r\n`,
      );
      const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
        method: 'POST',
        body: body as unknown as BodyInit,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': s.ws.apiKey },
      });
      expect(res.status).toBe(400);
    },
  },
  'upload-status-own-404': {
    run: async (s) => {
      const m = multipart([{ name: 'manifest', body: JSON.stringify({ sources: [] }) }]);
      const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
        method: 'POST',
        body: m.body as unknown as BodyInit,
        headers: { 'content-type': m.type, 'x-api-key': s.ws.apiKey },
      });
      const { id } = (await res.json()) as { id: string };
      expect(
        (await s.api('GET', `/api/${s.ws.workspaceKey}/upload/status/${id}`, undefined, { 'x-api-key': s.ws.apiKey }))
          .status,
      ).toBe(404);
    },
  },
  'upload-status-any-key': {
    run: async (s) => {
      expect(
        (await s.api('GET', `/api/${s.ws.workspaceKey}/upload/status/nope`, undefined, { 'x-api-key': 'not-a-key' }))
          .status,
      ).toBe(404);
    },
  },
} satisfies Probes;
