/** Probes of the faults on the contract routes: auth, data API, error bodies, embed-tokens, upload, facts. */
import { expect } from '@playwright/test';
import { bearer, dataPath, facts, factsAnswered, multipart, type Probes } from './helpers.ts';

export const ROUTE_PROBES = {
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
  'data-get-by-key-without-bearer': {
    run: async (s) => {
      const w = await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      expect((await s.api('GET', dataPath(s, `contacts/data/u-1/${w.json.serviceKey}`))).status).toBe(200);
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
  'put-answers-404': {
    run: async (s) => {
      expect((await s.api('PUT', dataPath(s, 'profile/data/u-1'), { data: {} }, bearer(s))).status).toBe(404);
    },
  },
  'not-found-with-message': {
    run: async (s) => {
      const r = await s.api('GET', dataPath(s, 'profile/data/u-9'), undefined, bearer(s));
      expect(r.status).toBe(404);
      expect(r.json).toHaveProperty('message');
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
  'list-drops-unbound': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 42 } }, bearer(s));
      expect((await s.api('GET', dataPath(s, 'contacts/data/u-1'), undefined, bearer(s))).json).toEqual([]);
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
  'draft-completed-at-null': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.completedAt).toBeNull();
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
  'facts-applied-same-open': {
    run: async (s) => {
      s.host.script = (r) =>
        r.method === 'GET' ? { status: 200, body: { preferredLanguages: ['German'] } } : { status: 200 };
      const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/conversations`, {
        endUserHandle: 'u-1',
        configEnd: '/profile',
      });
      expect(r.json.openerLanguage).toBe('German');
    },
  },
  'facts-partially-applied': {
    run: async (s) => {
      s.host.script = (r) =>
        r.method === 'GET' ? { status: 200, body: { company: 42, preferredLanguages: ['French'] } } : { status: 200 };
      await s.open();
      await factsAnswered(s, 1);
      expect((await facts(s)).facts).toEqual({ preferredLanguages: ['French'] });
    },
  },
  'english-not-appended': {
    run: async (s) => {
      s.host.script = (r) =>
        r.method === 'GET' ? { status: 200, body: { preferredLanguages: ['German'] } } : { status: 200 };
      await s.open();
      await factsAnswered(s, 1);
      expect((await facts(s)).languages).toEqual(['German']);
    },
  },
  'facts-delivery-id-other-form': {
    run: async (s) => {
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.method === 'GET'));
      expect(s.host.received.find((x) => x.method === 'GET')!.headers['x-service-delivery-id']).toBe('uf-u-1');
    },
  },
} satisfies Probes;
