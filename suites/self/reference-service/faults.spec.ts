/**
 * Each seeded fault changes the behaviour it names: one probe per fault, run against a service
 * started with only that fault. (The clean behaviour of the same probes is shown by the other
 * spec files of this folder.)
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { verifyCallback, verifyFactsRequest } from '../../../protocol/index.ts';
import { FAULTS, startReferenceService } from '../../../reference-service/index.ts';
import { isCcsError, clauseTags } from '../../../spec/index.ts';
import { stage, startTestHost, type Received, type Stage } from './host.ts';

const SECRET = 'test-only-hmac-secret-faults';
type Probe = { timeScale?: number; workspace?: Record<string, unknown>; run: (s: Stage) => Promise<void> };

const bearer = (s: Stage) => ({ authorization: `Bearer ${s.ws.bearerToken}` });
const dataPath = (s: Stage, tail: string) => `/api/${s.ws.workspaceKey}/endpoints/${tail}`;
const byEvent = (s: Stage, e: string) => s.host.callbacks(e);
const first = async (s: Stage, e: string, n = 1): Promise<Received> => {
  await s.host.waitFor(() => byEvent(s, e).length >= n, 10_000, `${n} ${e}`);
  return byEvent(s, e)[n - 1]!;
};
const waitMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** open /contacts, one turn saving two new instances (one with two fields), complete. */
async function lifecycle(s: Stage): Promise<{ id: number; keys: string[] }> {
  const id = await s.open('u-1', '/contacts');
  const t = await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io', name: 'A' } }, { fields: { email: 'b@x.io' } }] });
  await s.driver('POST', `/conversations/${id}/complete`, {});
  await first(s, 'onComplete');
  return { id, keys: t.json.serviceKeys };
}

async function completeWith(s: Stage, script: (r: Received) => { status?: number; hang?: boolean }): Promise<number> {
  s.host.script = (r) => (r.headers['x-service-event'] === 'onComplete' ? script(r) : { status: 200 });
  const id = await s.open();
  await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
  await s.driver('POST', `/conversations/${id}/complete`, {});
  return id;
}

async function logEvents(s: Stage, until: (lines: Array<{ event: string; deliveryId?: string }>) => boolean, ms = 8000): Promise<Array<{ event: string; deliveryId?: string }>> {
  const deadline = performance.now() + ms;
  let lines: Array<{ event: string; deliveryId?: string }> = [];
  while (performance.now() < deadline) {
    lines = (await s.driver('GET', '/log')).json.lines;
    if (until(lines)) break;
    await waitMs(20);
  }
  return lines;
}

async function hmacVerdict(s: Stage, r: Received, secret = SECRET): Promise<string> {
  return (await verifyCallback({ headers: r.headers, rawBody: r.raw, config: { mode: 'hmac', secrets: [secret] } })).verdict;
}

async function facts(s: Stage): Promise<any> {
  return (await s.driver('GET', `/workspaces/${s.ws.workspaceKey}/users/u-1/facts`)).json;
}

async function factsAnswered(s: Stage, n: number): Promise<void> {
  await s.host.waitFor((all) => all.filter((r) => r.method === 'GET' && r.endAt !== undefined).length >= n, 5000, `${n} facts answers`);
  await waitMs(100);
}

function multipart(parts: Array<{ name: string; filename?: string; body: string | Buffer }>): { body: Buffer; type: string } {
  const boundary = '----ccsfaults';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

const PROBES: Record<string, Probe> = {
  'onstart-without-servicekeys': { run: async (s) => { await s.open(); expect((await first(s, 'onStart')).json).not.toHaveProperty('serviceKeys'); } },
  'eventtype-instead-of-event': { run: async (s) => { await s.open(); const b = (await first(s, 'onStart')).json as any; expect(b.eventType).toBe('onStart'); expect(b.event).toBeUndefined(); } },
  'oncomplete-inline-data': { run: async (s) => { await lifecycle(s); expect((byEvent(s, 'onComplete')[0]!.json as any).data).toBeDefined(); } },
  'timestamp-with-zone': { run: async (s) => { await s.open(); expect((await first(s, 'onStart')).json).toMatchObject({ timestamp: expect.stringMatching(/Z$/) }); } },
  'configend-without-slash': { run: async (s) => { await s.open(); expect((await first(s, 'onStart')).json).toMatchObject({ configEnd: 'profile' }); } },
  'oncomplete-without-path': { run: async (s) => { await lifecycle(s); expect(byEvent(s, 'onComplete')[0]!.json).not.toHaveProperty('path'); } },
  'oncomplete-first-key-only': { run: async (s) => { const { keys } = await lifecycle(s); expect(keys).toHaveLength(2); expect((byEvent(s, 'onComplete')[0]!.json as any).serviceKeys).toEqual([keys[0]]); } },
  'conversation-id-string': { run: async (s) => { await s.open(); expect(typeof ((await first(s, 'onStart')).json as any).conversationId).toBe('string'); } },
  'event-header-mismatch': { run: async (s) => { await lifecycle(s); const r = s.host.callbacks().find((x) => (x.json as any).event === 'config.saved')!; expect(r.headers['x-service-event']).toBe('config_saved'); } },
  'attempt-header-on-config-saved': { run: async (s) => { await lifecycle(s); expect(byEvent(s, 'config.saved')[0]!.headers['x-service-delivery-attempt']).toBe('1'); } },
  'delivery-id-other-form': { run: async (s) => { const id = await s.open(); expect((await first(s, 'onStart')).headers['x-service-delivery-id']).toBe(`dl-onStart-${id}`); } },
  'attempt-header-zero-based': { run: async (s) => { await lifecycle(s); expect(byEvent(s, 'onComplete')[0]!.headers['x-service-delivery-attempt']).toBe('0'); } },
  'signature-header-when-off': { run: async (s) => { await s.open(); expect((await first(s, 'onStart')).headers['x-service-signature']).toBe(''); } },
  'sandbox-no-inherit-host': {
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey });
      await s.open('u-1', '/profile', sb.json.workspaceKey);
      const lines = await logEvents(s, (l) => l.some((x) => x.event === 'delivery.skipped'));
      expect(lines.some((x) => x.event === 'delivery.skipped')).toBe(true);
      expect(s.host.callbacks('onStart')).toHaveLength(0);
    },
  },
  'send-without-hookpath': { workspace: { hookPath: null }, run: async (s) => { await s.open(); await s.host.waitFor((r) => r.some((x) => x.method === 'POST' && x.url === '/'), 5000, 'a POST to hostBaseUrl'); } },
  'two-attempts-only': { timeScale: 0.05, run: async (s) => { await completeWith(s, () => ({ status: 503 })); await first(s, 'onComplete', 2); await waitMs(20000 * 0.05 + 750); expect(byEvent(s, 'onComplete')).toHaveLength(2); } },
  'four-attempts': { timeScale: 0.05, run: async (s) => { await completeWith(s, () => ({ status: 503 })); await first(s, 'onComplete', 4); } },
  'backoff-5s-both': {
    timeScale: 0.1,
    run: async (s) => {
      await completeWith(s, () => ({ status: 503 }));
      const a3 = await first(s, 'onComplete', 3);
      const [a1, a2] = byEvent(s, 'onComplete');
      const gap2 = a3.at - a2!.endAt!;
      expect(Math.abs(gap2 - 500)).toBeLessThanOrEqual(300);
      expect(a2!.at - a1!.endAt!).toBeLessThan(1000);
    },
  },
  'retry-config-saved-after-503': { timeScale: 0.05, run: async (s) => { s.host.script = (r) => ({ status: r.headers['x-service-event'] === 'config.saved' ? 503 : 200 }); const id = await s.open(); await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] }); await first(s, 'config.saved', 2); } },
  'retry-oncomplete-after-4xx': { timeScale: 0.05, run: async (s) => { await completeWith(s, () => ({ status: 400 })); await first(s, 'onComplete', 2); } },
  'no-retry-on-timeout': { timeScale: 0.05, run: async (s) => { await completeWith(s, () => ({ hang: true })); await first(s, 'onComplete'); await waitMs((10000 + 5000) * 0.05 + 750); expect(byEvent(s, 'onComplete')).toHaveLength(1); } },
  'no-retry-on-connect-refused': {
    timeScale: 0.05,
    run: async (s) => {
      const dead = await startTestHost();
      await dead.close();
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, { hostBaseUrl: dead.url });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await logEvents(s, (l) => l.some((x) => x.event === 'delivery.failed' && x.deliveryId === `lc-${id}-onComplete`));
      await waitMs(5000 * 0.05 + 750);
      const lines = await logEvents(s, () => true);
      expect(lines.filter((x) => x.event === 'delivery.failed' && x.deliveryId === `lc-${id}-onComplete`)).toHaveLength(1);
    },
  },
  'no-retry-on-5xx': { timeScale: 0.05, run: async (s) => { await completeWith(s, () => ({ status: 503 })); await first(s, 'onComplete'); await waitMs(5000 * 0.05 + 750); expect(byEvent(s, 'onComplete')).toHaveLength(1); } },
  'request-timeout-20s': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, (r) => (r.headers['x-service-delivery-attempt'] === '1' ? { hang: true } : { status: 200 }));
      const a2 = await first(s, 'onComplete', 2);
      const gap = a2.at - byEvent(s, 'onComplete')[0]!.at;
      expect(gap).toBeGreaterThan((20000 + 5000) * 0.05 - 250); // clean: (10 s + 5 s) scaled
    },
  },
  'complete-waits-for-host': {
    timeScale: 0.05,
    run: async (s) => {
      s.host.script = (r) => (r.headers['x-service-event'] === 'onComplete' && r.headers['x-service-delivery-attempt'] === '1' ? { hang: true } : { status: 200 });
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      const t0 = performance.now();
      await s.driver('POST', `/conversations/${id}/complete`, {});
      expect(performance.now() - t0).toBeGreaterThan(10000 * 0.05 - 50);
      expect(byEvent(s, 'onComplete').length).toBeGreaterThanOrEqual(2);
    },
  },
  'retry-new-delivery-id': { timeScale: 0.05, run: async (s) => { await completeWith(s, (r) => ({ status: r.headers['x-service-delivery-attempt'] === '1' ? 503 : 200 })); const a2 = await first(s, 'onComplete', 2); expect(a2.headers['x-service-delivery-id']).not.toBe(byEvent(s, 'onComplete')[0]!.headers['x-service-delivery-id']); } },
  'hmac-base-without-dot': { workspace: { signing: { mode: 'hmac', secret: SECRET } }, run: async (s) => { await s.open(); expect(await hmacVerdict(s, await first(s, 'onStart'))).toBe('invalid'); } },
  'sign-reserialized-body': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      await s.open();
      const r = await first(s, 'onStart');
      const keys = (await s.api('GET', '/.well-known/service/jwks.json')).json;
      expect((await verifyCallback({ headers: r.headers, rawBody: r.raw, config: { mode: 'jwks', keys } })).verdict).toBe('invalid');
    },
  },
  'stale-t': { workspace: { signing: { mode: 'hmac', secret: SECRET } }, run: async (s) => { await s.open(); expect(await hmacVerdict(s, await first(s, 'onStart'))).toBe('stale'); } },
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
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey, signing: { mode: 'jwks' } });
      expect(sb.json.signing.kid).toBe(s.ws.signing.kid);
    },
  },
  'hmac-uppercase-hex': { workspace: { signing: { mode: 'hmac', secret: SECRET } }, run: async (s) => { await s.open(); const r = await first(s, 'onStart'); expect(r.headers['x-service-signature']).toMatch(/v1=[0-9A-F]{64}$/); expect(await hmacVerdict(s, r)).not.toBe('valid'); } },
  'facts-signed-without-get': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.method === 'GET'));
      const g = s.host.received.find((x) => x.method === 'GET')!;
      expect((await verifyFactsRequest({ requestTarget: g.url, headers: g.headers, config: { mode: 'hmac', secrets: [SECRET] } })).verdict).toBe('invalid');
    },
  },
  'rotation-signs-with-neither': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, { signing: { mode: 'hmac', secret: 'test-only-rotated-secret', previousSecret: SECRET } });
      await s.open();
      const r = await first(s, 'onStart');
      expect(await hmacVerdict(s, r, 'test-only-rotated-secret')).toBe('invalid');
      expect(await hmacVerdict(s, r, SECRET)).toBe('invalid');
    },
  },
  'hmac-sandbox-parent-secret': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey, signing: { mode: 'hmac', secret: 'test-only-sandbox-secret' } });
      await s.open('u-1', '/profile', sb.json.workspaceKey);
      const r = await first(s, 'onStart');
      expect(await hmacVerdict(s, r, 'test-only-sandbox-secret')).toBe('invalid');
      expect(await hmacVerdict(s, r, SECRET)).toBe('valid');
    },
  },
  'tool-dispatch-unsigned': { workspace: { signing: { mode: 'hmac', secret: SECRET } }, run: async (s) => { const id = await s.open(); await s.driver('POST', `/conversations/${id}/tool-calls`, { toolClass: 'lookup' }); const r = s.host.received.find((x) => x.headers['x-service-event'] === 'tool.dispatch')!; expect(r.headers['x-service-signature']).toBeUndefined(); } },
  'tool-dispatch-to-hook': { run: async (s) => { const id = await s.open(); await s.driver('POST', `/conversations/${id}/tool-calls`, { toolClass: 'lookup' }); const r = s.host.received.find((x) => x.headers['x-service-event'] === 'tool.dispatch')!; expect(r.url).toBe('/hooks/t-1'); } },
  'bulk-501-keys': { run: async (s) => { await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, { configEnd: '/contacts', endUserHandle: 'u-1', count: 501 }); const id = await s.open('u-1', '/contacts'); await s.driver('POST', `/conversations/${id}/bulk-delete`, {}); expect(((await first(s, 'config.bulk_deleted')).json as any).keys).toHaveLength(501); } },
  'pages-from-zero': { run: async (s) => { await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, { configEnd: '/contacts', endUserHandle: 'u-1', count: 501 }); const id = await s.open('u-1', '/contacts'); await s.driver('POST', `/conversations/${id}/bulk-delete`, {}); await first(s, 'config.bulk_deleted', 2); expect(byEvent(s, 'config.bulk_deleted').map((r) => (r.json as any).page)).toEqual([0, 1]); } },
  'count-only-page-one': { run: async (s) => { await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, { configEnd: '/contacts', endUserHandle: 'u-1', count: 501 }); const id = await s.open('u-1', '/contacts'); await s.driver('POST', `/conversations/${id}/bulk-delete`, {}); expect((await first(s, 'config.bulk_deleted', 2)).json).not.toHaveProperty('count'); } },
  'saved-on-rest-write': { run: async (s) => { await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s)); await first(s, 'config.saved'); } },
  'saved-per-field': { run: async (s) => { await lifecycle(s); expect(byEvent(s, 'config.saved')).toHaveLength(3); } },
  'rest-write-delivered': { run: async (s) => { const w = await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s)); expect(w.json.callbackStatus).toBe('DELIVERED'); } },
  'saved-status-pending-after-complete': {
    run: async (s) => {
      const id = await s.open();
      const t = await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { age: 1 } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ serviceKey: t.json.serviceKeys[0], fields: { age: 2 } }] });
      expect(((await first(s, 'config.saved', 2)).json as any).callbackStatus).toBe('PENDING');
      expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.callbackStatus).toBe('DELIVERED');
    },
  },
  'deleted-before-removal': {
    run: async (s) => {
      s.host.script = (r) => (r.headers['x-service-event'] === 'config.deleted' ? { hang: true } : { status: 200 });
      const id = await s.open('u-1', '/contacts');
      const t = await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      await first(s, 'config.deleted');
      expect((await s.api('GET', dataPath(s, `contacts/data/u-1/${t.json.serviceKeys[0]}`), undefined, bearer(s))).status).toBe(200);
    },
  },
  'sandbox-key-covers-production': { run: async (s) => { const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey }); expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, { authorization: `Bearer ${sb.json.bearerToken}` })).status).not.toBe(403); } },
  'data-get-by-key-without-bearer': { run: async (s) => { const w = await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s)); expect((await s.api('GET', dataPath(s, `contacts/data/u-1/${w.json.serviceKey}`))).status).toBe(200); } },
  'foreign-key-401': { run: async (s) => { const o = await s.driver('POST', '/workspaces', {}); expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, { authorization: `Bearer ${o.json.bearerToken}` })).status).toBe(401); } },
  'put-answers-404': { run: async (s) => { expect((await s.api('PUT', dataPath(s, 'profile/data/u-1'), { data: {} }, bearer(s))).status).toBe(404); } },
  'not-found-with-message': { run: async (s) => { const r = await s.api('GET', dataPath(s, 'profile/data/u-9'), undefined, bearer(s)); expect(r.status).toBe(404); expect(r.json).toHaveProperty('message'); } },
  'held-record-read-200': { run: async (s) => { const w = await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s)); await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/records/${w.json.serviceKey}/migration-hold`, { held: true }); expect((await s.api('GET', dataPath(s, `contacts/data/u-1/${w.json.serviceKey}`), undefined, bearer(s))).status).toBe(200); } },
  'list-drops-unbound': { run: async (s) => { await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 42 } }, bearer(s)); expect((await s.api('GET', dataPath(s, 'contacts/data/u-1'), undefined, bearer(s))).json).toEqual([]); } },
  'identity-conflict-no-existing-key': { run: async (s) => { await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s)); const c = await s.api('POST', dataPath(s, 'contacts/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s)); expect(c.status).toBe(409); expect(c.json).not.toHaveProperty('existingKey'); } },
  'draft-completed-at-null': { run: async (s) => { await s.api('POST', dataPath(s, 'profile/data/u-1'), { data: { email: 'a@x.io' } }, bearer(s)); expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.completedAt).toBeNull(); } },
  'embed-handle-255-rejected': { run: async (s) => { expect((await s.api('POST', `/api/${s.ws.workspaceKey}/embed-tokens`, { endUserHandle: 'a'.repeat(255) }, { authorization: s.ws.embedAuthorization })).status).toBe(400); } },
  'embed-context-16385-accepted': { run: async (s) => { const oc = { data: { note: 'x'.repeat(16385 - JSON.stringify({ data: { note: '' } }).length) } }; expect(JSON.stringify(oc).length).toBe(16385); expect((await s.api('POST', `/api/${s.ws.workspaceKey}/embed-tokens`, { endUserHandle: 'u', openingContext: oc }, { authorization: s.ws.embedAuthorization })).status).toBe(200); } },
  'embed-configend-accepted': { run: async (s) => { expect((await s.api('POST', `/api/${s.ws.workspaceKey}/embed-tokens`, { endUserHandle: 'u', configEnd: '/profile' }, { authorization: s.ws.embedAuthorization })).status).toBe(200); } },
  'upload-file-25mb-plus-1-accepted': {
    run: async (s) => {
      const m = multipart([{ name: 'manifest', body: JSON.stringify({ sources: ['big'] }) }, { name: 'big', filename: 'big', body: Buffer.alloc(25_000_001, 98) }]);
      const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, { method: 'POST', body: m.body as unknown as BodyInit, headers: { 'content-type': m.type, 'x-api-key': s.ws.apiKey } });
      expect(res.status).toBe(202);
    },
  },
  'upload-status-other-workspace': {
    run: async (s) => {
      const m = multipart([{ name: 'manifest', body: JSON.stringify({ sources: [] }) }]);
      const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, { method: 'POST', body: m.body as unknown as BodyInit, headers: { 'content-type': m.type, 'x-api-key': s.ws.apiKey } });
      const { id } = (await res.json()) as { id: string };
      const o = await s.driver('POST', '/workspaces', {});
      expect((await s.api('GET', `/api/${o.json.workspaceKey}/upload/status/${id}`, undefined, { 'x-api-key': o.json.apiKey })).status).toBe(200);
    },
  },
  'facts-applied-same-open': { run: async (s) => { s.host.script = (r) => (r.method === 'GET' ? { status: 200, body: { preferredLanguages: ['German'] } } : { status: 200 }); const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/conversations`, { endUserHandle: 'u-1', configEnd: '/profile' }); expect(r.json.openerLanguage).toBe('German'); } },
  'facts-partially-applied': {
    run: async (s) => {
      s.host.script = (r) => (r.method === 'GET' ? { status: 200, body: { company: 42, preferredLanguages: ['French'] } } : { status: 200 });
      await s.open();
      await factsAnswered(s, 1);
      expect((await facts(s)).facts).toEqual({ preferredLanguages: ['French'] });
    },
  },
  'english-not-appended': { run: async (s) => { s.host.script = (r) => (r.method === 'GET' ? { status: 200, body: { preferredLanguages: ['German'] } } : { status: 200 }); await s.open(); await factsAnswered(s, 1); expect((await facts(s)).languages).toEqual(['German']); } },
  'facts-delivery-id-other-form': { run: async (s) => { await s.open(); await s.host.waitFor((r) => r.some((x) => x.method === 'GET')); expect(s.host.received.find((x) => x.method === 'GET')!.headers['x-service-delivery-id']).toBe('uf-u-1'); } },
};

test('the fault registry: at least 30 faults, kebab-case names, each citing a clause of spec/clauses.yaml with its area, over every service area', () => {
  const clauses = (parse(readFileSync(new URL('../../../spec/clauses.yaml', import.meta.url), 'utf8')) as { clauses: Array<{ id: string; side: string }> }).clauses;
  const ids = new Map(clauses.map((c) => [c.id, c]));
  expect(FAULTS.length).toBeGreaterThanOrEqual(30);
  expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
  for (const f of FAULTS) {
    expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(ids.get(f.clause)?.side, `${f.name} cites ${f.clause}`).toBe('service');
    expect(f.clause.startsWith(`${f.area}-`)).toBe(true);
    expect(f.sentence.length).toBeGreaterThan(10);
  }
  const areas = new Set(FAULTS.map((f) => f.area));
  for (const a of ['EVT', 'HDR', 'HOOK', 'DELIV', 'SIGN', 'FACTS', 'STATE', 'ENV', 'EMBED', 'UPLOAD', 'DATA', 'AUTH', 'ERR', 'PAGE', 'TOOL']) expect(areas.has(a), a).toBe(true);
  expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
});

test('an unknown fault name is refused with REFSVC_FAULT_UNKNOWN naming it and listing the known ones', async () => {
  const error = await startReferenceService({ faults: ['no-such-fault'] }).then(() => undefined, (e: unknown) => e);
  expect(isCcsError(error, 'REFSVC_FAULT_UNKNOWN')).toBe(true);
  expect((error as Error).message).toContain('no-such-fault');
  expect((error as Error).message).toContain('stale-t');
});

for (const fault of FAULTS) {
  test(`seeded fault ${fault.name} changes the behaviour it names (${fault.clause})`, { tag: clauseTags(fault.clause) }, async () => {
    const probe = PROBES[fault.name];
    expect(probe, `no probe for ${fault.name}`).toBeDefined();
    const s = await stage({ faults: [fault.name], timeScale: probe!.timeScale ?? 1, workspace: probe!.workspace ?? {} });
    try {
      await probe!.run(s);
    } finally {
      await s.close();
    }
  });
}
