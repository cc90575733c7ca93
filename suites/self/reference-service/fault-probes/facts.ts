/** Probes of the seeded faults of the user-facts fetch (FACTS). */
import { expect } from '@playwright/test';
import { logEvents, type Probes, bearer, dataPath, facts, factsAnswered, SECRET } from './helpers.ts';
import { factsGet } from './steps.ts';

export const FACTS_PROBES = {
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
  'facts-delivery-id-other-form': {
    run: async (s) => {
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.method === 'GET'));
      expect(s.host.received.find((x) => x.method === 'GET')!.headers['x-service-delivery-id']).toBe('uf-u-1');
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
  'facts-partially-applied': {
    run: async (s) => {
      s.host.script = (r) =>
        r.method === 'GET' ? { status: 200, body: { company: 42, preferredLanguages: ['French'] } } : { status: 200 };
      await s.open();
      await factsAnswered(s, 1);
      expect((await facts(s)).facts).toEqual({ preferredLanguages: ['French'] });
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
  'english-not-appended': {
    run: async (s) => {
      s.host.script = (r) =>
        r.method === 'GET' ? { status: 200, body: { preferredLanguages: ['German'] } } : { status: 200 };
      await s.open();
      await factsAnswered(s, 1);
      expect((await facts(s)).languages).toEqual(['German']);
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
} satisfies Probes;
