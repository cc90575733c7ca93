/** Probes of the fault-model rows' faults in callbacks: payloads, headers, addressing, delivery, signing, facts and states. */
import { expect } from '@playwright/test';
import { verifyFactsRequest } from '../../../../protocol/index.ts';
import {
  bearer,
  byEvent,
  completeWith,
  dataPath,
  facts,
  factsAnswered,
  first,
  hmacVerdict,
  lifecycle,
  logEvents,
  waitMs,
  SECRET,
  type Probes,
} from './helpers.ts';
import type { Received, Stage } from '../host.ts';

const turn = (s: Stage, id: number, saves: unknown[]) => s.driver('POST', `/conversations/${id}/turns`, { saves });
const json = (r: Received) => r.json as Record<string, any>;
const factsGet = async (s: Stage) =>
  (await s.host.waitFor((r) => r.some((x) => x.method === 'GET'))).find((x) => x.method === 'GET')!;
const seedAndBulk = async (s: Stage, count: number) => {
  await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
    configEnd: '/contacts',
    endUserHandle: 'u-1',
    count,
  });
  const id = await s.open('u-1', '/contacts');
  await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
  return id;
};
/** Three onComplete attempts: 503, 503, then 200. */
const retried = async (s: Stage) => {
  await completeWith(s, (r) => ({ status: r.headers['x-service-delivery-attempt'] === '3' ? 200 : 503 }));
  return first(s, 'onComplete', 2);
};

export const ROW_CALLBACK_PROBES = {
  'lifecycle-body-array': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      expect(Array.isArray((await first(s, 'onSessionTimeout')).json)).toBe(true);
    },
  },
  'bulk-extra-member': {
    run: async (s) => {
      await seedAndBulk(s, 1);
      expect(json(await first(s, 'config.bulk_deleted'))).toHaveProperty('scope', '/contacts');
    },
  },
  'interrupted-without-timestamp': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      expect(json(await first(s, 'onSessionInterrupted'))).not.toHaveProperty('timestamp');
    },
  },
  'changed-fields-with-values': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 3 } }]);
      expect(json(await first(s, 'config.saved')).changedFields).toEqual(['age=3']);
    },
  },
  'saved-status-lowercase': {
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 3 } }]);
      expect(json(await first(s, 'config.saved')).callbackStatus).toBe('pending');
    },
  },
  'deleted-with-servicekeys': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      expect(json(await first(s, 'config.deleted')).serviceKeys).toEqual(t.json.serviceKeys);
    },
  },
  'bulk-count-string': {
    run: async (s) => {
      await seedAndBulk(s, 2);
      expect(json(await first(s, 'config.bulk_deleted')).count).toBe('2');
    },
  },
  'bulk-deleted-org-handle': {
    run: async (s) => {
      await seedAndBulk(s, 1);
      expect(json(await first(s, 'config.bulk_deleted')).endUserHandle).toBe(`org-${s.ws.workspaceKey}`);
    },
  },
  'timestamp-no-millis': {
    run: async (s) => {
      await s.open();
      expect(json(await first(s, 'onStart')).timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    },
  },
  'timestamp-local-time': {
    run: async (s) => {
      await s.open();
      expect(Date.parse(`${json(await first(s, 'onStart')).timestamp}Z`) - Date.now()).toBeGreaterThan(3_500_000);
    },
  },
  'timeout-event-misspelled': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      expect(json(await first(s, 'onSessionTimedOut')).event).toBe('onSessionTimedOut');
    },
  },
  'onstart-first-conversation-only': {
    run: async (s) => {
      const a = await s.open();
      await s.driver('POST', `/conversations/${a}/interrupt`, {});
      await s.open();
      await first(s, 'onSessionInterrupted');
      await waitMs(300);
      expect(byEvent(s, 'onStart')).toHaveLength(1);
    },
  },
  'complete-when-all-fields-saved': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      await turn(s, id, [{ fields: { email: 'a@x.io', name: 'A' } }]);
      await first(s, 'onComplete');
    },
  },
  'interrupt-silent-without-drafts': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/interrupt`, {});
      await first(s, 'onStart');
      await s.host.expectNone(
        (r) => r.headers['x-service-event'] === 'onSessionInterrupted',
        300,
        'onSessionInterrupted',
      );
    },
  },
  'sweep-silent-without-drafts': {
    run: async (s) => {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/idle-sweep`, {});
      await first(s, 'onStart');
      await s.host.expectNone((r) => r.headers['x-service-event'] === 'onSessionTimeout', 300, 'onSessionTimeout');
    },
  },
  'bulk-deleted-only-per-key': {
    run: async (s) => {
      await seedAndBulk(s, 2);
      await first(s, 'config.deleted', 2);
      expect(byEvent(s, 'config.bulk_deleted')).toHaveLength(0);
    },
  },
  'content-type-text-on-deleted': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      expect((await first(s, 'config.deleted')).headers['content-type']).toBe('text/plain');
    },
  },
  'retry-content-type-text': {
    timeScale: 0.05,
    run: async (s) => {
      const a2 = await retried(s);
      expect(a2.headers['content-type']).toBe('text/plain');
      expect(byEvent(s, 'onComplete')[0]!.headers['content-type']).toBe('application/json');
    },
  },
  'retry-event-header-missing': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, (r) => ({ status: r.headers['x-service-delivery-attempt'] === '1' ? 503 : 200 }));
      await s.host.waitFor(
        (r) =>
          r.filter((x) => x.url === '/hooks/t-1' && x.headers['x-service-delivery-attempt'] !== undefined).length >= 2,
        5000,
        'two onComplete attempts',
      );
      expect(
        s.host.received.filter((x) => x.headers['x-service-delivery-attempt'] === '2')[0]!.headers['x-service-event'],
      ).toBeUndefined();
    },
  },
  'attempt-header-stuck-at-1': {
    timeScale: 0.05,
    run: async (s) => {
      await retried(s);
      expect(byEvent(s, 'onComplete').map((r) => r.headers['x-service-delivery-attempt'])).toEqual(['1', '1']);
    },
  },
  'retry-unsigned': {
    timeScale: 0.05,
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      const a2 = await retried(s);
      expect(a2.headers['x-service-signature']).toBeUndefined();
      expect(await hmacVerdict(s, byEvent(s, 'onComplete')[0]!)).toBe('valid');
    },
  },
  'deleted-sent-with-put': {
    run: async (s) => {
      const id = await s.open('u-1', '/contacts');
      const t = await turn(s, id, [{ fields: { email: 'a@x.io' } }]);
      await s.driver('POST', `/conversations/${id}/delete`, { serviceKey: t.json.serviceKeys[0] });
      await s.host.waitFor((r) =>
        r.some((x) => x.method === 'PUT' && x.headers['x-service-event'] === 'config.deleted'),
      );
    },
  },
  'sandbox-hookpath-suffixed': {
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey });
      await s.open('u-1', '/profile', sb.json.workspaceKey);
      await s.host.waitFor((r) => r.some((x) => x.url === '/hooks/t-1/sandbox'));
    },
  },
  'no-host-drops-saves': {
    workspace: { hookPath: null },
    run: async (s) => {
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 3 } }]);
      expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.data.age).toBeNull();
    },
  },
  'retry-saved-after-reset': {
    run: async (s) => {
      let n = 0;
      s.host.script = (r) =>
        r.headers['x-service-event'] === 'config.saved' && n++ === 0 ? { reset: true } : { status: 200 };
      const id = await s.open();
      await turn(s, id, [{ fields: { age: 3 } }]);
      await first(s, 'config.saved', 2);
    },
  },
  'request-timeout-5s': {
    timeScale: 0.1,
    run: async (s) => {
      await completeWith(s, (r) =>
        r.headers['x-service-delivery-attempt'] === '1' ? { hang: true } : { status: 200 },
      );
      const a2 = await first(s, 'onComplete', 2);
      expect(a2.at - byEvent(s, 'onComplete')[0]!.at).toBeLessThan((10_000 + 5_000) * 0.1 - 200);
    },
  },
  'backoff-20s-first': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 503 }));
      const a2 = await first(s, 'onComplete', 2);
      expect(a2.at - byEvent(s, 'onComplete')[0]!.endAt!).toBeGreaterThan(20_000 * 0.05 - 200);
    },
  },
  'retry-oncomplete-after-204': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 204 }));
      await first(s, 'onComplete', 2);
    },
  },
  'retry-fresh-timestamp-body': {
    timeScale: 0.05,
    run: async (s) => {
      const a2 = await retried(s);
      expect(a2.raw.equals(byEvent(s, 'onComplete')[0]!.raw)).toBe(false);
    },
  },
  'no-repeat-oncomplete': {
    run: async (s) => {
      const id = await s.open();
      const t = await turn(s, id, [{ fields: { age: 1 } }]);
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await first(s, 'onComplete');
      const c2 = await s.open();
      await turn(s, c2, [{ serviceKey: t.json.serviceKeys[0], fields: { age: 2 } }]);
      await s.driver('POST', `/conversations/${c2}/complete`, {});
      await first(s, 'config.saved', 2);
      await waitMs(300);
      expect(byEvent(s, 'onComplete')).toHaveLength(1);
    },
  },
  'status-follows-delivery': {
    timeScale: 0.05,
    run: async (s) => {
      const id = await completeWith(s, () => ({ status: 503 }));
      await logEvents(s, (l) => l.some((x) => x.event === 'delivery.lost' && x.deliveryId === `lc-${id}-onComplete`));
      expect((await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s))).json.callbackStatus).toBe(
        'PENDING',
      );
    },
  },
  'reads-wait-for-deliveries': {
    run: async (s) => {
      s.host.script = (r) => (r.headers['x-service-event'] === 'onStart' ? { delayMs: 800 } : { status: 200 });
      await s.open();
      const t0 = performance.now();
      await s.api('GET', dataPath(s, 'profile/data/u-1'), undefined, bearer(s));
      expect(performance.now() - t0).toBeGreaterThan(500);
    },
  },
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
  'jws-without-kid': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      await s.open();
      const h = (await first(s, 'onStart')).headers['x-service-signature']!;
      expect(JSON.parse(Buffer.from(h.split('.')[0]!, 'base64url').toString())).not.toHaveProperty('kid');
    },
  },
  'jwks-private-d': {
    run: async (s) => {
      expect((await s.api('GET', '/.well-known/service/jwks.json')).json.keys[0]).toHaveProperty('d');
    },
  },
  'hmac-header-v1-first': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).headers['x-service-signature']).toMatch(/^v1=[0-9a-f]{64},t=\d+$/);
    },
  },
  'facts-query-other-name': {
    run: async (s) => {
      await s.open();
      expect((await factsGet(s)).url).toBe('/user-facts?user=u-1');
    },
  },
  'facts-query-unencoded': {
    run: async (s) => {
      await s.open('u 1&x');
      expect((await factsGet(s)).url).toBe('/user-facts?endUserHandle=u%201&x');
    },
  },
  'facts-accept-missing': {
    run: async (s) => {
      await s.open();
      expect((await factsGet(s)).headers.accept).toBeUndefined();
    },
  },
  'facts-unsigned': {
    workspace: { signing: { mode: 'hmac', secret: SECRET } },
    run: async (s) => {
      await s.open();
      expect((await factsGet(s)).headers['x-service-signature']).toBeUndefined();
    },
  },
  'open-waits-for-facts': {
    run: async (s) => {
      s.host.script = (r) => (r.method === 'GET' ? { delayMs: 600, status: 200, body: {} } : { status: 200 });
      const t0 = performance.now();
      await s.open();
      expect(performance.now() - t0).toBeGreaterThan(500);
    },
  },
  'facts-timeout-20s': {
    timeScale: 0.05,
    run: async (s) => {
      s.host.script = (r) => (r.method === 'GET' ? { hang: true } : { status: 200 });
      await s.open();
      await logEvents(s, (l) => l.some((x) => x.event === 'facts.failed'), 3000);
      const g = s.host.received.find((x) => x.method === 'GET')!;
      expect(g.endAt! - g.at).toBeGreaterThan(20_000 * 0.05 - 100);
    },
  },
  'facts-cache-forever': {
    run: async (s) => {
      s.host.script = (r) => (r.method === 'GET' ? { status: 200, body: { company: 'Acme' } } : { status: 200 });
      await s.open();
      await factsAnswered(s, 1);
      await s.driver('POST', '/clock/advance', { ms: 25 * 3_600_000 });
      expect((await facts(s)).facts).toEqual({ company: 'Acme' });
    },
  },
  'facts-non-object-clears': {
    run: async (s) => {
      let n = 0;
      s.host.script = (r) =>
        r.method === 'GET'
          ? { status: 200, body: n++ === 0 ? { company: 'Acme' } : [{ company: 'Acme' }] }
          : { status: 200 };
      await s.open();
      await factsAnswered(s, 1);
      expect((await facts(s)).facts).toEqual({ company: 'Acme' });
      await s.open();
      await factsAnswered(s, 2);
      expect((await facts(s)).facts).toBeNull();
    },
  },
  'opener-last-language': {
    run: async (s) => {
      s.host.script = (r) =>
        r.method === 'GET' ? { status: 200, body: { preferredLanguages: ['Spanish', 'German'] } } : { status: 200 };
      await s.open();
      await factsAnswered(s, 1);
      expect(
        (
          await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/conversations`, {
            endUserHandle: 'u-1',
            configEnd: '/profile',
          })
        ).json.openerLanguage,
      ).toBe('German');
    },
  },
  'no-languages-empty': {
    run: async (s) => {
      s.host.script = (r) => (r.method === 'GET' ? { status: 200, body: { company: 'Acme' } } : { status: 200 });
      await s.open();
      await factsAnswered(s, 1);
      expect((await facts(s)).languages).toEqual([]);
    },
  },
  'facts-without-callback-accepted': {
    run: async (s) => {
      expect(
        (await s.driver('POST', '/workspaces', { classes: [{ configEnd: '/facts', kind: 'FACTS', fields: [] }] }))
          .status,
      ).toBe(201);
    },
  },
  'facts-data-route-200': {
    run: async (s) => {
      expect((await s.api('GET', dataPath(s, 'facts/data/u-1'), undefined, bearer(s))).status).toBe(200);
    },
  },
  'hook-health-get': {
    run: async (s) => {
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.method === 'GET' && x.url === '/hooks/t-1'));
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
  'bulk-page-one-twice': {
    run: async (s) => {
      await seedAndBulk(s, 501);
      const p2 = await first(s, 'config.bulk_deleted', 2);
      expect(p2.raw.equals(byEvent(s, 'config.bulk_deleted')[0]!.raw)).toBe(true);
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
