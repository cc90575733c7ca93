import { test, expect } from '@playwright/test';
import { loadSpec } from '../../../spec/index.ts';
import { invalidBySpec } from '../../host/harness/generated.ts';
import { valueCallbacks } from '../../host/harness/value-callbacks.ts';
import {
  CONVERSATION_ID_CLASSES,
  ENVELOPE_CLASSES,
  HANDLE_CLASSES,
  KEY_CLASSES,
  QUERY_ENCODINGS,
  envelope,
  envelopeKey,
  envelopeOfKey,
  headerSafe,
} from '../../host/harness/value-classes.ts';

/**
 * The value classes are what the contract allows, never the harness's assumption: a FAIL on one of
 * them must be the receiver's. Each handle is a legal endUserHandle (2.1), each envelope a legal 2.3
 * record, each callback valid per spec/openapi.yaml, each query encoding decodes to the handle.
 */
const base = { workspaceKey: 'ws-self', configEnd: '/settings', hookPath: '/hooks/ccs' };

test('every callback of the value classes is valid per spec/openapi.yaml, and an escaped body is the same JSON value (HOST-26, HOST-4)', () => {
  const cs = valueCallbacks(base);
  expect(invalidBySpec(cs.map((c) => c.payload))).toEqual([]);
  const escaped = cs.filter((c) => c.body !== undefined);
  expect(escaped.length).toBeGreaterThanOrEqual(3);
  for (const c of escaped) {
    expect(JSON.parse(c.body!)).toEqual(c.payload);
    expect(c.body).not.toBe(JSON.stringify(c.payload));
    expect(c.body).toMatch(/^[\x20-\x7e]*$/);
  }
});

test('every handle class gives legal endUserHandles (at most 255 characters, never org-), fresh on every call (HOST-26)', () => {
  for (const c of HANDLE_CLASSES) {
    const a = c.make();
    expect([...a].length <= 255 && a.length <= 255, `${c.id}: ${a.length}`).toBe(true);
    expect(a.toLowerCase().startsWith('org-'), c.id).toBe(false);
    expect(c.make(), c.id).not.toBe(a);
  }
  for (const c of KEY_CLASSES) expect(c.make(), c.id).not.toBe(c.make());
  for (const n of CONVERSATION_ID_CLASSES) expect(Number.isSafeInteger(n.make()), n.id).toBe(true);
});

test('every envelope class is a record section 2.3 allows, found again from its key of every key class (HOST-13)', () => {
  const spec = loadSpec();
  for (const c of ENVELOPE_CLASSES)
    for (const k of KEY_CLASSES) {
      const key = envelopeKey(c, k);
      const env = envelopeOfKey(key);
      // completedAt is the time of the answer: compared apart from it.
      expect({ ...env, completedAt: '' }, `${c.id} with ${k.id}`).toEqual({ ...c.envelope(key), completedAt: '' });
      const r = spec.validateResponse('getRecord', 200, env);
      expect(r.errors, `${c.id}`).toEqual([]);
      expect(Object.keys(env!).sort()).toEqual(['callbackStatus', 'completedAt', 'data', 'errors', 'warnings']);
    }
  expect(envelopeOfKey('sk-plain-1')).toBeUndefined();
  expect(spec.validateResponse('getRecord', 200, envelope('sk-plain-1')).errors).toEqual([]);
});

test('every query encoding of every facts handle decodes to the handle, and the encoders disagree on a space and on ~ ( ) ! (HOST-16)', () => {
  for (const c of headerSafe())
    for (const q of QUERY_ENCODINGS) {
      const handle = c.make();
      const url = new URL(`http://h.invalid/facts?endUserHandle=${q.encode(handle)}`);
      expect(url.searchParams.get('endUserHandle'), `${c.id} ${q.id}`).toBe(handle);
    }
  const forms = (h: string) =>
    new Set(QUERY_ENCODINGS.map((q) => new URL(`http://h.invalid/?e=${q.encode(h)}`).search));
  expect(forms('Ana Lima').size).toBeGreaterThan(1);
  expect(forms('u~()!').size).toBeGreaterThan(1);
  expect(headerSafe().map((c) => c.id)).toEqual(expect.arrayContaining(['handle.space', 'handle.sub-delims']));
});
