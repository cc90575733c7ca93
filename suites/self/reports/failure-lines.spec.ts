/**
 * Failures in one line: a failed check reads as its rule, then what was seen, then the request where,
 * so the line a reader sees first says what broke; a check that failed many times is one line with its
 * count and one example in summary.md and the console, while conformance.json and junit.xml keep every
 * failure; the clauses not exercised are listed with their reasons.
 */
import { test, expect } from '@playwright/test';
import {
  applyGate,
  assertValidReport,
  buildReport,
  clauseCheckLines,
  failedCheckLine,
  middleCut,
  renderJunit,
  renderSummary,
  seenFirst,
} from '../../../reports/index.ts';
import type { CheckRecord } from '../../../spec/index.ts';
import { CLAUSES, t } from './helpers.ts';

const LONG_URL = `http://127.0.0.1:3100/webhooks/ccs/${'tenant-'.repeat(12)}callbacks`;
const REFUSED = 'connection failed (connect ECONNREFUSED 127.0.0.1:3100)';

function badSignature(n: number, seen = `POST ${LONG_URL}: 200 after ${n} ms`): CheckRecord {
  return {
    clauses: ['FOO-1'],
    id: 'sig.bad-refused',
    rule: `hmac case ${n}: a bad signature is refused with 401`,
    outcome: 'failed',
    expected: 'refused (401)',
    seen,
  };
}

function run(checks: CheckRecord[]) {
  return buildReport({
    runId: 'r',
    startedAt: new Date().toISOString(),
    endedAt: new Date().toISOString(),
    targetDescription: 'synthetic',
    projects: ['service'],
    clauses: CLAUSES,
    tests: [
      t({ title: 'bad signatures', clauses: ['FOO-1'], status: 'failed', ok: false, checks }),
      t({ title: 'b', clauses: ['FOO-2'] }),
      t({
        title: 'skipped',
        clauses: ['FOO-3', 'BAR-1'],
        status: 'skipped',
        ok: true,
        skipReasons: ['capability widgets not offered'],
      }),
    ],
  });
}

test('a failed check reads as the rule, then what was seen, then the request; a long URL is cut in its middle', () => {
  const seen = `POST ${LONG_URL}: ${REFUSED}`;
  const line = failedCheckLine({ rule: 'onComplete is acknowledged', expected: 'a 2xx', seen, count: 1 });
  const start = `onComplete is acknowledged: got ${REFUSED} (expected a 2xx) — at POST http://127.0.0.1:3100/`;
  expect(line.startsWith(start)).toBe(true);
  expect(line).toContain('…');
  expect(line.endsWith('callbacks')).toBe(true);
  expect(line).not.toContain(LONG_URL);
  expect(middleCut('short', 10)).toBe('short');
  expect(middleCut('0123456789abcdef', 9)).toBe('0123…cdef');
  // A value without a request keeps its words whole; a journal entry's "#3 METHOD URL" moves behind them.
  expect(failedCheckLine({ rule: 'r', seen: '"x"', count: 1 })).toBe('r: got "x"');
  expect(failedCheckLine({ rule: 'r', seen: '#3 POST http://h/x event=onStart id=d1', count: 1 })).toBe(
    'r: got event=onStart id=d1 — at #3 POST http://h/x',
  );
});

test('a stopped precondition quoting a request says what was seen before where', () => {
  const text = `precondition: the callback is answered: expected a 2xx, got POST ${LONG_URL}: ${REFUSED}. Hint: go`;
  const out = seenFirst(text);
  expect(out.indexOf(REFUSED)).toBeLessThan(out.indexOf('— at POST'));
  expect(out.endsWith('. Hint: go')).toBe(true);
});

test('one check failed 12 times is one line with its count and one example; the json and junit keep all 12', () => {
  const r = run(Array.from({ length: 12 }, (_, i) => badSignature(i + 1)));
  assertValidReport(r);
  const foo1 = r.clauses.find((c) => c.id === 'FOO-1')!;
  expect(foo1.failedChecks).toHaveLength(1);
  expect(foo1.failedChecks?.[0]).toMatchObject({ id: 'sig.bad-refused', count: 12, test: 'bad signatures' });
  const [line, ...rest] = clauseCheckLines(foo1);
  expect(rest).toEqual([]);
  expect(line).toMatch(/^FOO-1 hmac case 1: a bad signature is refused with 401: failed 12 times, e\.g\. got 200 /);
  const md = renderSummary(r);
  expect(md.split('\n').filter((l) => l.includes('a bad signature is refused'))).toHaveLength(1);
  expect(md).toContain(`  - ${line}`);
  // Evidence is never lost: every failure's words stay in conformance.json and junit.xml.
  expect(foo1.failures?.[0]?.error.split('\n')).toHaveLength(12);
  const junit = renderJunit(r);
  for (let n = 1; n <= 12; n++) expect(junit).toContain(`hmac case ${n}: a bad signature is refused with 401`);
});

test('a check counted past its kept records keeps its whole count; other checks of the clause get a line each', () => {
  const capped = { ...badSignature(40), count: 61 };
  const other: CheckRecord = {
    clauses: ['FOO-1'],
    id: 'sig.other',
    rule: 'another rule',
    outcome: 'failed',
    expected: 'x',
    seen: 'y',
  };
  const r = run([badSignature(1), capped, other]);
  const lines = clauseCheckLines(r.clauses.find((c) => c.id === 'FOO-1')!);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('failed 62 times, e.g.');
  expect(lines[1]).toBe('FOO-1 another rule: got y (expected x)');
});

test('the console lines of the gate come from the same checks: a failed MUST clause, then its check lines', () => {
  const r = run([badSignature(1), badSignature(2)]);
  expect(applyGate(r).errors[0]).toMatch(/^MUST FOO-1 failed: /);
  const lines = clauseCheckLines(r.clauses.find((c) => c.id === 'FOO-1')!);
  expect(lines[0]).toContain('failed 2 times, e.g. got 200 after 1 ms');
});

test('summary.md lists the clauses not exercised under "Not exercised", grouped by reason shared by several', () => {
  const md = renderSummary(run([badSignature(1)]));
  const lines = md.split('\n');
  const at = lines.indexOf('## Not exercised');
  expect(at).toBeGreaterThan(0);
  const section = lines.slice(at + 2, lines.indexOf('', at + 2));
  expect(section).toContain('- FOO-3, BAR-1: capability widgets not offered');
  expect(section).toContain('- BAR-2: no test citing this clause ran');
  expect(section).toContain('- BAR-3: unobservable: inside the service');
  // Host clauses are not in this service run: counted on their own line, never listed as not exercised.
  expect(section.join('\n')).not.toContain('BAR-4');
});

test("a blocked MUST clause's gate and summary.md lines say what stopped the test before the request", () => {
  const error = `Error: precondition: the onComplete is answered: expected a 2xx, got POST ${LONG_URL}: ${REFUSED}`;
  const r = buildReport({
    runId: 'r',
    startedAt: new Date().toISOString(),
    endedAt: new Date().toISOString(),
    targetDescription: 'synthetic',
    projects: ['service'],
    clauses: CLAUSES,
    tests: [t({ title: 'stopped', clauses: ['FOO-2'], status: 'failed', ok: false, errors: [error], checks: [] })],
  });
  const line = applyGate(r).errors.find((e) => e.startsWith('MUST FOO-2 not decided (blocked)')) ?? '';
  expect(line.indexOf(REFUSED)).toBeGreaterThan(0);
  expect(line.indexOf(REFUSED)).toBeLessThan(line.indexOf('— at POST'));
  const md =
    renderSummary(r)
      .split('\n')
      .find((l) => l.startsWith('- **FOO-2**')) ?? '';
  expect(md.indexOf(REFUSED)).toBeGreaterThan(0);
  expect(md.indexOf(REFUSED)).toBeLessThan(md.indexOf('— at POST'));
});
