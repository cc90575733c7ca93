import { test, expect } from '@playwright/test';
import { isCcsError } from '../../../spec/index.ts';
import {
  DeliveryDeduper,
  SIGNATURE_HEADER,
  factsSignatureFor,
  signHmac,
  signJws,
  signatureFor,
  verifyCallback,
  verifyFactsRequest,
  type VerifierConfig,
} from '../../../protocol/index.ts';
import { testJwks, testPrivateJwk } from '../../../fixtures/keys/index.ts';
import { hmacVector, hmacVectors, tags } from './vectors.ts';

const { current, previous } = hmacVectors.secrets;
const T = 1700000000;
const enc = (s: string) => new TextEncoder().encode(s);
const BODY = enc('{"event":"onComplete","serviceKeys":["k1"]}');
const hmac: VerifierConfig = { mode: 'hmac', secrets: [current, previous] };
const jwks: VerifierConfig = { mode: 'jwks', keys: testJwks() };

test.describe('host-team verifier: callbacks', () => {
  test(
    'verifyCallback reads the signature header case-insensitively in HMAC mode (HOST-10)',
    tags('HOST-10'),
    async () => {
      const sig = signHmac({ secret: current, t: T, payload: BODY });
      for (const name of ['x-service-signature', 'X-Service-Signature', 'X-SERVICE-SIGNATURE']) {
        const r = await verifyCallback({ headers: { [name]: sig }, rawBody: BODY, config: hmac, now: T });
        expect(r).toMatchObject({ verdict: 'valid', mode: 'hmac', secretIndex: 0 });
      }
    },
  );

  test('verifyCallback verifies JWKS mode over the raw body (HOST-7, HOST-4)', tags('HOST-7', 'HOST-4'), async () => {
    const priv = testPrivateJwk('sandbox');
    const sig = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: BODY });
    expect(
      await verifyCallback({ headers: { [SIGNATURE_HEADER]: sig }, rawBody: BODY, config: jwks, now: T }),
    ).toMatchObject({ verdict: 'valid', kid: priv.kid });
    expect(
      (await verifyCallback({ headers: { [SIGNATURE_HEADER]: sig }, rawBody: enc(' '), config: jwks, now: T })).verdict,
    ).toBe('invalid');
  });

  test('with signing off, no header is absent and a header is malformed (SIGN-1)', tags('SIGN-1'), async () => {
    expect(await verifyCallback({ headers: {}, rawBody: BODY, config: { mode: 'none' } })).toMatchObject({
      verdict: 'absent',
      mode: 'none',
    });
    const r = await verifyCallback({
      headers: { [SIGNATURE_HEADER]: 't=1,v1=00' },
      rawBody: BODY,
      config: { mode: 'none' },
    });
    expect(r).toMatchObject({ verdict: 'malformed', mode: 'none' });
    expect(r.reason).toContain('signing is off');
  });

  test(
    'with signing on, a missing header is absent in both modes (HOST-10, HOST-3)',
    tags('HOST-10', 'HOST-3'),
    async () => {
      expect(
        (await verifyCallback({ headers: { 'content-type': 'application/json' }, rawBody: BODY, config: hmac, now: T }))
          .verdict,
      ).toBe('absent');
      expect(
        (await verifyCallback({ headers: { [SIGNATURE_HEADER]: undefined }, rawBody: BODY, config: jwks, now: T }))
          .verdict,
      ).toBe('absent');
    },
  );

  test('a repeated signature header is malformed; a one-element array is read (HOST-10)', tags('HOST-10'), async () => {
    const sig = signHmac({ secret: current, t: T, payload: BODY });
    expect(
      (await verifyCallback({ headers: { [SIGNATURE_HEADER]: [sig, sig] }, rawBody: BODY, config: hmac, now: T }))
        .verdict,
    ).toBe('malformed');
    expect(
      (
        await verifyCallback({
          headers: { 'X-Service-Signature': sig, 'x-service-signature': sig },
          rawBody: BODY,
          config: hmac,
          now: T,
        })
      ).verdict,
    ).toBe('malformed');
    expect(
      (await verifyCallback({ headers: { [SIGNATURE_HEADER]: [sig] }, rawBody: BODY, config: hmac, now: T })).verdict,
    ).toBe('valid');
  });

  test('a parsed body instead of raw bytes is refused with a clear error (HOST-4)', tags('HOST-4'), async () => {
    let caught: unknown;
    try {
      await verifyCallback({ headers: {}, rawBody: JSON.parse('{"a":1}') as Uint8Array, config: hmac, now: T });
    } catch (err) {
      caught = err;
    }
    expect(isCcsError(caught, 'PROTOCOL_RAW_BODY_REQUIRED')).toBe(true);
    await expect(
      verifyCallback({ headers: {}, rawBody: BODY, config: { mode: 'rsa' } as unknown as VerifierConfig }),
    ).rejects.toThrow(/config.mode/);
  });

  test(
    'signatureFor signs in the configured mode and nothing when off (SIGN-1, SIGN-2)',
    tags('SIGN-1', 'SIGN-2'),
    async () => {
      const priv = testPrivateJwk('production');
      const h = await signatureFor({ config: { mode: 'hmac', secret: current }, payload: BODY, t: T });
      expect(
        (await verifyCallback({ headers: { [SIGNATURE_HEADER]: h }, rawBody: BODY, config: hmac, now: T })).verdict,
      ).toBe('valid');
      const j = await signatureFor({ config: { mode: 'jwks', privateKey: priv, kid: priv.kid }, payload: BODY, t: T });
      expect(
        (await verifyCallback({ headers: { [SIGNATURE_HEADER]: j }, rawBody: BODY, config: jwks, now: T })).verdict,
      ).toBe('valid');
      // One mode at a time: a JWKS signature is malformed for an HMAC verifier and vice versa.
      expect(
        (await verifyCallback({ headers: { [SIGNATURE_HEADER]: j }, rawBody: BODY, config: hmac, now: T })).verdict,
      ).toBe('malformed');
      expect(
        (await verifyCallback({ headers: { [SIGNATURE_HEADER]: h }, rawBody: BODY, config: jwks, now: T })).verdict,
      ).toBe('malformed');
      expect(await signatureFor({ config: { mode: 'none' }, payload: BODY })).toBeUndefined();
    },
  );
});

test.describe('host-team verifier: the user-facts GET', () => {
  const target = '/facts?endUserHandle=u-1';

  test(
    'verifyFactsRequest checks the openssl-computed request-line vector (SIGN-6, HOST-18)',
    tags('SIGN-6', 'HOST-18'),
    async () => {
      const v = hmacVector('facts GET request line');
      expect(v.payload).toBe(`GET ${target}`);
      const headers = { 'X-Service-Signature': `t=${v.t},v1=${v.expectedV1}` };
      expect((await verifyFactsRequest({ requestTarget: target, headers, config: hmac, now: v.t })).verdict).toBe(
        'valid',
      );
      // The query exactly as on the wire: another order or encoding is another payload.
      expect(
        (await verifyFactsRequest({ requestTarget: '/facts?endUserHandle=u%2D1', headers, config: hmac, now: v.t }))
          .verdict,
      ).toBe('invalid');
      expect((await verifyFactsRequest({ requestTarget: '/facts', headers, config: hmac, now: v.t })).verdict).toBe(
        'invalid',
      );
    },
  );

  test(
    'verifyFactsRequest verifies JWKS mode and the window (SIGN-6, HOST-18)',
    tags('SIGN-6', 'HOST-18'),
    async () => {
      const priv = testPrivateJwk('production');
      const sig = await factsSignatureFor({
        config: { mode: 'jwks', privateKey: priv, kid: priv.kid },
        requestTarget: target,
        t: T,
      });
      const headers = { [SIGNATURE_HEADER]: sig };
      expect((await verifyFactsRequest({ requestTarget: target, headers, config: jwks, now: T })).verdict).toBe(
        'valid',
      );
      expect((await verifyFactsRequest({ requestTarget: target, headers, config: jwks, now: T + 301 })).verdict).toBe(
        'stale',
      );
      expect((await verifyFactsRequest({ requestTarget: target, headers: {}, config: jwks, now: T })).verdict).toBe(
        'absent',
      );
    },
  );

  test('a request target that is not a path is a clear error (SIGN-6)', tags('SIGN-6'), async () => {
    await expect(verifyFactsRequest({ requestTarget: 'http://h/facts', headers: {}, config: hmac })).rejects.toThrow(
      /request target/,
    );
  });
});

test.describe('DeliveryDeduper', () => {
  test(
    'a retry (same id, same body) is recognised whatever the attempt header (HOST-11, DELIV-11)',
    tags('HOST-11', 'DELIV-11'),
    () => {
      const d = new DeliveryDeduper();
      expect(d.firstSeen('lc-42-onComplete', BODY)).toBe(true);
      expect(d.firstSeen('lc-42-onComplete', Buffer.from(BODY))).toBe(false);
      expect(d.firstSeen('lc-42-onComplete', BODY.slice())).toBe(false);
      expect(d.size).toBe(1);
    },
  );

  test(
    'distinct deliveries sharing an id are not lost: pages of one bulk delete, two config.saved (HDR-3, HOST-11, HOST-14)',
    tags('HDR-3', 'HOST-11', 'HOST-14'),
    () => {
      const d = new DeliveryDeduper();
      expect(d.firstSeen('lc-7-config.bulk_deleted', enc('{"page":1}'))).toBe(true);
      expect(d.firstSeen('lc-7-config.bulk_deleted', enc('{"page":2}'))).toBe(true);
      expect(d.firstSeen('lc-7-config.saved', enc('{"serviceKey":"a"}'))).toBe(true);
      expect(d.firstSeen('lc-7-config.saved', enc('{"serviceKey":"b"}'))).toBe(true);
      expect(d.firstSeen('lc-7-config.bulk_deleted', enc('{"page":2}'))).toBe(false);
      expect(d.size).toBe(4);
    },
  );

  test('the same body under another id is another delivery (HOST-20)', tags('HOST-20'), () => {
    const d = new DeliveryDeduper();
    expect(d.firstSeen('lc-1-onComplete', BODY)).toBe(true);
    expect(d.firstSeen('lc-2-onComplete', BODY)).toBe(true);
  });

  test('memory is bounded: the oldest entries go first (HOST-11)', tags('HOST-11'), () => {
    const d = new DeliveryDeduper({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) expect(d.firstSeen(`lc-1-${id}`, BODY)).toBe(true);
    expect(d.size).toBe(3);
    expect(d.firstSeen('lc-1-d', BODY)).toBe(false);
    expect(d.firstSeen('lc-1-a', BODY)).toBe(true);
  });

  test('entries expire after ttlMs (HOST-11)', tags('HOST-11'), async () => {
    const d = new DeliveryDeduper({ ttlMs: 5 });
    expect(d.firstSeen('lc-1-onComplete', BODY)).toBe(true);
    const start = performance.now();
    // Wait for the 5 ms ttl to pass, with a 5 s deadline.
    while (performance.now() - start <= 6) {
      if (performance.now() - start > 5000) throw new Error('clock did not advance');
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(d.firstSeen('lc-1-onComplete', BODY)).toBe(true);
  });

  test('bad configuration and a missing id are clear errors', () => {
    expect(() => new DeliveryDeduper({ maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => new DeliveryDeduper({ ttlMs: -1 })).toThrow(/ttlMs/);
    expect(() => new DeliveryDeduper().firstSeen('', BODY)).toThrow(/X-Service-Delivery-Id/);
  });
});
