/**
 * The check API (suites/shared/checks.ts, spec/checks.ts): a check names its clauses, a passing rule
 * is kept once with its count, and a failure reads as the rule, what was expected and what was seen.
 */
import { test, expect } from '@playwright/test';
import {
  check,
  checksOf,
  hintOfFailure,
  NO_ANSWER_HINT,
  notExercised,
  show,
  TIMED_OUT_HINT,
} from '../../shared/index.ts';
import { checkWords, parseCheckRecords, type HostCheckId } from '../../../spec/index.ts';

test('a check names its clauses; a rule that holds twice is kept once with its count; a not-exercised note keeps its reason', async ({}, testInfo) => {
  check('HOST-3', 'a bad signature is refused').equals(401, 401);
  check.soft(['HOST-3', 'HOST-25'], 'a bad signature is refused on every event').oneOf(401, [401]);
  check.soft(['HOST-3', 'HOST-25'], 'a bad signature is refused on every event').oneOf(401, [401]);
  notExercised('HOST-4', 'signing mode none: nothing is signed');
  expect(checksOf(testInfo)).toEqual([
    { clauses: ['HOST-3'], rule: 'a bad signature is refused', outcome: 'passed' },
    { clauses: ['HOST-3', 'HOST-25'], rule: 'a bad signature is refused on every event', outcome: 'passed', count: 2 },
    {
      clauses: ['HOST-4'],
      rule: 'not exercised in this run',
      outcome: 'not-exercised',
      reason: 'signing mode none: nothing is signed',
    },
  ]);
});

test('a failure reads as the rule, what was expected and what was seen, never a bare boolean', () => {
  expect(
    checkWords({
      clauses: ['HOST-1'],
      rule: 'hmac onStart is acknowledged',
      outcome: 'failed',
      expected: 'a 2xx within 10000 ms',
      seen: '308 after 18 ms',
    }),
  ).toBe('HOST-1: hmac onStart is acknowledged: expected a 2xx within 10000 ms, got 308 after 18 ms');
  expect(
    checkWords({
      clauses: ['HOST-6'],
      rule: 'r',
      outcome: 'failed',
      expected: '401',
      seen: '200',
      hint: 'checks the past side only',
    }),
  ).toContain('Hint: checks the past side only');
  expect(show(undefined)).toBe('absent');
  expect(show('x'.repeat(500)).length).toBeLessThanOrEqual(200);
});

test('attachment bodies that are not lists of records yield none', () => {
  expect(parseCheckRecords('not json')).toEqual([]);
  expect(parseCheckRecords('{"clauses":[]}')).toEqual([]);
  expect(parseCheckRecords('[{"clauses":["X-1"],"rule":"r","outcome":"passed"},{"rule":1}]')).toHaveLength(1);
});

test(
  'a failure with no HTTP answer (a refused connection, an unknown host, a request held past its deadline) never ' +
    "carries a library hint, only its own; an HTTP answer or a reset keeps the fault model's row it matches",
  () => {
    const at = 'POST http://127.0.0.1:1/hooks/ccs';
    const o = { id: 'ack.2xx-within-10s' as const };
    for (const error of ['connect ECONNREFUSED 127.0.0.1:1', 'getaddrinfo ENOTFOUND receiver.invalid']) {
      const seen = `${at}: connection failed (${error})`;
      expect(hintOfFailure(o, { expected: 'a 2xx', seen })).toEqual({ hint: NO_ANSWER_HINT });
    }
    expect(hintOfFailure(o, { expected: 'a 2xx', seen: `${at}: 308 after 3 ms` })?.hint).toContain('redirect');
    const held = `${at}: no answer within the deadline (10000 ms)`;
    expect(hintOfFailure(o, { expected: 'a 2xx', seen: held })).toEqual({ hint: TIMED_OUT_HINT });
    // A reset is an answer of sorts: the fault model's hint whose words it matches (a header limit), none of another.
    const reset = { expected: 'a 2xx', seen: `${at}: connection failed (read ECONNRESET)` };
    expect(hintOfFailure({ id: 'delivery.every-page-acked' }, reset)?.hint).toContain('header limit');
    expect(hintOfFailure(o, reset)).toBeUndefined();
    const own = { expected: 'a 2xx', seen: `${at}: connection failed (connect ECONNREFUSED)`, hint: 'own' };
    expect(hintOfFailure(o, own)).toEqual({ hint: 'own' });
  },
);

test('of the hinted rows of one check, a failure carries the hint of the row whose words it matches, or none', () => {
  const at = 'POST http://127.0.0.1:1/hooks/ccs';
  const hint = (id: HostCheckId, seen: string) => hintOfFailure({ id }, { expected: '', seen }, 'rule')?.hint;
  expect(hint('ack.2xx-within-10s', `${at}: 308 after 3 ms`)).toContain('redirect');
  expect(hint('ack.2xx-within-10s', `${at}: 404 after 3 ms`)).toContain('hookPath');
  // a 2xx too late is no redirect and no wrong path
  expect(hint('ack.2xx-within-10s', `${at}: 200 after 12000 ms`)).toBeUndefined();
  expect(hint('sig.refusal-401', `${at}: 403 after 3 ms`)).toContain('not 400, 403 or 500');
  expect(hint('sig.refusal-401', `${at}: 500 after 3 ms`)).toContain('64 hex digits');
  expect(hint('facts.matches-class', '(top) must NOT have additional properties (DisplayName)')).toContain('json tag');
  expect(hint('facts.matches-class', '/age must be integer')).toBeUndefined();
  expect(hint('facts.languages-english', '"de" is a language code or tag, not a name')).toContain('not codes');
  expect(hint('facts.languages-english', '"Deutsch" is the native name of German')).toBeUndefined();
});
