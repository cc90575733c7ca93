/**
 * The report builder's verdicts: each clause's status from its tests, the gate, expected outcomes, --require-all
 * and the report schema. Its renderings are build-report-renderings.spec.ts's.
 */
import { test, expect } from '@playwright/test';
import {
  buildReport,
  reportProblems,
  assertValidReport,
  applyGate,
  parseExpectedOutcomes,
} from '../../../reports/index.ts';
import { t } from './helpers.ts';
import { clean, input } from './build-input.ts';

test('a clause passes when every test citing it passed, and only conformance projects count', () => {
  const r = buildReport(input(clean));
  const by = Object.fromEntries(r.clauses.map((c) => [c.id, c]));
  expect(by['FOO-1']?.status).toBe('passed');
  expect(by['FOO-1']?.evidence).toEqual([{ sentence: 'a saw it' }]);
  expect(by['FOO-2']?.status).toBe('passed');
  // BAR-4 is cited only by self and mutants tests: not conformance evidence; and it is a host
  // clause in a service run.
  expect(by['BAR-4']?.status).toBe('not-in-run');
  expect(r.sides).toEqual(['service']);
  expect(r.tests.map((x) => x.title)).toEqual(['a', 'b', 'c', 'd']);
  expect(r.verdict).toBe('pass');
  assertValidReport(r);
});

test('a clause is not-exercised with the skip reason, or the unobservable note, or "no test"', () => {
  const by = Object.fromEntries(buildReport(input(clean)).clauses.map((c) => [c.id, c]));
  expect(by['BAR-1']?.notExercisedReasons).toEqual(['capability widgets not offered by the target']);
  expect(by['BAR-2']?.notExercisedReasons).toEqual(['no test citing this clause ran']);
  expect(by['BAR-3']?.notExercisedReasons).toEqual(['unobservable: inside the service']);
  expect(by['UNSPEC-1']?.status).toBe('unspecified');
});

test('a failing test fails its clauses with its error text, reproduction and a fail verdict for MUST', () => {
  const tests = [...clean];
  tests[1] = t({
    title: 'b',
    clauses: ['FOO-1', 'FOO-2'],
    status: 'failed',
    ok: false,
    errors: ['Property failed after 3 tests\n{ seed: -1234, path: "2:0:1", endOnFailure: true }'],
    evidence: [
      {
        sentence: 'no retry came',
        requests: [
          {
            method: 'POST',
            url: 'http://127.0.0.1/x',
            status: 503,
            curl: "curl -X POST -H 'X-Api-Key: abcdef123' http://127.0.0.1/x",
          },
        ],
        entries: [{ event: 'onComplete' }],
      },
    ],
  });
  const r = buildReport(input(tests, { repro: { target: 't.yaml', seed: '7' } }));
  const foo1 = r.clauses.find((c) => c.id === 'FOO-1');
  expect(foo1?.status).toBe('failed');
  expect(foo1?.failures?.[0]?.error).toContain('seed: -1234');
  expect(foo1?.reproduction).toMatchObject({
    command: "CCS_SEED_PATH='2:0:1' ccs-conformance run --grep FOO-1 --target t.yaml --seed -1234",
    seed: '-1234',
    path: '2:0:1',
    curl: ["curl -X POST -H 'X-Api-Key: [REDACTED]' http://127.0.0.1/x"],
    entries: [{ event: 'onComplete' }],
  });
  expect(r.verdict).toBe('fail');
  expect(r.totals.byLevel.MUST.failed).toBe(2);
  assertValidReport(r);
});

test('a flaky test counts as failed; a failed SHOULD clause leaves the verdict pass and the gate warns', () => {
  const r = buildReport(input([t({ title: 'c', clauses: ['FOO-3'], status: 'passed', ok: false })]));
  expect(r.clauses.find((c) => c.id === 'FOO-3')?.status).toBe('failed');
  expect(r.verdict).toBe('pass');
  const gate = applyGate(r);
  expect(gate.exitCode).toBe(0);
  expect(gate.warnings[0]).toContain('SHOULD FOO-3 failed');
});

test('an expected failure passes marked, and an expected failure that passes is stale and fails the run', () => {
  const failing = [
    t({ title: 'a', clauses: ['FOO-1'], status: 'failed', ok: false, errors: ['boom'] }),
    t({ title: 'c', clauses: ['FOO-3'] }),
  ];
  const expected = parseExpectedOutcomes(
    'expectedFailures:\n  - { clause: FOO-1, reason: known bug 12 }\n  - { clause: FOO-3, reason: fixed since }\n',
    'x.yaml',
  );
  const r = buildReport(input(failing, { expected }));
  const by = Object.fromEntries(r.clauses.map((c) => [c.id, c]));
  expect(by['FOO-1']).toMatchObject({ status: 'passed', expectedFailure: { reason: 'known bug 12' } });
  expect(by['FOO-3']).toMatchObject({ status: 'failed', staleExpectation: { reason: 'fixed since' } });
  expect(r.staleExpectations).toEqual(['FOO-3']);
  expect(r.verdict).toBe('fail');
  expect(applyGate(r).errors[0]).toContain('FOO-3: expected to fail');
  assertValidReport(r);
});

test('an expected-outcomes file with a bad field is refused naming the field', () => {
  expect(() => parseExpectedOutcomes('expectedFailures:\n  - { clause: FOO-1 }\n', 'e.yaml')).toThrow(
    /e\.yaml: expectedFailures\[0\]\.reason/,
  );
  expect(() =>
    parseExpectedOutcomes('expectedFailures:\n  - { clause: NOPE-9, reason: r }\n', 'e.yaml', new Set(['FOO-1'])),
  ).toThrow(/expectedFailures\[0\]\.clause: NOPE-9 is not a clause/);
  expect(() => parseExpectedOutcomes('expected: []\n', 'e.yaml')).toThrow(/e\.yaml: expected: unknown field/);
});

test('--require-all fails on a clause the run could exercise, never on unobservable or other-side clauses', () => {
  const r = buildReport(input(clean));
  const gate = applyGate(r, { requireAll: true, sides: ['service'] });
  expect(gate.exitCode).toBe(1);
  const ids = gate.errors.map((e) => e.split(' ')[1]);
  expect(ids).toEqual(['BAR-1', 'BAR-2']);
  expect(applyGate(r, { requireAll: true, sides: ['service'], selected: (c) => c.id === 'FOO-1' }).exitCode).toBe(0);
});

test('the schema refuses a report with a wrong status, a failed clause without failures, or a missing verdict', () => {
  const r = buildReport(input(clean)) as unknown as Record<string, unknown> & {
    clauses: Array<Record<string, unknown>>;
  };
  const bad = structuredClone(r);
  (bad.clauses[0] as Record<string, unknown>).status = 'green';
  expect(reportProblems(bad).join()).toContain('/clauses/0/status');
  const noFailures = structuredClone(r);
  (noFailures.clauses[0] as Record<string, unknown>).status = 'failed';
  expect(reportProblems(noFailures).join()).toContain('failures');
  const noVerdict = structuredClone(r);
  delete noVerdict.verdict;
  expect(() => assertValidReport(noVerdict)).toThrow(/REPORT|verdict/);
});
