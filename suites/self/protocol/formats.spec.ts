import { test, expect } from '@playwright/test';
import {
  CALLBACK_TIMESTAMP_PATTERN,
  CONTRACT,
  LIFECYCLE_EVENTS,
  bulkPages,
  factsSigningPayload,
  formatCallbackTimestamp,
  isLifecycleEvent,
  lcDeliveryId,
  parseCallbackTimestamp,
  parseDeliveryId,
  totalPagesFor,
  ufDeliveryId,
} from '../../../protocol/index.ts';
import { tags } from './vectors.ts';

test.describe('facts signing payload', () => {
  test('the payload is "GET " and the request target as on the wire (SIGN-6)', tags('SIGN-6'), () => {
    expect(factsSigningPayload('/facts?endUserHandle=u1')).toBe('GET /facts?endUserHandle=u1');
    expect(factsSigningPayload('/api/facts?endUserHandle=jos%C3%A9%20x')).toBe(
      'GET /api/facts?endUserHandle=jos%C3%A9%20x',
    );
    expect(factsSigningPayload('/facts')).toBe('GET /facts');
  });

  test('a target that is not origin-form is a clear error (SIGN-6)', tags('SIGN-6'), () => {
    for (const bad of ['facts?x=1', 'https://host/facts', '/facts?x=a b', '']) {
      expect(() => factsSigningPayload(bad), bad).toThrow(/request target/);
    }
  });
});

test.describe('delivery ids', () => {
  test('lifecycle ids are lc-<conversationId>-<event> and parse back (HDR-3)', tags('HDR-3'), () => {
    for (const event of LIFECYCLE_EVENTS) {
      const id = lcDeliveryId(42, event);
      expect(id).toBe(`lc-42-${event}`);
      expect(parseDeliveryId(id)).toEqual({ kind: 'lc', conversationId: 42, event, conversationIdText: '42' });
    }
    expect(lcDeliveryId('7', 'onStart')).toBe('lc-7-onStart');
  });

  test('a conversationId beyond 2^53 keeps its digits (HDR-3)', tags('HDR-3'), () => {
    const parsed = parseDeliveryId('lc-123456789012345678901-onComplete');
    expect(parsed).toMatchObject({ kind: 'lc', conversationIdText: '123456789012345678901', event: 'onComplete' });
  });

  test('strings not of either form do not parse (HDR-3, FACTS-3)', tags('HDR-3', 'FACTS-3'), () => {
    for (const bad of [
      '',
      'lc-',
      'lc-42',
      'lc-42-',
      'lc-abc-onStart',
      'LC-42-onStart',
      'x-42-onStart',
      'uf-',
      'uf-ws',
      'uf--u1',
      'uf-ws-',
    ]) {
      expect(parseDeliveryId(bad), bad).toBeUndefined();
    }
  });

  test(
    'facts ids are uf-<workspaceId>-<endUserHandle>; a known handle makes the split exact (FACTS-3)',
    tags('FACTS-3'),
    () => {
      const id = ufDeliveryId('ws-9', 'user-a-1');
      expect(id).toBe('uf-ws-9-user-a-1');
      expect(parseDeliveryId(id, { endUserHandle: 'user-a-1' })).toEqual({
        kind: 'uf',
        workspaceId: 'ws-9',
        endUserHandle: 'user-a-1',
      });
      expect(parseDeliveryId(id, { endUserHandle: 'someone-else' })).toBeUndefined();
      // Without the hint the first dash splits: right only for dash-free workspace ids.
      expect(parseDeliveryId('uf-123-user-a')).toEqual({ kind: 'uf', workspaceId: '123', endUserHandle: 'user-a' });
    },
  );

  test('bad parts are clear errors (HDR-3, FACTS-3)', tags('HDR-3', 'FACTS-3'), () => {
    expect(() => lcDeliveryId(1.5, 'onStart')).toThrow(/conversationId/);
    expect(() => lcDeliveryId(1, '')).toThrow(/event/);
    expect(() => ufDeliveryId('', 'u')).toThrow(/workspaceId/);
    expect(() => ufDeliveryId('w', '')).toThrow(/endUserHandle/);
  });
});

test.describe('callback timestamps', () => {
  test('format is YYYY-MM-DDTHH:MM:SS.mmm in UTC without zone (EVT-14)', tags('EVT-14'), () => {
    const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(formatCallbackTimestamp(d)).toBe('2026-01-02T03:04:05.006');
    expect(CALLBACK_TIMESTAMP_PATTERN.test(formatCallbackTimestamp(new Date()))).toBe(true);
    expect(parseCallbackTimestamp('2026-01-02T03:04:05.006')?.getTime()).toBe(d.getTime());
    expect(parseCallbackTimestamp('2024-02-29T23:59:59.999')?.toISOString()).toBe('2024-02-29T23:59:59.999Z');
  });

  test('other forms and impossible dates do not parse (EVT-14)', tags('EVT-14'), () => {
    for (const bad of [
      '2026-01-02T03:04:05.006Z',
      '2026-01-02T03:04:05.006+01:00',
      '2026-01-02T03:04:05.06',
      '2026-01-02T03:04:05.0060',
      '2026-01-02T03:04:05',
      '2026-01-02 03:04:05.006',
      '2026-02-30T00:00:00.000',
      '2026-13-01T00:00:00.000',
      '2026-01-01T24:00:00.000',
      '2026-01-01T12:60:00.000',
      '2025-02-29T00:00:00.000',
      '',
    ]) {
      expect(parseCallbackTimestamp(bad), bad).toBeUndefined();
    }
  });

  test('a date without a four-digit year is a clear error (EVT-14)', tags('EVT-14'), () => {
    expect(() => formatCallbackTimestamp(new Date(Date.UTC(10000, 0, 1)))).toThrow(/year/);
    expect(() => formatCallbackTimestamp(new Date(Number.NaN))).toThrow(/valid Date/);
  });
});

test.describe('bulk paging', () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `key-${i}`);
  const expected: [number, number][] = [
    [0, 0],
    [1, 1],
    [500, 1],
    [501, 2],
    [1000, 2],
    [1001, 3],
  ];
  for (const [n, pages] of expected) {
    test(
      `${n} keys make ${pages} page(s) of at most 500, numbered from 1, count on every page (PAGE-1, PAGE-2, PAGE-4, PAGE-5)`,
      tags('PAGE-1', 'PAGE-2', 'PAGE-4', 'PAGE-5'),
      () => {
        const input = keys(n);
        const out = bulkPages(input);
        expect(out).toHaveLength(pages);
        expect(totalPagesFor(n)).toBe(pages);
        out.forEach((p, i) => {
          expect(p.page).toBe(i + 1);
          expect(p.totalPages).toBe(pages);
          expect(p.count).toBe(n);
          expect(p.keys.length).toBeGreaterThan(0);
          expect(p.keys.length).toBeLessThanOrEqual(CONTRACT.bulkPageSize);
        });
        expect(out.flatMap((p) => p.keys)).toEqual(input);
      },
    );
  }

  test('a bad page size or count is a clear error', () => {
    expect(() => bulkPages(keys(3), 0)).toThrow(/pageSize/);
    expect(() => totalPagesFor(-1)).toThrow(/count/);
    expect(bulkPages(keys(5), 2).map((p) => p.keys.length)).toEqual([2, 2, 1]);
  });
});

test.describe('contract constants', () => {
  test('the events are the exact strings of section 6 (EVT-15)', tags('EVT-15'), () => {
    expect([...LIFECYCLE_EVENTS]).toEqual([
      'onStart',
      'onComplete',
      'onSessionInterrupted',
      'onSessionTimeout',
      'config.saved',
      'config.deleted',
      'config.bulk_deleted',
    ]);
    expect(isLifecycleEvent('eventType')).toBe(false);
    expect(isLifecycleEvent('config.saved')).toBe(true);
  });

  test('the back-off list has one gap per retry (DELIV-7, DELIV-8)', tags('DELIV-7', 'DELIV-8'), () => {
    expect(CONTRACT.backoffMs.length).toBe(CONTRACT.maxAttempts - 1);
    expect(CONTRACT.replayWindowSeconds).toBe(300);
  });
});
