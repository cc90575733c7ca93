/** Probes of the seeded faults of embed tokens (EMBED) and uploads (UPLOAD). */
import { expect } from '@playwright/test';
import { type Probes, multipart } from './helpers.ts';
import { embed, contextOf, upload, partsOfSize } from './steps.ts';

export const EMBED_UPLOAD_PROBES = {
  'embed-missing-handle-accepted': {
    run: async (s) => {
      expect((await embed(s, {})).status).toBe(200);
    },
  },
  'embed-handle-255-rejected': {
    run: async (s) => {
      expect(
        (
          await s.api(
            'POST',
            `/api/${s.ws.workspaceKey}/embed-tokens`,
            { endUserHandle: 'a'.repeat(255) },
            { authorization: s.ws.embedAuthorization },
          )
        ).status,
      ).toBe(400);
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
  'embed-context-16385-accepted': {
    run: async (s) => {
      const oc = { data: { note: 'x'.repeat(16385 - JSON.stringify({ data: { note: '' } }).length) } };
      expect(JSON.stringify(oc).length).toBe(16385);
      expect(
        (
          await s.api(
            'POST',
            `/api/${s.ws.workspaceKey}/embed-tokens`,
            { endUserHandle: 'u', openingContext: oc },
            { authorization: s.ws.embedAuthorization },
          )
        ).status,
      ).toBe(200);
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
  'embed-configend-accepted': {
    run: async (s) => {
      expect(
        (
          await s.api(
            'POST',
            `/api/${s.ws.workspaceKey}/embed-tokens`,
            { endUserHandle: 'u', configEnd: '/profile' },
            { authorization: s.ws.embedAuthorization },
          )
        ).status,
      ).toBe(200);
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
  'upload-file-25mb-plus-1-accepted': {
    run: async (s) => {
      const m = multipart([
        { name: 'manifest', body: JSON.stringify({ sources: ['big'] }) },
        { name: 'big', filename: 'big', body: Buffer.alloc(25_000_001, 98) },
      ]);
      const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
        method: 'POST',
        body: m.body as unknown as BodyInit,
        headers: { 'content-type': m.type, 'x-api-key': s.ws.apiKey },
      });
      expect(res.status).toBe(202);
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
  'upload-status-other-workspace': {
    run: async (s) => {
      const m = multipart([{ name: 'manifest', body: JSON.stringify({ sources: [] }) }]);
      const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
        method: 'POST',
        body: m.body as unknown as BodyInit,
        headers: { 'content-type': m.type, 'x-api-key': s.ws.apiKey },
      });
      const { id } = (await res.json()) as { id: string };
      const o = await s.driver('POST', '/workspaces', {});
      expect(
        (
          await s.api('GET', `/api/${o.json.workspaceKey}/upload/status/${id}`, undefined, {
            'x-api-key': o.json.apiKey,
          })
        ).status,
      ).toBe(200);
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
