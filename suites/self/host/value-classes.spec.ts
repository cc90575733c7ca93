import { test, expect } from '@playwright/test';
import { loadSpec } from '../../../spec/index.ts';
import { invalidBySpec } from '../../host/harness/generated.ts';
import { valueCallbacks } from '../../host/harness/value-callbacks.ts';
import {
  ENVELOPE_CLASSES,
  HANDLE_CLASSES,
  INTEGER_CLASSES,
  KEY_CLASSES,
  QUERY_ENCODINGS,
  envelope,
  envelopeKey,
  envelopeOfKey,
  headerSafe,
  sampleClass,
  sampleHeaderSafe,
} from '../../host/harness/value-classes.ts';
import { conversationIdOf } from '../../host/harness/value-numbers.ts';

/**
 * The value classes are what the contract allows, never the harness's assumption: a FAIL on one of
 * them must be the receiver's. Each handle is a legal endUserHandle (2.1), each envelope a legal 2.3
 * record, each callback valid per spec/openapi.yaml, each query encoding decodes to the handle; the
 * classes are what they say (at the limit in characters, decomposed, whitespace at the ends), for
 * several seeds, and the same seed gives the same values.
 */
const base = { workspaceKey: 'ws-self', configEnd: '/settings', hookPath: '/hooks/ccs' };
const SEEDS = [1, 42, -7, 2 ** 31 - 1, 123456789];
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
const chars = (s: string) => [...s].length;

test('every callback of the value classes is valid per spec/openapi.yaml for every seed, and an escaped body is the same JSON value (HOST-26, HOST-4)', () => {
  for (const seed of SEEDS) {
    const cs = valueCallbacks(base, seed);
    expect(invalidBySpec(cs.map((c) => c.payload)), `seed ${seed}`).toEqual([]);
    const escaped = cs.filter((c) => c.body !== undefined);
    expect(escaped.length).toBeGreaterThanOrEqual(3);
    for (const c of escaped) {
      expect(JSON.parse(c.body!)).toEqual(c.payload);
      expect(c.body).not.toBe(JSON.stringify(c.payload));
      expect(c.body).toMatch(/^[\x20-\x7e]*$/);
    }
    const ids = cs.map((c) => `${c.payload.conversationId}|${c.payload.event}`);
    expect(new Set(ids).size, `seed ${seed}: delivery ids are unique`).toBe(ids.length);
  }
  // Depth by setting: more values of each class, never fewer callbacks.
  expect(valueCallbacks(base, 5, 3).length).toBeGreaterThan(valueCallbacks(base, 5, 1).length);
});

test('every handle class gives legal endUserHandles (1 to 255 characters, never org-, never a dot segment), keys are never empty (HOST-26)', () => {
  for (const seed of SEEDS) {
    for (const c of HANDLE_CLASSES)
      for (const h of sampleClass(c, seed, 4)) {
        expect(chars(h) >= 1 && chars(h) <= 255, `${c.id}: ${chars(h)} characters`).toBe(true);
        expect(
          h
            .normalize('NFKC')
            .replace(/\p{Cf}/gu, '')
            .trim()
            .toLowerCase()
            .startsWith('org-'),
          c.id,
        ).toBe(false);
        expect(['.', '..']).not.toContain(h);
      }
    for (const c of KEY_CLASSES) for (const k of sampleClass(c, seed, 4)) expect(chars(k), c.id).toBeGreaterThan(0);
  }
});

test('the classes are what they say: at the limit in characters of each UTF-8 width, decomposed, composed, whitespace at the ends (HOST-26, HOST-13)', () => {
  const one = (id: string, seed = 3) =>
    sampleClass(
      HANDLE_CLASSES.find((c) => c.id === id)!,
      seed,
    )[0]!;
  for (const w of [1, 2, 3, 4] as const) {
    const h = one(`handle.w${w}-max`);
    expect(chars(h), `w${w}`).toBe(255);
    expect(utf8(h), `w${w}`).toBe(255 * w);
  }
  // JavaScript's and Java's .length count UTF-16 units: a surrogate pair counts two.
  expect(one('handle.w4-max').length).toBe(510);
  expect(one('handle.nfd')).not.toBe(one('handle.nfd').normalize('NFC'));
  expect(one('handle.nfc')).not.toBe(one('handle.nfc').normalize('NFD'));
  const ws = one('handle.edge-whitespace');
  expect(ws).not.toBe(ws.trim());
  const key = sampleClass(
    KEY_CLASSES.find((c) => c.id === 'key.edge-whitespace')!,
    3,
  )[0]!;
  expect(key).not.toBe(key.trim());
  // The same seed gives the same values (a tail that keeps parallel tests apart aside).
  expect(one('handle.w3-max', 9)).toBe(one('handle.w3-max', 9));
  expect(one('handle.w3-max', 9)).not.toBe(one('handle.w3-max', 10));
});

test('every integer class is an integer a JSON number carries exactly, the int32 class on both sides of its edges, and conversationIds never repeat (HOST-26)', () => {
  for (const c of INTEGER_CLASSES) for (const e of c.edges) expect(Number.isSafeInteger(e.value), c.id).toBe(true);
  const int32 = INTEGER_CLASSES.find((c) => c.id === 'int.32')!.edges.map((e) => e.value);
  expect(int32).toEqual(expect.arrayContaining([2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1]));
  const bounds = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
  const e = { value: 2 ** 31, past: true };
  const a = conversationIdOf(e, 'onStart', bounds);
  const b = conversationIdOf(e, 'onStart', bounds);
  expect(a).not.toBe(b);
  expect(Math.min(a, b)).toBeGreaterThanOrEqual(2 ** 31);
  expect(conversationIdOf(e, 'onComplete', bounds)).toBeGreaterThan(2 ** 31);
});

test('every envelope class is a record section 2.3 allows for every seed, found again from its key (HOST-13)', () => {
  const spec = loadSpec();
  for (const c of ENVELOPE_CLASSES)
    for (const seed of SEEDS) {
      const key = envelopeKey(c, seed);
      const env = envelopeOfKey(key);
      expect(env, `${c.id}`).toBeDefined();
      // completedAt may be the time of the answer: compared apart from it.
      expect({ ...envelopeOfKey(key), completedAt: '' }).toEqual({ ...env, completedAt: '' });
      expect(spec.validateResponse('getRecord', 200, env).errors, `${c.id} seed ${seed}`).toEqual([]);
      expect(Object.keys(env!).sort()).toEqual(['callbackStatus', 'completedAt', 'data', 'errors', 'warnings']);
    }
  expect(envelopeOfKey('sk-plain-1')).toBeUndefined();
  expect(spec.validateResponse('getRecord', 200, envelope('sk-plain-1')).errors).toEqual([]);
});

test('every query encoding of every facts handle decodes to the handle, and the encoders disagree on a space and on ~ ( ) ! (HOST-16)', () => {
  for (const seed of SEEDS)
    for (const c of headerSafe())
      for (const q of QUERY_ENCODINGS) {
        const handle = sampleHeaderSafe(c, seed)[0]!;
        expect(handle).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/);
        const url = new URL(`http://h.invalid/facts?endUserHandle=${q.encode(handle)}`);
        expect(url.searchParams.get('endUserHandle'), `${c.id} ${q.id}`).toBe(handle);
      }
  const forms = (h: string) =>
    new Set(QUERY_ENCODINGS.map((q) => new URL(`http://h.invalid/?e=${q.encode(h)}`).search));
  expect(forms('Ana Lima').size).toBeGreaterThan(1);
  expect(forms('u~()!').size).toBeGreaterThan(1);
  expect(headerSafe().map((c) => c.id)).toEqual(
    expect.arrayContaining(['handle.space', 'handle.sub-delims', 'handle.number-like', 'handle.w1-max']),
  );
});
