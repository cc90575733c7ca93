import { test, expect } from '@playwright/test';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { base64url } from 'jose';
import { isCcsError } from '../../../spec/index.ts';
import { generateSigningKey, signJws, verifyJws, parseJws, unixNow, type JWK } from '../../../protocol/index.ts';
import { testJwks, testPrivateJwk, testPublicJwk } from '../../../fixtures/keys/index.ts';
import { toClauseId } from '../../../spec/index.ts';
import { jwsVectors, tags } from './vectors.ts';

test.describe('JWS verify-only vectors (fixtures/vectors/jws-es256.json)', () => {
  for (const v of jwsVectors.vectors) {
    test(`${v.name} gives ${v.verdict} (${v.clauses.join(', ')})`, tags(...v.clauses.map(toClauseId)), async () => {
      const r = await verifyJws({ header: v.header, payload: v.body, keys: jwsVectors.jwks, now: v.now });
      expect(r.verdict, r.reason).toBe(v.verdict);
      expect(r.mode).toBe('jwks');
      expect(r.reason.length).toBeGreaterThan(10);
    });
  }

  test('the vectors cover every JWKS-mode verdict but absent (SIGN-7, HOST-7)', tags('SIGN-7', 'HOST-7'), () => {
    const kinds = new Set(jwsVectors.vectors.map((v) => v.verdict));
    for (const k of ['valid', 'invalid', 'stale', 'future', 'unknown-kid', 'malformed'] as const)
      expect(kinds.has(k), k).toBe(true);
  });
});

test.describe('JWS signing and verification', () => {
  const T = 1700000000;
  const BODY = '{"event":"config.saved","serviceKey":"k1","changedFields":["a.b"],"callbackStatus":"PENDING"}';

  test(
    'a generated key signs a compact JWS with alg ES256 and the kid in the header (SIGN-7, SIGN-8)',
    tags('SIGN-7', 'SIGN-8'),
    async () => {
      const key = await generateSigningKey('kid-gen-1');
      expect(key.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', kid: 'kid-gen-1', alg: 'ES256', use: 'sig' });
      expect((key.publicJwk as JWK & { d?: string }).d).toBeUndefined();
      const jws = await signJws({ privateKey: key.privateKey, kid: key.kid, t: T, payload: BODY });
      const parts = jws.split('.');
      expect(parts).toHaveLength(3);
      expect(JSON.parse(new TextDecoder().decode(base64url.decode(parts[0]!)))).toEqual({
        alg: 'ES256',
        kid: 'kid-gen-1',
      });
      expect(new TextDecoder().decode(base64url.decode(parts[1]!))).toBe(`${T}.${BODY}`);
      const r = await verifyJws({ header: jws, payload: BODY, keys: { keys: [key.publicJwk] }, now: T + 1 });
      expect(r).toMatchObject({ verdict: 'valid', mode: 'jwks', kid: 'kid-gen-1', t: T, skewSeconds: 1 });
    },
  );

  test(
    'the signature is raw r||s (64 bytes) and verifies with node:crypto independently of jose (SIGN-7)',
    tags('SIGN-7'),
    async () => {
      const priv = testPrivateJwk('production');
      const jws = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: BODY });
      const [h, p, s] = jws.split('.') as [string, string, string];
      const sig = base64url.decode(s);
      expect(sig.length).toBe(64);
      const publicKey = createPublicKey({
        key: testPublicJwk('production') as import('node:crypto').JsonWebKey,
        format: 'jwk',
      });
      expect(nodeVerify('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig)).toBe(
        true,
      );
    },
  );

  test(
    'the fixture JWKS verifies the production and sandbox keys under different kids (SIGN-10)',
    tags('SIGN-10'),
    async () => {
      const jwks = testJwks();
      const kids = jwks.keys.map((k) => k.kid);
      expect(new Set(kids).size).toBe(2);
      for (const name of ['production', 'sandbox'] as const) {
        const priv = testPrivateJwk(name);
        const jws = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: BODY });
        expect((await verifyJws({ header: jws, payload: BODY, keys: jwks, now: T })).verdict).toBe('valid');
      }
    },
  );

  test('a JWS made now verifies with the default clock (SIGN-4)', tags('SIGN-4'), async () => {
    const priv = testPrivateJwk('production');
    const jws = await signJws({ privateKey: priv, kid: priv.kid, t: unixNow(), payload: BODY });
    expect((await verifyJws({ header: jws, payload: BODY, keys: testJwks() })).verdict).toBe('valid');
  });

  test('no header is absent (HOST-7)', tags('HOST-7'), async () => {
    expect(await verifyJws({ header: undefined, payload: BODY, keys: testJwks(), now: T })).toMatchObject({
      verdict: 'absent',
      mode: 'jwks',
    });
  });

  test(
    'check order: an unknown kid wins over a stale t, a body mismatch wins over a stale t (HOST-7, HOST-8)',
    tags('HOST-7', 'HOST-8'),
    async () => {
      const rotated = testPrivateJwk('rotated');
      const unknown = await signJws({ privateKey: rotated, kid: rotated.kid, t: T, payload: BODY });
      expect((await verifyJws({ header: unknown, payload: BODY, keys: testJwks(), now: T + 1000 })).verdict).toBe(
        'unknown-kid',
      );
      const priv = testPrivateJwk('production');
      const good = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: BODY });
      expect((await verifyJws({ header: good, payload: `${BODY} `, keys: testJwks(), now: T + 1000 })).verdict).toBe(
        'invalid',
      );
      expect((await verifyJws({ header: good, payload: BODY, keys: testJwks(), now: T + 1000 })).verdict).toBe('stale');
    },
  );

  test('a kid whose key is not an EC P-256 key is invalid, not valid (HOST-7)', tags('HOST-7'), async () => {
    const priv = testPrivateJwk('production');
    const jws = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: BODY });
    const wrongType: JWK = { kty: 'oct', k: 'c2VjcmV0', kid: priv.kid };
    const r = await verifyJws({ header: jws, payload: BODY, keys: { keys: [wrongType] }, now: T });
    expect(r.verdict).toBe('invalid');
  });

  test(
    'a private JWK leaked into a JWKS document is used to verify only, and no reason names key material (HOST-7)',
    tags('HOST-7'),
    async () => {
      const priv = testPrivateJwk('production');
      const jws = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: BODY });
      const r = await verifyJws({ header: jws, payload: 'other', keys: { keys: [priv] }, now: T });
      expect(r.verdict).toBe('invalid');
      expect(JSON.stringify(r)).not.toContain(String(priv.d));
    },
  );

  test('parseJws splits the payload at the first dot (HOST-7)', tags('HOST-7'), async () => {
    const priv = testPrivateJwk('production');
    const jws = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: '1.2.3' });
    const parsed = parseJws(jws);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.t).toBe(T);
      expect(new TextDecoder().decode(parsed.signedBody)).toBe('1.2.3');
    }
  });

  test('bad input to signJws and verifyJws is a clear error (SIGN-7)', tags('SIGN-7'), async () => {
    const priv = testPrivateJwk('production');
    await expect(signJws({ privateKey: priv, kid: '', t: T, payload: BODY })).rejects.toThrow(/kid/);
    await expect(signJws({ privateKey: priv, kid: 'k', t: -1, payload: BODY })).rejects.toThrow(/t must be/);
    let caught: unknown;
    try {
      await verifyJws({ header: 'a.b.c', payload: BODY, keys: {} as { keys: JWK[] }, now: T });
    } catch (err) {
      caught = err;
    }
    // A malformed header is decided before the keys are consulted; a well-formed one needs keys.
    expect(caught).toBeUndefined();
    const jws = await signJws({ privateKey: priv, kid: priv.kid, t: T, payload: BODY });
    try {
      await verifyJws({ header: jws, payload: BODY, keys: {} as { keys: JWK[] }, now: T });
    } catch (err) {
      caught = err;
    }
    expect(isCcsError(caught, 'PROTOCOL_KEYS_INVALID')).toBe(true);
  });
});
