/** Probes of the seeded faults of delivery: attempts, back-off, timeouts (DELIV). */
import { expect } from '@playwright/test';
import { startTestHost } from '../host.ts';
import { byEvent, completeWith, first, logEvents, waitMs, type Probes, bearer, dataPath } from './helpers.ts';
import { turn, retried, failedAt } from './steps.ts';

export const DELIVERY_PROBES = {
  'retry-config-saved-after-503': {
    timeScale: 0.05,
    run: async (s) => {
      s.host.script = (r) => ({ status: r.headers['x-service-event'] === 'config.saved' ? 503 : 200 });
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await first(s, 'config.saved', 2);
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
  'no-retry-on-5xx': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 503 }));
      await first(s, 'onComplete');
      await waitMs(5000 * 0.05 + 750);
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
  'no-retry-on-timeout': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ hang: true }));
      await first(s, 'onComplete');
      await waitMs((10000 + 5000) * 0.05 + 750);
      expect(byEvent(s, 'onComplete')).toHaveLength(1);
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
  'backoff-20s-first': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 503 }));
      const a2 = await first(s, 'onComplete', 2);
      expect(a2.at - byEvent(s, 'onComplete')[0]!.endAt!).toBeGreaterThan(20_000 * 0.05 - 200);
    },
  },
  'backoff-from-attempt-start': {
    timeScale: 0.1,
    run: async (s) => {
      const attempt = (r: { headers: Record<string, string> }) => r.headers['x-service-delivery-attempt'];
      await completeWith(s, (r) => (attempt(r) === '1' ? { hang: true } : { status: 200 }));
      const a2 = await first(s, 'onComplete', 2);
      // Timed out at 1000 ms (10 s scaled); the start-based 500 ms back-off has already passed.
      expect(a2.at - byEvent(s, 'onComplete')[0]!.at).toBeLessThan((10_000 + 5_000) * 0.1 - 250);
    },
  },
  'backoff-refused-5s': {
    timeScale: 0.05,
    run: async (s) => {
      const dead = await startTestHost();
      await dead.close();
      await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, { hostBaseUrl: dead.url });
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      const second = await failedAt(s, `lc-${id}-onComplete`, 2, 3000);
      const third = await failedAt(s, `lc-${id}-onComplete`, 3, 3000);
      // 20 s scaled is 1000 ms after a refused attempt 2; the fault waits 250 ms.
      expect(third - second).toBeLessThan(600);
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
  'retry-oncomplete-after-4xx': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 400 }));
      await first(s, 'onComplete', 2);
    },
  },
  'retry-oncomplete-after-204': {
    timeScale: 0.05,
    run: async (s) => {
      await completeWith(s, () => ({ status: 204 }));
      await first(s, 'onComplete', 2);
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
} satisfies Probes;
