/** Probes of the faults in signing, tool dispatch, paging, events and record states. */
import { expect } from '@playwright/test';
import { verifyCallback, verifyFactsRequest } from '../../../../protocol/index.ts';
import {
  bearer,
  byEvent,
  completeWith,
  dataPath,
  facts,
  first,
  hmacVerdict,
  lifecycle,
  SECRET,
  type Probes,
} from './helpers.ts';

export const SIGNING_PROBES = {
  'hmac-base-without-dot': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      expect(await hmacVerdict(s, await first(s, 'onStart'))).toBe('invalid');
    },
  },
  'sign-reserialized-body': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      await s.open();
      const r = await first(s, 'onStart');
      const keys = (await s.api('GET', '/.well-known/service/jwks.json')).json;
      expect(
        (await verifyCallback({ headers: r.headers, rawBody: r.raw, config: { mode: 'jwks', keys } })).verdict,
      ).toBe('invalid');
    },
  },
  'stale-t': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      expect(await hmacVerdict(s, await first(s, 'onStart'))).toBe('stale');
    },
  },
  'no-resign-on-retry': {
    timeScale: 0.25,
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await completeWith(s, (r) => ({ status: r.headers['x-service-delivery-attempt'] === '1' ? 503 : 200 }));
      const a2 = await first(s, 'onComplete', 2);
      // The back-off (1.25 s here) moves t to another second: a re-signed retry has another header.
      expect(a2.headers['x-service-signature']).toBe(byEvent(s, 'onComplete')[0]!.headers['x-service-signature']);
    },
  },
  'same-kid-sandbox': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', {
        parentWorkspaceKey: s.ws.workspaceKey,
        signing: { mode: 'jwks' },
      });
      expect(sb.json.signing.kid).toBe(s.ws.signing.kid);
    },
  },
  'hmac-uppercase-hex': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      const r = await first(s, 'onStart');
      expect(r.headers['x-service-signature']).toMatch(/v1=[0-9A-F]{64}$/);
      expect(await hmacVerdict(s, r)).not.toBe('valid');
    },
  },
  'facts-signed-without-get': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.method === 'GET'));
      const g = s.host.received.find((x) => x.method === 'GET')!;
      expect(
        (
          await verifyFactsRequest({
            requestTarget: g.url,
            headers: g.headers,
            config: { mode: 'hmac', secrets: [SECRET] },
          })
        ).verdict,
      ).toBe('invalid');
    },
  },
  'rotation-signs-with-neither': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, {
        signing: { mode: 'hmac', secret: 'test-only-rotated-secret', previousSecret: SECRET },
      });
      await s.open();
      const r = await first(s, 'onStart');
      expect(await hmacVerdict(s, r, 'test-only-rotated-secret')).toBe('invalid');
      expect(await hmacVerdict(s, r, SECRET)).toBe('invalid');
    },
  },
  'listen-pipe-unsigned': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/listen`, { forwardTo: `${s.host.url}/pipe/p-1` });
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.url === '/pipe/p-1'), 5000, 'the onStart at the pipe');
      expect(s.host.received.find((x) => x.url === '/pipe/p-1')!.headers['x-service-signature']).toBeUndefined();
    },
  },
  'hmac-sandbox-parent-secret': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', {
        parentWorkspaceKey: s.ws.workspaceKey,
        signing: { mode: 'hmac', secret: 'test-only-sandbox-secret' },
      });
      await s.open('u-1', '/profile', sb.json.workspaceKey);
      const r = await first(s, 'onStart');
      expect(await hmacVerdict(s, r, 'test-only-sandbox-secret')).toBe('invalid');
      expect(await hmacVerdict(s, r, SECRET)).toBe('valid');
    },
  },
  'tool-dispatch-unsigned': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/tool-calls`, { toolClass: 'lookup' });
      const r = s.host.received.find((x) => x.headers['x-service-event'] === 'tool.dispatch')!;
      expect(r.headers['x-service-signature']).toBeUndefined();
    },
  },
  'tool-dispatch-to-hook': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/tool-calls`, { toolClass: 'lookup' });
      const r = s.host.received.find((x) => x.headers['x-service-event'] === 'tool.dispatch')!;
      expect(r.url).toBe('/hooks/t-1');
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
  'saved-on-rest-write': {
    run: async (s) => {
      await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      await first(s, 'config.saved');
    },
  },
  'saved-per-field': {
    run: async (s) => {
      await lifecycle(s);
      expect(byEvent(s, 'config.saved')).toHaveLength(3);
    },
  },
  'rest-write-delivered': {
    run: async (s) => {
      const w = await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s));
      expect(w.json.callbackStatus).toBe('DELIVERED');
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
} satisfies Probes;
