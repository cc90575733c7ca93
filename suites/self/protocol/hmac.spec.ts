import { test, expect } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { isCcsError } from '../../../spec/index.ts';
import { signHmac, verifyHmac, parseHmacHeader, unixNow } from '../../../protocol/index.ts';
import { hmacVector, hmacVectors, tags } from './vectors.ts';

const { current, previous } = hmacVectors.secrets;
const onComplete = hmacVector('onComplete body, current secret');
const T = onComplete.t;
const BODY = onComplete.payload;
const header = (secret = current, t = T, payload: string | Uint8Array = BODY) => signHmac({ secret, t, payload });

test.describe('HMAC signing known answers (openssl-computed)', () => {
  for (const v of hmacVectors.vectors) {
    test(
      `signHmac matches the independently computed v1: ${v.name} (SIGN-11, SIGN-12)`,
      tags('SIGN-11', 'SIGN-12'),
      () => {
        const secret = hmacVectors.secrets[v.secret];
        expect(signHmac({ secret, t: v.t, payload: v.payload })).toBe(`t=${v.t},v1=${v.expectedV1}`);
        expect(signHmac({ secret, t: v.t, payload: new TextEncoder().encode(v.payload) })).toBe(
          `t=${v.t},v1=${v.expectedV1}`,
        );
        expect(signHmac({ secret: new TextEncoder().encode(secret), t: v.t, payload: v.payload })).toBe(
          `t=${v.t},v1=${v.expectedV1}`,
        );
      },
    );
  }
});

test.describe('HMAC verification verdicts', () => {
  test(
    'a correct signature is valid and names the matching secret (SIGN-12, HOST-10)',
    tags('SIGN-12', 'HOST-10'),
    () => {
      const r = verifyHmac({ header: header(), payload: BODY, secrets: [current], now: T + 5 });
      expect(r).toMatchObject({ verdict: 'valid', mode: 'hmac', t: T, skewSeconds: 5, secretIndex: 0 });
    },
  );

  test('during a rotation either secret is accepted and secretIndex says which (HOST-9)', tags('HOST-9'), () => {
    const v = hmacVector('onComplete body, previous secret (rotation overlap)');
    const signedWithPrevious = `t=${v.t},v1=${v.expectedV1}`;
    expect(
      verifyHmac({ header: signedWithPrevious, payload: BODY, secrets: [current, previous], now: T }),
    ).toMatchObject({ verdict: 'valid', secretIndex: 1 });
    expect(verifyHmac({ header: header(), payload: BODY, secrets: [current, previous], now: T })).toMatchObject({
      verdict: 'valid',
      secretIndex: 0,
    });
    expect(verifyHmac({ header: signedWithPrevious, payload: BODY, secrets: [current], now: T }).verdict).toBe(
      'invalid',
    );
  });

  test('a wrong secret is invalid (HOST-10)', tags('HOST-10'), () => {
    const r = verifyHmac({ header: header('not-the-secret'), payload: BODY, secrets: [current, previous], now: T });
    expect(r).toMatchObject({ verdict: 'invalid', mode: 'hmac', t: T });
    expect(r.secretIndex).toBeUndefined();
  });

  test('one changed byte of the body is invalid (SIGN-12, HOST-4)', tags('SIGN-12', 'HOST-4'), () => {
    const bytes = new TextEncoder().encode(BODY);
    for (const index of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const changed = bytes.slice();
      changed[index] = (changed[index] ?? 0) ^ 0x01;
      expect(verifyHmac({ header: header(), payload: changed, secrets: [current], now: T }).verdict).toBe('invalid');
    }
    expect(verifyHmac({ header: header(), payload: bytes, secrets: [current], now: T }).verdict).toBe('valid');
  });

  test('a re-serialized body fails while the raw bytes pass (HOST-4, HOST-24)', tags('HOST-4', 'HOST-24'), () => {
    const v = hmacVector('body with unusual whitespace, signed as sent');
    const signed = `t=${v.t},v1=${v.expectedV1}`;
    expect(verifyHmac({ header: signed, payload: v.payload, secrets: [current], now: v.t }).verdict).toBe('valid');
    const reserialized = JSON.stringify(JSON.parse(v.payload));
    expect(reserialized).not.toBe(v.payload);
    expect(verifyHmac({ header: signed, payload: reserialized, secrets: [current], now: v.t }).verdict).toBe('invalid');
  });

  test(
    't 301 s old is stale, 301 s ahead is future, exactly 300 s either side is valid (HOST-5, HOST-6)',
    tags('HOST-5', 'HOST-6'),
    () => {
      const h = header();
      const at = (now: number) => verifyHmac({ header: h, payload: BODY, secrets: [current], now });
      expect(at(T + 301)).toMatchObject({ verdict: 'stale', skewSeconds: 301, t: T });
      expect(at(T - 301)).toMatchObject({ verdict: 'future', skewSeconds: -301, t: T });
      expect(at(T + 300)).toMatchObject({ verdict: 'valid', skewSeconds: 300 });
      expect(at(T - 300)).toMatchObject({ verdict: 'valid', skewSeconds: -300 });
      expect(verifyHmac({ header: h, payload: BODY, secrets: [current], now: T + 20, windowSeconds: 10 }).verdict).toBe(
        'stale',
      );
    },
  );

  test(
    'a forged signature outside the window is invalid, not stale: stale means authentic (HOST-5, HOST-10)',
    tags('HOST-5', 'HOST-10'),
    () => {
      expect(verifyHmac({ header: header('wrong'), payload: BODY, secrets: [current], now: T + 1000 }).verdict).toBe(
        'invalid',
      );
    },
  );

  test('a signature made now verifies with the default clock (SIGN-4)', tags('SIGN-4'), () => {
    const t = unixNow();
    expect(verifyHmac({ header: header(current, t), payload: BODY, secrets: [current] }).verdict).toBe('valid');
  });

  const hex = onComplete.expectedV1;
  const malformed: [string, string][] = [
    ['empty', ''],
    ['garbage', 'garbage'],
    ['no v1', `t=${T}`],
    ['no t', `v1=${hex}`],
    ['t not an integer', `t=abc,v1=${hex}`],
    ['t fractional', `t=${T}.5,v1=${hex}`],
    ['t negative', `t=-${T},v1=${hex}`],
    ['v1 uppercase hex', `t=${T},v1=${hex.toUpperCase()}`],
    ['v1 63 hex digits', `t=${T},v1=${hex.slice(1)}`],
    ['v1 65 hex digits', `t=${T},v1=${hex}0`],
    ['v1 base64', `t=${T},v1=${Buffer.from(hex, 'hex').toString('base64')}`],
    ['v1 empty', `t=${T},v1=`],
    ['order reversed', `v1=${hex},t=${T}`],
    ['extra field', `t=${T},v1=${hex},v0=${hex}`],
    ['semicolon separator', `t=${T};v1=${hex}`],
    ['space after comma', `t=${T}, v1=${hex}`],
    ['t repeated', `t=${T},t=${T},v1=${hex}`],
    ['JWS in HMAC mode', 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln'],
  ];
  for (const [name, value] of malformed) {
    test(
      `a malformed header is malformed, never a throw: ${name} (SIGN-11, HOST-10)`,
      tags('SIGN-11', 'HOST-10'),
      () => {
        const r = verifyHmac({ header: value, payload: BODY, secrets: [current], now: T });
        expect(r.verdict).toBe('malformed');
        expect(r.mode).toBe('hmac');
        expect(r.reason.length).toBeGreaterThan(10);
        expect(parseHmacHeader(value).ok).toBe(false);
      },
    );
  }

  test('surrounding whitespace of the header value is not a fault (SIGN-11)', tags('SIGN-11'), () => {
    expect(verifyHmac({ header: ` ${header()} `, payload: BODY, secrets: [current], now: T }).verdict).toBe('valid');
  });

  test('no header is absent (HOST-10)', tags('HOST-10'), () => {
    expect(verifyHmac({ header: undefined, payload: BODY, secrets: [current], now: T })).toMatchObject({
      verdict: 'absent',
      mode: 'hmac',
    });
  });

  test('the t as written is what is signed, leading zeros included (SIGN-12)', tags('SIGN-12'), () => {
    const tText = `0${T}`;
    const v1 = createHmac('sha256', current).update(`${tText}.${BODY}`).digest('hex');
    expect(verifyHmac({ header: `t=${tText},v1=${v1}`, payload: BODY, secrets: [current], now: T }).verdict).toBe(
      'valid',
    );
    // The same v1 under the normalized t does not match: the bytes differ.
    expect(verifyHmac({ header: `t=${T},v1=${v1}`, payload: BODY, secrets: [current], now: T }).verdict).toBe(
      'invalid',
    );
  });

  test('no verdict or reason ever contains a secret (SIGN-12)', tags('SIGN-12'), () => {
    const cases = [header(), header('wrong'), '', `t=${T}`, `t=x,v1=${current}`, undefined];
    for (const h of cases) {
      for (const now of [T, T + 1000, T - 1000]) {
        const text = JSON.stringify(verifyHmac({ header: h, payload: BODY, secrets: [current, previous], now }));
        expect(text).not.toContain(current);
        expect(text).not.toContain(previous);
      }
    }
  });

  test('bad configuration is a clear error, not a verdict', () => {
    let caught: unknown;
    try {
      verifyHmac({ header: header(), payload: BODY, secrets: [], now: T });
    } catch (err) {
      caught = err;
    }
    expect(isCcsError(caught, 'PROTOCOL_NO_SECRETS')).toBe(true);
    expect(() => signHmac({ secret: current, t: 1.5, payload: BODY })).toThrow(/t must be a non-negative integer/);
  });
});

test(
  'a header handed over as a list is malformed, and a secret of the wrong type is a clear error (HOST-10)',
  tags('HOST-10'),
  () => {
    const list = [header(), header()] as unknown as string;
    expect(verifyHmac({ header: list, payload: BODY, secrets: [current], now: T }).verdict).toBe('malformed');
    expect(() => verifyHmac({ header: header(), payload: BODY, secrets: [42 as unknown as string], now: T })).toThrow(
      /secrets\[0\]/,
    );
  },
);
