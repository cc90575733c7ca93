/** Probes of the seeded faults of the delivery headers (HDR) and addressing (HOOK). */
import { expect } from '@playwright/test';
import {
  byEvent,
  completeWith,
  first,
  lifecycle,
  logEvents,
  type Probes,
  bearer,
  dataPath,
  hmacVerdict,
  SECRET,
} from './helpers.ts';
import { turn, json, retried } from './steps.ts';

export const HEADERS_ADDRESSING_PROBES = {
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
  'event-header-mismatch': {
    run: async (s) => {
      await lifecycle(s);
      const r = s.host.callbacks().find((x) => (x.json as any).event === 'config.saved')!;
      expect(r.headers['x-service-event']).toBe('config_saved');
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
  'delivery-id-other-form': {
    run: async (s) => {
      const id = await s.open();
      expect((await first(s, 'onStart')).headers['x-service-delivery-id']).toBe(`dl-onStart-${id}`);
    },
  },
  'attempt-header-zero-based': {
    run: async (s) => {
      await lifecycle(s);
      expect(byEvent(s, 'onComplete')[0]!.headers['x-service-delivery-attempt']).toBe('0');
    },
  },
  'attempt-header-stuck-at-1': {
    timeScale: 0.05,
    run: async (s) => {
      await retried(s);
      expect(byEvent(s, 'onComplete').map((r) => r.headers['x-service-delivery-attempt'])).toEqual(['1', '1']);
    },
  },
  'attempt-header-on-config-saved': {
    run: async (s) => {
      await lifecycle(s);
      expect(byEvent(s, 'config.saved')[0]!.headers['x-service-delivery-attempt']).toBe('1');
    },
  },
  'signature-header-when-off': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).headers['x-service-signature']).toBe('');
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
  'sandbox-no-inherit-host': {
    run: async (s) => {
      const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey });
      await s.open('u-1', '/profile', sb.json.workspaceKey);
      const lines = await logEvents(s, (l) => l.some((x) => x.event === 'delivery.skipped'));
      expect(lines.some((x) => x.event === 'delivery.skipped')).toBe(true);
      expect(s.host.callbacks('onStart')).toHaveLength(0);
    },
  },
  'send-without-hookpath': {
    workspace: { hookPath: null },
    run: async (s) => {
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.method === 'POST' && x.url === '/'), 5000, 'a POST to hostBaseUrl');
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
  'listen-pipe-also-posts-host': {
    run: async (s) => {
      await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/listen`, { forwardTo: `${s.host.url}/pipe/p-1` });
      await s.open();
      await s.host.waitFor(
        (r) => r.some((x) => x.url === '/pipe/p-1') && r.some((x) => x.url === '/hooks/t-1'),
        5000,
        'the onStart at the pipe and at the hook',
      );
    },
  },
} satisfies Probes;
