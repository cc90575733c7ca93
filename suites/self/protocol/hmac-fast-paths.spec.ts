/**
 * The verifier's fast paths give node's answers: HMAC-SHA256 from one-shot hashes over key pads
 * (protocol/hmac-pads.ts) equals createHmac for every secret and payload, across the key block (a key
 * over 64 bytes is hashed first) and the scratch buffer's edge (a longer message takes createHmac);
 * the exact header form read without a regex (protocol/hmac-form.ts) equals HMAC_HEADER_PATTERN.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { HMAC_HEADER_PATTERN, hmacHex, isExactHmacForm } from '../../../protocol/index.ts';

const node = (secret: string, t: string, payload: Uint8Array) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.`).update(payload).digest('hex');

test('HMAC over key pads equals createHmac for any text secret, t and payload (SIGN-12)', () => {
  const secret = fc.oneof(fc.string({ maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 80 }));
  const t = fc.oneof(fc.nat().map(String), fc.string({ maxLength: 12 }));
  // up to the scratch buffer (16 KB) and past it
  const payload = fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ minLength: 16_300, maxLength: 16_500 }));
  fc.assert(
    fc.property(secret, t, payload, (s, tt, p) => {
      expect(hmacHex(s, tt, p)).toBe(node(s, tt, p));
    }),
    { numRuns: 400 },
  );
});

test('a digest is read whole before the next one: two secrets in turn keep their own answers (SIGN-12)', () => {
  const body = new TextEncoder().encode('{"event":"onStart"}');
  const a = hmacHex('test-only-a', '1700000000', body);
  const b = hmacHex('test-only-b'.repeat(10), '1700000000', body);
  expect([a, b]).toEqual([node('test-only-a', '1700000000', body), node('test-only-b'.repeat(10), '1700000000', body)]);
  expect(a).not.toBe(b);
});

test('the exact header form is read as HMAC_HEADER_PATTERN reads it (SIGN-11)', () => {
  const exactForm = fc
    .tuple(fc.oneof(fc.nat().map(String), fc.stringMatching(/^[0-9]{1,20}$/)), fc.stringMatching(/^[0-9a-f]{64}$/))
    .map(([t, v1]) => `t=${t},v1=${v1}`);
  // one character replaced, inserted or removed: the ways a header misses the form by a little
  const edited = fc
    .tuple(
      exactForm,
      fc.nat(),
      fc.constantFrom('replace', 'insert', 'remove'),
      fc.string({ minLength: 1, maxLength: 1 }),
    )
    .map(([v, at, how, c]) => {
      const i = at % (v.length + 1);
      if (how === 'insert') return v.slice(0, i) + c + v.slice(i);
      if (how === 'remove') return v.slice(0, i) + v.slice(i + 1);
      return v.slice(0, i) + c + v.slice(i + 1);
    });
  const seen = { exact: 0, not: 0 };
  fc.assert(
    fc.property(fc.oneof(exactForm, edited, fc.string({ maxLength: 90 })), (value) => {
      const exact = new RegExp(HMAC_HEADER_PATTERN.source).test(value);
      expect(isExactHmacForm(value)).toBe(exact);
      seen[exact ? 'exact' : 'not'] += 1;
    }),
    { numRuns: 2_000 },
  );
  // both answers were asked for, not only the easy one
  expect(seen.exact).toBeGreaterThan(200);
  expect(seen.not).toBeGreaterThan(200);
});
