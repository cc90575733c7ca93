/**
 * The wire's forms (suites/host/harness/wire/, HOST-27) change the bytes and never the meaning: a JSON
 * text in any member order and escapes is the same JSON value, in RFC 8259's int grammar; the field
 * lines keep the contract's names (in any case) and values (with optional whitespace around them);
 * a signature of n bytes is n bytes; the same seed and key draw the same form.
 */
import { test, expect } from '@playwright/test';
import {
  CONTENT_TYPES,
  FIELD_ORDERS,
  NAME_CASES,
  VALUE_SPACES,
  fieldLines,
} from '../../host/harness/wire/http-fields.ts';
import { ESCAPES, MEMBER_ORDERS, jsonText } from '../../host/harness/wire/json-forms.ts';
import { chunksOf } from '../../host/harness/wire/framing.ts';
import { Draw } from '../../host/harness/wire/seed.ts';

const VALUE = {
  event: 'onComplete',
  endUserHandle: 'jos\u00e9/\u{1F600} "q" \\ \t',
  conversationId: 9007199254740991,
  serviceKeys: ['k/1', 'k.2'],
  nested: { a: [1, -2, 0], b: null, c: true },
};

test('every member order and escape form is the same JSON value, numbers in the int grammar (HOST-27)', () => {
  for (const order of MEMBER_ORDERS)
    for (const escapes of ESCAPES) {
      const text = jsonText(VALUE, { order, escapes }, new Draw(`${order}${escapes}`, 7));
      expect(JSON.parse(text), `${order} ${escapes}`).toEqual(VALUE);
      // RFC 8259 6, int: no fraction, no exponent (the contract says integer).
      expect(text).toMatch(/:9007199254740991[,}]/);
      expect(text).toMatch(/:\[1,-2,0\]/);
      if (escapes === 'every-char') expect(text).toMatch(/^[\x20-\x7e]*$/);
      if (escapes === 'non-ascii') expect(text).toContain('\\ud83d\\ude00');
      if (escapes === 'solidus') expect(text).toContain('k\\/1');
    }
});

test('the field lines keep every name (any case) and value (spaces around it), Content-Type as the contract writes it (HOST-27)', () => {
  const headers = {
    'content-type': 'application/json',
    'x-service-event': 'onStart',
    'x-service-delivery-id': 'lc-1-onStart',
  };
  for (const nameCase of NAME_CASES)
    for (const order of FIELD_ORDERS)
      for (const space of VALUE_SPACES) {
        const lines = fieldLines(headers, { nameCase, order, space, contentType: CONTENT_TYPES[0] }, new Draw('f', 3));
        const back = Object.fromEntries(lines.map(([n, v]) => [n.toLowerCase(), v.replace(/^[ \t]+|[ \t]+$/g, '')]));
        expect(back).toEqual({ ...headers, 'content-type': CONTENT_TYPES[0] });
      }
});

test('a chunked body is cut into the chunks asked for, and a form is the same for the same seed and key (HOST-27)', () => {
  const body = Buffer.from('{"event":"onStart"}');
  expect(Buffer.concat(chunksOf(body, 3))).toEqual(body);
  expect(chunksOf(body, 3)).toHaveLength(3);
  const a = new Draw('key', 5);
  const b = new Draw('key', 5);
  expect([a.int(1000), a.int(1000), a.shuffle([1, 2, 3, 4])]).toEqual([
    b.int(1000),
    b.int(1000),
    b.shuffle([1, 2, 3, 4]),
  ]);
});
