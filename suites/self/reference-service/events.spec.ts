/**
 * What the reference service sends: each lifecycle event's payload, headers and signature, tool
 * dispatches, signing per workspace (HMAC, JWKS, sandbox, rotation) and the skipped deliveries.
 */
import { test, expect } from '@playwright/test';
import { verifyCallback } from '../../../protocol/index.ts';
import { loadSpec, clauseTags } from '../../../spec/index.ts';
import { stage, type Received, type Stage } from './host.ts';

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/;
const SECRET = 'test-only-hmac-secret-1';

function commonOk(r: Received, event: string): Record<string, any> {
  const body = r.json as Record<string, any>;
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.headers['x-service-event']).toBe(event);
  expect(body.event).toBe(event);
  expect(r.headers['x-service-delivery-id']).toBe(`lc-${body.conversationId}-${event}`);
  expect(Number.isInteger(body.conversationId)).toBe(true);
  expect(body.configEnd.startsWith('/')).toBe(true);
  expect(body.timestamp).toMatch(TS);
  if (event !== 'onComplete') expect(r.headers['x-service-delivery-attempt']).toBeUndefined();
  return body;
}

test.describe('with HMAC signing', () => {
  let s: Stage;
  test.beforeEach(async () => {
    s = await stage({ workspace: { signing: { mode: 'hmac', secret: SECRET } } });
  });
  test.afterEach(async () => {
    await s.close();
  });

  test(
    'every lifecycle event has its exact payload, headers and a valid HMAC signature (EVT-1 EVT-4 EVT-5 EVT-6 EVT-7 EVT-8 EVT-9 EVT-10 EVT-12 EVT-14 EVT-16 EVT-17 EVT-20 EVT-21 EVT-23 HDR-1 HDR-2 HDR-3 HDR-4 HDR-5 HOOK-1 SIGN-3 SIGN-11 SIGN-12)',
    {
      tag: clauseTags(
        'EVT-1',
        'EVT-4',
        'EVT-5',
        'EVT-6',
        'EVT-7',
        'EVT-8',
        'EVT-9',
        'EVT-10',
        'EVT-12',
        'EVT-14',
        'EVT-16',
        'EVT-17',
        'EVT-20',
        'EVT-21',
        'EVT-23',
        'HDR-1',
        'HDR-2',
        'HDR-3',
        'HDR-4',
        'HDR-5',
        'HOOK-1',
        'SIGN-3',
        'SIGN-11',
        'SIGN-12',
      ),
    },
    async () => {
      const id = await s.open('u-1', '/contacts');
      const turn = await s.driver('POST', `/conversations/${id}/turns`, {
        saves: [{ fields: { email: 'a@x.io' } }, { fields: { email: 'b@x.io' } }],
      });
      const [k1, k2] = turn.json.serviceKeys;
      await s.driver('POST', `/conversations/${id}/turns`, {
        saves: [
          { serviceKey: k1, fields: { email: 'a2@x.io' } },
          { serviceKey: k1, fields: { name: 'A' } },
        ],
      });
      expect((await s.driver('POST', `/conversations/${id}/complete`, {})).status).toBe(202);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: k2 });
      await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      const id2 = await s.open('u-2', '/profile');
      await s.driver('POST', `/conversations/${id2}/idle-sweep`, {});
      const received = await s.host.waitFor(
        (r) => r.filter((x) => x.method === 'POST').length >= 11,
        10_000,
        '11 callbacks',
      );
      const posts = received.filter((r) => r.method === 'POST');
      const spec = loadSpec();
      for (const r of posts) {
        expect(r.url).toBe('/hooks/t-1');
        // The closed payload shapes and headers of spec/openapi.yaml (EVT-2).
        const event = r.headers['x-service-event']!;
        const body = spec.validateWebhook(event, r.json);
        expect(body.errors, `${event} body`).toEqual([]);
        const headers = spec.validateWebhookHeaders(event, r.headers);
        expect(headers.errors, `${event} headers`).toEqual([]);
        const v = await verifyCallback({
          headers: r.headers,
          rawBody: r.raw,
          config: { mode: 'hmac', secrets: [SECRET] },
        });
        expect(v.verdict, v.reason).toBe('valid');
      }
      const events = posts
        .filter((r) => (r.json as any).conversationId === id)
        .map((r) => r.headers['x-service-event']);
      expect(events).toEqual([
        'onStart',
        'config.saved',
        'config.saved',
        'config.saved',
        'onComplete',
        'config.deleted',
        'config.bulk_deleted',
        'config.deleted',
        'onSessionInterrupted',
      ]);
      const start = commonOk(
        posts.find((r) => r.headers['x-service-event'] === 'onStart')!,
        'onStart',
      );
      expect(Object.keys(start).sort()).toEqual([
        'configEnd',
        'conversationId',
        'endUserHandle',
        'event',
        'serviceKeys',
        'timestamp',
        'workspaceKey',
      ]);
      expect(start.serviceKeys).toEqual([]);
      const saved = s.host.callbacks('config.saved').map((r) => commonOk(r, 'config.saved'));
      expect(saved[2]).toMatchObject({ serviceKey: k1, changedFields: ['email', 'name'], callbackStatus: 'PENDING' });
      const done = s.host.callbacks('onComplete')[0]!;
      expect(done.headers['x-service-delivery-attempt']).toBe('1');
      expect(commonOk(done, 'onComplete')).toMatchObject({ serviceKeys: [k1, k2], path: '/hooks/t-1' });
      expect(Object.keys(done.json as object).sort()).toEqual([
        'configEnd',
        'conversationId',
        'endUserHandle',
        'event',
        'path',
        'serviceKeys',
        'timestamp',
        'workspaceKey',
      ]);
      const deleted = s.host.callbacks('config.deleted').map((r) => commonOk(r, 'config.deleted'));
      expect(deleted[0]).toMatchObject({ serviceKey: k2 });
      expect(deleted[0]!.serviceKeys).toBeUndefined();
      const bulk = commonOk(s.host.callbacks('config.bulk_deleted')[0]!, 'config.bulk_deleted');
      expect(bulk).toMatchObject({ count: 1, page: 1, totalPages: 1, keys: [k1] });
      expect(deleted[1]).toMatchObject({ serviceKey: k1 });
      expect(commonOk(s.host.callbacks('onSessionTimeout')[0]!, 'onSessionTimeout').serviceKeys).toEqual([]);
      expect(commonOk(s.host.callbacks('onSessionInterrupted')[0]!, 'onSessionInterrupted').serviceKeys).toEqual([]);
      // STATE-7: the deleted record is gone.
      const gone = await s.api('GET', `/api/${s.ws.workspaceKey}/endpoints/contacts/data/u-1/${k2}`, undefined, {
        authorization: `Bearer ${s.ws.bearerToken}`,
      });
      expect(gone.status).toBe(404);
    },
  );

  test(
    'config.saved after a completion carries DELIVERED and the record stays DELIVERED (EVT-18 STATE-4 STATE-6)',
    { tag: clauseTags('EVT-18', 'STATE-4', 'STATE-6') },
    async () => {
      const id = await s.open();
      const t = await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { age: 3 } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      const id2 = await s.open();
      await s.driver('POST', `/conversations/${id2}/turns`, {
        saves: [{ serviceKey: t.json.serviceKeys[0], fields: { age: 4 } }],
      });
      await s.host.waitFor(() => s.host.callbacks('config.saved').length === 2, 10_000, 'two config.saved');
      expect((s.host.callbacks('config.saved')[1]!.json as any).callbackStatus).toBe('DELIVERED');
      const read = await s.api('GET', `/api/${s.ws.workspaceKey}/endpoints/profile/data/u-1`, undefined, {
        authorization: `Bearer ${s.ws.bearerToken}`,
      });
      expect(read.json.callbackStatus).toBe('DELIVERED');
    },
  );

  test(
    'a tool call is a signed tool.dispatch POST to the tool route (TOOL-1 TOOL-2)',
    { tag: clauseTags('TOOL-1', 'TOOL-2') },
    async () => {
      s.host.script = (r) => (r.url === '/tools/lookup' ? { status: 207 } : { status: 200 });
      const id = await s.open();
      const r = await s.driver('POST', `/conversations/${id}/tool-calls`, { toolClass: 'lookup', input: { q: 1 } });
      expect(r.json.status).toBe(207);
      const call = s.host.received.find((x) => x.url === '/tools/lookup')!;
      expect(call.headers['x-service-event']).toBe('tool.dispatch');
      const v = await verifyCallback({
        headers: call.headers,
        rawBody: call.raw,
        config: { mode: 'hmac', secrets: [SECRET] },
      });
      expect(v.verdict).toBe('valid');
    },
  );

  test('an HMAC sandbox signs with its own secret (SIGN-13)', { tag: clauseTags('SIGN-13') }, async () => {
    const sb = await s.driver('POST', '/workspaces', {
      parentWorkspaceKey: s.ws.workspaceKey,
      signing: { mode: 'hmac', secret: 'test-only-sandbox-secret' },
    });
    await s.open('u-1', '/profile', sb.json.workspaceKey);
    await s.host.waitFor(() => s.host.callbacks('onStart').length === 1);
    const r = s.host.callbacks('onStart')[0]!;
    expect(
      (
        await verifyCallback({
          headers: r.headers,
          rawBody: r.raw,
          config: { mode: 'hmac', secrets: ['test-only-sandbox-secret'] },
        })
      ).verdict,
    ).toBe('valid');
  });

  test('an HMAC rotation signs with the new secret (SIGN-14)', { tag: clauseTags('SIGN-14') }, async () => {
    await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, {
      signing: { mode: 'hmac', secret: 'test-only-hmac-secret-2' },
    });
    await s.open();
    await s.host.waitFor(() => s.host.callbacks('onStart').length === 1);
    const r = s.host.callbacks('onStart')[0];
    const v = await verifyCallback({
      headers: r!.headers,
      rawBody: r!.raw,
      config: { mode: 'hmac', secrets: ['test-only-hmac-secret-2'] },
    });
    expect(v.verdict).toBe('valid');
  });
});

test(
  'JWKS signing: sandbox and production use different kids, a sandbox inherits hostBaseUrl and hookPath (SIGN-7 SIGN-8 SIGN-10 HOOK-2 HOOK-3 SIGN-13)',
  { tag: clauseTags('SIGN-7', 'SIGN-8', 'SIGN-10', 'HOOK-2', 'HOOK-3') },
  async () => {
    const s = await stage({ workspace: { signing: { mode: 'jwks' } } });
    try {
      const jwks = (await s.api('GET', '/.well-known/service/jwks.json')).json;
      const sb = await s.driver('POST', '/workspaces', {
        parentWorkspaceKey: s.ws.workspaceKey,
        signing: { mode: 'jwks' },
      });
      expect(sb.json.signing.kid).not.toBe(s.ws.signing.kid);
      await s.open('u-1');
      await s.open('u-1', '/profile', sb.json.workspaceKey);
      await s.host.waitFor(() => s.host.callbacks('onStart').length === 2);
      const kids = new Set<string>();
      for (const r of s.host.callbacks('onStart')) {
        expect(r.url).toBe('/hooks/t-1');
        const v = await verifyCallback({ headers: r.headers, rawBody: r.raw, config: { mode: 'jwks', keys: jwks } });
        expect(v.verdict, v.reason).toBe('valid');
        kids.add(v.kid!);
      }
      expect(kids.size).toBe(2);
    } finally {
      await s.close();
    }
  },
);

test(
  'events are skipped and logged when hookPath or hostBaseUrl is missing, and values stay readable (HOOK-4)',
  { tag: clauseTags('HOOK-4') },
  async () => {
    const s = await stage({ workspace: { hookPath: null } });
    try {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      const log = async () => (await s.driver('GET', '/log?since=0')).json.lines as Array<{ event: string }>;
      const deadline = Date.now() + 5000;
      while ((await log()).filter((l) => l.event === 'delivery.skipped').length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect((await log()).filter((l) => l.event === 'delivery.skipped').length).toBe(2);
      expect(s.host.callbacks()).toHaveLength(0);
      const read = await s.api('GET', `/api/${s.ws.workspaceKey}/endpoints/profile/data/u-1`, undefined, {
        authorization: `Bearer ${s.ws.bearerToken}`,
      });
      expect(read.json.data.email).toBe('a@x.io');
      expect(JSON.stringify(await log())).not.toContain(s.ws.apiKey);
    } finally {
      await s.close();
    }
  },
);
