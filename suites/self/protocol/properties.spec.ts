import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import {
  bulkPages,
  formatCallbackTimestamp,
  lcDeliveryId,
  parseCallbackTimestamp,
  parseDeliveryId,
  signHmac,
  signJws,
  ufDeliveryId,
  verifyHmac,
  verifyJws,
} from '../../../protocol/index.ts';
import { testJwks, testPrivateJwk } from '../../../fixtures/keys/index.ts';
import { tags } from './vectors.ts';

// Replays from CCS_SEED when given (CONTRIBUTING: environment), else fast-check picks and prints one.
const seed = process.env.CCS_SEED ? { seed: Number(process.env.CCS_SEED) } : {};
const T = 1700000000;

test(
  'any body signed with any secret verifies, and any one flipped byte does not (SIGN-12, HOST-4)',
  tags('SIGN-12', 'HOST-4'),
  () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 2048 }),
        fc.string({ minLength: 1 }),
        fc.nat(),
        fc.nat({ max: 300 }),
        (body, secret, where, skew) => {
          const header = signHmac({ secret, t: T, payload: body });
          expect(verifyHmac({ header, payload: body, secrets: [secret], now: T + skew }).verdict).toBe('valid');
          expect(verifyHmac({ header, payload: body, secrets: [secret], now: T - skew }).verdict).toBe('valid');
          const changed = body.slice();
          const i = where % changed.length;
          changed[i] = (changed[i] ?? 0) ^ 0xff;
          expect(verifyHmac({ header, payload: changed, secrets: [secret], now: T }).verdict).toBe('invalid');
        },
      ),
      { ...seed, numRuns: 200 },
    );
  },
);

test(
  'the window is exactly abs(now - t) > 300 for authentic signatures (HOST-5, HOST-6)',
  tags('HOST-5', 'HOST-6'),
  () => {
    const header = signHmac({ secret: 's', t: T, payload: 'b' });
    fc.assert(
      fc.property(fc.integer({ min: -2000, max: 2000 }), (skew) => {
        const v = verifyHmac({ header, payload: 'b', secrets: ['s'], now: T + skew }).verdict;
        expect(v).toBe(skew > 300 ? 'stale' : skew < -300 ? 'future' : 'valid');
      }),
      { ...seed, numRuns: 300 },
    );
  },
);

test(
  'any body, dots and all, round-trips through a JWS and a changed body is refused (SIGN-8, HOST-7)',
  tags('SIGN-8', 'HOST-7'),
  async () => {
    const priv = testPrivateJwk('production');
    const jwks = testJwks();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 512 }), async (body) => {
        const header = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: body });
        expect((await verifyJws({ header, payload: body, keys: jwks, now: T })).verdict).toBe('valid');
        expect((await verifyJws({ header, payload: `${body}.`, keys: jwks, now: T })).verdict).toBe('invalid');
      }),
      { ...seed, numRuns: 40 },
    );
  },
);

test('delivery ids parse back to their parts (HDR-3, FACTS-3)', tags('HDR-3', 'FACTS-3'), () => {
  fc.assert(
    fc.property(
      fc.nat(),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.string({ minLength: 1, maxLength: 255 }),
      (cid, event, ws, handle) => {
        expect(parseDeliveryId(lcDeliveryId(cid, event))).toMatchObject({ kind: 'lc', conversationId: cid, event });
        expect(parseDeliveryId(ufDeliveryId(ws, handle), { endUserHandle: handle })).toEqual({
          kind: 'uf',
          workspaceId: ws,
          endUserHandle: handle,
        });
      },
    ),
    { ...seed, numRuns: 300 },
  );
});

test('timestamps round-trip for every date of years 0000..9999 (EVT-14)', tags('EVT-14'), () => {
  fc.assert(
    fc.property(
      fc.date({
        min: new Date('0000-01-01T00:00:00.000Z'),
        max: new Date('9999-12-31T23:59:59.999Z'),
        noInvalidDate: true,
      }),
      (d) => {
        expect(parseCallbackTimestamp(formatCallbackTimestamp(d))?.getTime()).toBe(d.getTime());
      },
    ),
    { ...seed, numRuns: 300 },
  );
});

test(
  'pages partition the keys in order with ceil(count/500) pages (PAGE-1, PAGE-2, PAGE-4, PAGE-5)',
  tags('PAGE-1', 'PAGE-2', 'PAGE-4', 'PAGE-5'),
  () => {
    fc.assert(
      fc.property(fc.nat({ max: 3000 }), (n) => {
        const keys = Array.from({ length: n }, (_, i) => `k${i}`);
        const pages = bulkPages(keys);
        expect(pages.length).toBe(Math.ceil(n / 500));
        expect(pages.flatMap((p) => p.keys)).toEqual(keys);
        expect(pages.every((p, i) => p.page === i + 1 && p.count === n && p.keys.length <= 500)).toBe(true);
      }),
      { ...seed, numRuns: 50 },
    );
  },
);
