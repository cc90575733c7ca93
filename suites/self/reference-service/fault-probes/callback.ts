/** Probes of the faults in callback payloads, headers, addressing, retries and timeouts. */
import { expect } from '@playwright/test';
import { startTestHost } from '../host.ts';
import { byEvent, completeWith, first, lifecycle, logEvents, waitMs, type Probes } from './helpers.ts';

export const CALLBACK_PROBES = {
  'onstart-without-servicekeys': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).json).not.toHaveProperty('serviceKeys');
    },
  },
  'eventtype-instead-of-event': {
    run: async (s) => {
      await s.open();
      const b = (await first(s, 'onStart')).json as any;
      expect(b.eventType).toBe('onStart');
      expect(b.event).toBeUndefined();
    },
  },
  'oncomplete-inline-data': {
    run: async (s) => {
      await lifecycle(s);
      expect((byEvent(s, 'onComplete')[0]!.json as any).data).toBeDefined();
    },
  },
  'timestamp-with-zone': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).json).toMatchObject({ timestamp: expect.stringMatching(/Z$/) });
    },
  },
  'configend-without-slash': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).json).toMatchObject({ configEnd: 'profile' });
    },
  },
  'oncomplete-without-path': {
    run: async (s) => {
      await lifecycle(s);
      expect(byEvent(s, 'onComplete')[0]!.json).not.toHaveProperty('path');
    },
  },
  'oncomplete-first-key-only': {
    run: async (s) => {
      const { keys } = await lifecycle(s);
      expect(keys).toHaveLength(2);
      expect((byEvent(s, 'onComplete')[0]!.json as any).serviceKeys).toEqual([keys[0]]);
    },
  },
  'conversation-id-string': {
    run: async (s) => {
      await s.open();
      expect(typeof ((await first(s, 'onStart')).json as any).conversationId).toBe('string');
    },
  },
  'event-header-mismatch': {
    run: async (s) => {
      await lifecycle(s);
      const r = s.host.callbacks().find((x) => (x.json as any).event === 'config.saved')!;
      expect(r.headers['x-service-event']).toBe('config_saved');
    },
  },
  'attempt-header-on-config-saved': {
    run: async (s) => {
      await lifecycle(s);
      expect(byEvent(s, 'config.saved')[0]!.headers['x-service-delivery-attempt']).toBe('1');
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
  'signature-header-when-off': {
    run: async (s) => {
      await s.open();
      expect((await first(s, 'onStart')).headers['x-service-signature']).toBe('');
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
  'send-without-hookpath': {
    workspace: { hookPath: null },
    run: async (s) => {
      await s.open();
      await s.host.waitFor((r) => r.some((x) => x.method === 'POST' && x.url === '/'), 5000, 'a POST to hostBaseUrl');
    },
  },
  'two-attempts-only': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 503 }));
      await first(s, 'onComplete', 2);
      await waitMs(20000 * 0.05 + 750);
      expect(byEvent(s, 'onComplete')).toHaveLength(2);
    },
  },
  'four-attempts': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 503 }));
      await first(s, 'onComplete', 4);
    },
  },
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
  'retry-config-saved-after-503': {
    timeScale: 0.05,
    run: async (s) => {
      s.host.script = (r) => ({ status: r.headers['x-service-event'] === 'config.saved' ? 503 : 200 });
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await first(s, 'config.saved', 2);
    },
  },
  'retry-oncomplete-after-4xx': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 400 }));
      await first(s, 'onComplete', 2);
    },
  },
  'no-retry-on-timeout': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ hang: true }));
      await first(s, 'onComplete');
      await waitMs((10000 + 5000) * 0.05 + 750);
      expect(byEvent(s, 'onComplete')).toHaveLength(1);
    },
  },
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
      expect(lines.filter((x) => x.event === 'delivery.failed' && x.deliveryId === `lc-${id}-onComplete`)).toHaveLength(
        1,
      );
    },
  },
  'no-retry-on-5xx': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 503 }));
      await first(s, 'onComplete');
      await waitMs(5000 * 0.05 + 750);
      expect(byEvent(s, 'onComplete')).toHaveLength(1);
    },
  },
  'request-timeout-20s': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, (r) =>
        r.headers['x-service-delivery-attempt'] === '1' ? { hang: true } : { status: 200 },
      );
      const a2 = await first(s, 'onComplete', 2);
      const gap = a2.at - byEvent(s, 'onComplete')[0]!.at;
      expect(gap).toBeGreaterThan((20000 + 5000) * 0.05 - 250); // clean: (10 s + 5 s) scaled
    },
  },
  'complete-waits-for-host': {
    timeScale: 0.05,
    run: async (s) => {
      s.host.script = (r) =>
        r.headers['x-service-event'] === 'onComplete' && r.headers['x-service-delivery-attempt'] === '1'
          ? { hang: true }
          : { status: 200 };
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      const t0 = performance.now();
      await s.driver('POST', `/conversations/${id}/complete`, {});
      expect(performance.now() - t0).toBeGreaterThan(10000 * 0.05 - 50);
      expect(byEvent(s, 'onComplete').length).toBeGreaterThanOrEqual(2);
    },
  },
  'retry-new-delivery-id': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, (r) => ({ status: r.headers['x-service-delivery-attempt'] === '1' ? 503 : 200 }));
      const a2 = await first(s, 'onComplete', 2);
      expect(a2.headers['x-service-delivery-id']).not.toBe(
        byEvent(s, 'onComplete')[0]!.headers['x-service-delivery-id'],
      );
    },
  },
} satisfies Probes;
