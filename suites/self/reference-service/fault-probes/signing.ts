/** Probes of the seeded faults of signing (SIGN) and of signed tool dispatch (TOOL). */
import { expect } from '@playwright/test';
import { byEvent, completeWith, first, type Probes, facts, hmacVerdict, SECRET } from './helpers.ts';
import { verifyFactsRequest, verifyCallback } from '../../../../protocol/index.ts';
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
import { turn, factsGet, rotatedOnStart } from './steps.ts';

export const SIGNING_PROBES = {
  'mode-switch-keeps-hmac': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, { signing: { mode: 'jwks' } });
      await s.open();
      expect(await hmacVerdict(s, await first(s, 'onStart'))).toBe('valid');
    },
  },
  'unsigned-config-deleted': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      expect((await first(s, 'config.deleted')).headers['x-service-signature']).toBeUndefined();
    },
  },
  'future-t': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      expect(await hmacVerdict(s, await first(s, 'onStart'))).toBe('future');
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
  'facts-jws-without-query': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      await s.open();
      const g = await factsGet(s);
      const keys = (await s.api('GET', '/.well-known/service/jwks.json')).json;
      expect(
        (await verifyFactsRequest({ requestTarget: g.url, headers: g.headers, config: { mode: 'jwks', keys } }))
          .verdict,
      ).toBe('invalid');
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
  'jws-without-kid': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      await s.open();
      const h = (await first(s, 'onStart')).headers['x-service-signature']!;
      expect(JSON.parse(Buffer.from(h.split('.')[0]!, 'base64url').toString())).not.toHaveProperty('kid');
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
  'jwks-private-d': {
    run: async (s) => {
      expect((await s.api('GET', '/.well-known/service/jwks.json')).json.keys[0]).toHaveProperty('d');
    },
  },
  'jws-keeps-old-kid-after-rotation': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      const { kid, previousKid, header, doc } = await rotatedOnStart(s);
      expect(doc.map((k) => k.kid)).toContain(kid);
      expect(decodeProtectedHeader(header).kid).toBe(previousKid);
    },
  },
  'jws-old-kid-new-key': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      const { kid, previousKid, header, doc } = await rotatedOnStart(s);
      expect(decodeProtectedHeader(header).kid).toBe(previousKid);
      // Signed with the new key: it verifies with the key published under the new kid.
      await compactVerify(
        header,
        await importJWK(
          doc.find((k) => k.kid === kid)!,
          'ES256',
        ),
      );
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
  // SIGN-10 after a rotation: sandbox and production keys differ before it, a sandbox shares the parent's new kid
  // after.
  'sandbox-shares-rotated-kid': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      const sandbox = () =>
        s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey, signing: { mode: 'jwks' } });
      expect((await sandbox()).json.signing.kid).not.toBe(s.ws.signing.kid);
      const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/jwks/rotate`, {});
      expect((await sandbox()).json.signing.kid).toBe(r.json.kid);
    },
  },
  'hmac-header-v1-first': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).headers['x-service-signature']).toMatch(/^v1=[0-9a-f]{64},t=\d+$/);
    },
  },
  'hmac-base-without-dot': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      expect(await hmacVerdict(s, await first(s, 'onStart'))).toBe('invalid');
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
  'tool-dispatch-to-hook': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/tool-calls`, { toolClass: 'lookup' });
      const r = s.host.received.find((x) => x.headers['x-service-event'] === 'tool.dispatch')!;
      expect(r.url).toBe('/hooks/t-1');
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
} satisfies Probes;
