/**
 * How the reference service delivers: onComplete retries and back-off, what is never retried,
 * bulk paging, order per conversation and isolation from a host that hangs, resets or refuses.
 */
import { test, expect } from '@playwright/test';
import { verifyCallback } from '../../../protocol/index.ts';
import { stage, startTestHost } from './host.ts';
import { clauseTags } from '../../../spec/index.ts';

const SECRET = 'test-only-hmac-secret-1';

test(
  'onComplete after 503s: 3 attempts, back-off about 5 s then 20 s scaled, same id and bytes, re-signed (DELIV-4 DELIV-7 DELIV-8 DELIV-11 DELIV-14 HDR-4 SIGN-5)',
  { tag: clauseTags('DELIV-4', 'DELIV-7', 'DELIV-8', 'DELIV-11', 'DELIV-14', 'HDR-4', 'SIGN-5') },
  async () => {
    const scale = 0.1;
    const s = await stage({ timeScale: scale, workspace: { signing: { mode: 'hmac', secret: SECRET } } });
    try {
      s.host.script = (r) => (r.headers['x-service-event'] === 'onComplete' ? { status: 503 } : { status: 200 });
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await s.host.waitFor(() => s.host.callbacks('onComplete').length === 3, 15_000, 'three onComplete attempts');
      await s.host.expectNone(
        (r) => s.host.callbacks('onComplete').length > 3 && r.headers['x-service-event'] === 'onComplete',
        20_000 * scale + 1000,
        'a fourth attempt',
      );
      const a = s.host.callbacks('onComplete');
      expect(a.map((r) => r.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3']);
      expect(new Set(a.map((r) => r.headers['x-service-delivery-id'])).size).toBe(1);
      expect(a[1]!.raw.equals(a[0]!.raw) && a[2]!.raw.equals(a[0]!.raw)).toBe(true);
      for (const r of a)
        expect(
          (await verifyCallback({ headers: r.headers, rawBody: r.raw, config: { mode: 'hmac', secrets: [SECRET] } }))
            .verdict,
        ).toBe('valid');
      const gap1 = a[1]!.at - a[0]!.endAt!;
      const gap2 = a[2]!.at - a[1]!.endAt!;
      const tol = (ms: number) => Math.max(250, ms * 0.25);
      expect(Math.abs(gap1 - 5000 * scale)).toBeLessThanOrEqual(tol(5000 * scale));
      expect(Math.abs(gap2 - 20000 * scale)).toBeLessThanOrEqual(tol(20000 * scale));
      const read = await s.api('GET', `/api/${s.ws.workspaceKey}/endpoints/profile/data/u-1`, undefined, {
        authorization: `Bearer ${s.ws.bearerToken}`,
      });
      expect(read.json.callbackStatus).toBe('DELIVERED');
    } finally {
      await s.close();
    }
  },
);

test(
  'onComplete is retried after a whole-request timeout and complete answers while the host holds it (DELIV-3 DELIV-6 DELIV-9)',
  { tag: clauseTags('DELIV-3', 'DELIV-6', 'DELIV-9') },
  async () => {
    const scale = 0.1;
    const s = await stage({ timeScale: scale });
    try {
      s.host.script = (r) =>
        r.headers['x-service-event'] === 'onComplete' && r.headers['x-service-delivery-attempt'] === '1'
          ? { hang: true }
          : { status: 200 };
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      const t0 = performance.now();
      const c = await s.driver('POST', `/conversations/${id}/complete`, {});
      expect(c.status).toBe(202);
      await s.host.waitFor(() => s.host.callbacks('onComplete').length === 1);
      expect(s.host.callbacks('onComplete')[0]!.endAt).toBeUndefined(); // still held when complete answered
      await s.host.waitFor(() => s.host.callbacks('onComplete').length === 2, 10_000, 'the retry');
      const a = s.host.callbacks('onComplete');
      const expected = (10000 + 5000) * scale;
      expect(Math.abs(a[1]!.at - a[0]!.at - expected)).toBeLessThanOrEqual(Math.max(250, expected * 0.25));
      expect(performance.now() - t0).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  },
);

test(
  'onComplete is not retried after a 4xx, and config.saved is not retried after a 503 (DELIV-1 DELIV-10)',
  { tag: clauseTags('DELIV-1', 'DELIV-10') },
  async () => {
    const scale = 0.05;
    const s = await stage({ timeScale: scale });
    try {
      s.host.script = (r) =>
        r.headers['x-service-event'] === 'onComplete'
          ? { status: 400 }
          : r.headers['x-service-event'] === 'config.saved'
            ? { status: 503 }
            : { status: 200 };
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await s.host.waitFor(() => s.host.callbacks('onComplete').length === 1);
      await s.host.expectNone(
        () => s.host.callbacks('onComplete').length > 1 || s.host.callbacks('config.saved').length > 1,
        5000 * scale + 750,
        'a retry',
      );
    } finally {
      await s.close();
    }
  },
);

test(
  'onComplete is retried after a refused connection, 3 attempts, then logged lost (DELIV-5 DELIV-7)',
  { tag: clauseTags('DELIV-5', 'DELIV-7') },
  async () => {
    const scale = 0.05;
    const closed = await startTestHost();
    const deadUrl = closed.url;
    await closed.close();
    const s = await stage({ timeScale: scale });
    try {
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, { hostBaseUrl: deadUrl });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      const deadline = performance.now() + 10_000;
      let lines: Array<{ event: string; message: string; deliveryId?: string }> = [];
      while (performance.now() < deadline) {
        lines = (await s.driver('GET', '/log')).json.lines;
        if (lines.some((l) => l.event === 'delivery.lost')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const failed = lines.filter((l) => l.event === 'delivery.failed' && l.deliveryId === `lc-${id}-onComplete`);
      expect(failed).toHaveLength(3);
      expect(lines.some((l) => l.event === 'delivery.lost')).toBe(true);
    } finally {
      await s.close();
    }
  },
);

test(
  'config.bulk_deleted: pages of 500 from 1 with count on every page, each its own POST, in JWKS mode (PAGE-1 PAGE-2 PAGE-3 PAGE-4 PAGE-5 STATE-8)',
  { tag: clauseTags('PAGE-1', 'PAGE-2', 'PAGE-3', 'PAGE-4', 'PAGE-5', 'STATE-8') },
  async () => {
    const s = await stage({ workspace: { signing: { mode: 'jwks' } } });
    try {
      const seeded = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
        configEnd: '/contacts',
        endUserHandle: 'u-1',
        count: 1001,
      });
      const id = await s.open('u-1', '/contacts');
      const r = await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
      expect(r.json).toEqual({ count: 1001, totalPages: 3 });
      await s.host.waitFor(() => s.host.callbacks('config.bulk_deleted').length === 3, 15_000, 'three pages');
      const jwks = (await s.api('GET', '/.well-known/service/jwks.json')).json;
      const pages = s.host.callbacks('config.bulk_deleted');
      for (const p of pages)
        expect(
          (await verifyCallback({ headers: p.headers, rawBody: p.raw, config: { mode: 'jwks', keys: jwks } })).verdict,
        ).toBe('valid');
      const bodies = pages.map((p) => p.json as any);
      expect(bodies.map((b) => [b.page, b.totalPages, b.count, b.keys.length])).toEqual([
        [1, 3, 1001, 500],
        [2, 3, 1001, 500],
        [3, 3, 1001, 1],
      ]);
      expect(new Set(bodies.flatMap((b) => b.keys))).toEqual(new Set(seeded.json.serviceKeys));
      await s.host.expectNone(
        (x) => x.headers['x-service-event'] === 'config.deleted',
        300,
        'per-key config.deleted for a large scope',
      );
      const list = await s.api('GET', `/api/${s.ws.workspaceKey}/endpoints/contacts/data/u-1`, undefined, {
        authorization: `Bearer ${s.ws.bearerToken}`,
      });
      expect(list.json).toEqual([]);
    } finally {
      await s.close();
    }
  },
);

test(
  '50 concurrent conversations deliver every callback in order per conversation (DELIV-15 EVT-17)',
  { tag: clauseTags('DELIV-15', 'EVT-17') },
  async () => {
    const s = await stage();
    try {
      s.host.script = () => ({ status: 200, delayMs: Math.floor(Math.random() * 5) });
      const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => s.open(`u-${i}`)));
      await Promise.all(
        ids.map(async (id) => {
          await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
          await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { age: 2 } }] });
          await s.driver('POST', `/conversations/${id}/complete`, {});
        }),
      );
      await s.host.waitFor(() => s.host.callbacks().length === 200, 30_000, '200 callbacks');
      for (const id of ids) {
        const seq = s.host
          .callbacks()
          .filter((r) => (r.json as any).conversationId === id)
          .map((r) => r.headers['x-service-event']);
        expect(seq).toEqual(['onStart', 'config.saved', 'config.saved', 'onComplete']);
      }
    } finally {
      await s.close();
    }
  },
);

test(
  'a host that hangs, resets or refuses never blocks other deliveries or API requests (DELIV-15)',
  { tag: clauseTags('DELIV-15') },
  async () => {
    const s = await stage({ timeScale: 1 });
    const bad = await startTestHost();
    try {
      bad.script = (r) => (r.seq % 2 === 0 ? { reset: true } : { hang: true });
      const other = await s.driver('POST', '/workspaces', {
        hostBaseUrl: bad.url,
        hookPath: '/h',
        classes: [{ configEnd: '/p', kind: 'SETTING', fields: [] }],
      });
      const refused = await s.driver('POST', '/workspaces', {
        hostBaseUrl: 'http://127.0.0.1:9',
        hookPath: '/h',
        classes: [{ configEnd: '/p', kind: 'SETTING', fields: [] }],
      });
      for (let i = 0; i < 4; i += 1) {
        await s.open(`b-${i}`, '/p', other.json.workspaceKey);
        await s.open(`r-${i}`, '/p', refused.json.workspaceKey);
      }
      await bad.waitFor((r) => r.length >= 4);
      const t0 = performance.now();
      const id = await s.open('good');
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      await s.host.waitFor(() => s.host.callbacks('onComplete').length === 1, 5000, 'the good host onComplete');
      expect(performance.now() - t0).toBeLessThan(3000);
      const t1 = performance.now();
      expect((await s.api('GET', '/.well-known/service/jwks.json')).status).toBe(200);
      expect(performance.now() - t1).toBeLessThan(1000);
    } finally {
      await s.close();
      await bad.close();
    }
  },
);
