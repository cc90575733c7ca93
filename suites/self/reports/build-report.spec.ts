import { test, expect } from '@playwright/test';
import {
  buildReport,
  renderJunit,
  renderSummary,
  reportProblems,
  assertValidReport,
  Redactor,
  applyGate,
  parseExpectedOutcomes,
  countLine,
  renderHtml,
  type BuildInput,
} from '../../../reports/index.ts';
import { CLAUSES, t, checkXml } from './helpers.ts';

const now = new Date().toISOString();
function input(tests: BuildInput['tests'], extra: Partial<BuildInput> = {}): BuildInput {
  return {
    runId: 'r1',
    startedAt: now,
    endedAt: now,
    targetDescription: 'synthetic',
    projects: ['service', 'service-realtime', 'host'],
    clauses: CLAUSES,
    tests,
    ...extra,
  };
}

const clean = [
  t({ title: 'a', clauses: ['FOO-1'], evidence: [{ sentence: 'a saw it' }] }),
  t({ title: 'b', clauses: ['FOO-1', 'FOO-2'], project: 'service-realtime' }),
  t({ title: 'c', clauses: ['FOO-3'] }),
  t({
    title: 'd',
    clauses: ['BAR-1'],
    status: 'skipped',
    skipReasons: ['capability widgets not offered by the target'],
  }),
  t({ title: 'e', clauses: ['BAR-4'], project: 'self' }),
  t({ title: 'f', clauses: ['BAR-4'], project: 'mutants', status: 'failed', ok: false, errors: ['x'] }),
];

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
    command: 'ccs-conformance run --grep FOO-1 --target t.yaml --seed -1234',
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

test('junit.xml is well-formed with one test case per clause and per test, even with markup in error text', () => {
  const r = buildReport(
    input([
      t({
        title: 'a <b> & "c"',
        clauses: ['FOO-1'],
        status: 'failed',
        ok: false,
        errors: ["\u001b[31mExpected <x> & 'y'\u0007"],
      }),
      ...clean.slice(1),
    ]),
  );
  const xml = renderJunit(r);
  expect(checkXml(xml)).toEqual([]);
  expect(xml.match(/<testcase /g)?.length).toBe(r.clauses.length + r.tests.length);
  expect(xml).toContain('<failure message="MUST clause FOO-1 failed"');
  expect(checkXml('<a><b></a>')).not.toEqual([]);
});

test('summary.md gives the verdict, counts by level and status, the failed MUST clause first and failed SHOULD as warnings', () => {
  const r = buildReport(
    input([
      t({ title: 'c', clauses: ['FOO-3'], status: 'failed', ok: false, errors: ['should broke'] }),
      t({ title: 'a', clauses: ['FOO-2'], status: 'failed', ok: false, errors: ['must broke\nsecond line'] }),
    ]),
  );
  const md = renderSummary(r);
  const lines = md.split('\n');
  expect(lines[0]).toBe('# Conformance: FAIL');
  const firstItem = lines.findIndex((l) => l.startsWith('- '));
  expect(lines[firstItem]).toContain('**FOO-2**');
  // Under the clause, its failed check: the rule, then what was seen.
  expect(lines[firstItem + 1]).toBe('  - FOO-2 FOO-2 holds: got must broke second line (expected the rule to hold)');
  expect(md).toContain('| MUST | 0 | 1 | 0 | 3 | 0 |');
  expect(md).toContain('1 host clause: not in this run');
  expect(md.indexOf('Warnings: failed SHOULD clauses')).toBeGreaterThan(md.indexOf('FOO-2'));
  expect(md).toContain('**FOO-3**');
});

test('the redactor removes listed secrets, secret-named fields and auth headers in text', () => {
  const red = new Redactor(['s3cr3t-value-1']);
  const out = red.value({
    sentence: 'sent s3cr3t-value-1',
    headers: { authorization: 'Bearer abc', 'x-api-key': 'k', accept: 'json' },
    jwk: { kty: 'EC', d: 'private-part', x: 'pub' },
    hmacSecret: 'h',
    apiKey: 'a',
    bearerToken: 'b',
    privateKey: 'p',
    curl: 'curl -H \'Authorization: Bearer tok123\' -H "x-api-key: kkk" u',
  });
  const text = JSON.stringify(out);
  for (const s of ['s3cr3t-value-1', 'Bearer abc', 'private-part', 'tok123', 'kkk', '"h"', '"a"', '"b"', '"p"'])
    expect(text).not.toContain(s);
  expect(out).toMatchObject({ headers: { accept: 'json' }, jwk: { x: 'pub' } });
});

test('the CI line counts passed as expected and failed as unexpected plus flaky, skipped appended', () => {
  expect(countLine({ stats: { expected: 10, unexpected: 1, flaky: 2, skipped: 0 } })).toBe('10 passed, 3 failed');
  expect(countLine({ stats: { expected: 4, unexpected: 0, flaky: 0, skipped: 3 } })).toBe(
    '4 passed, 0 failed, 3 skipped',
  );
});

test('with a seeded fault on, summary.md names the clause the fault breaks first among the failed MUST clauses', () => {
  const r = buildReport(
    input(
      [
        t({ title: 'a', clauses: ['FOO-1'], status: 'failed', ok: false, errors: ['collateral'] }),
        t({ title: 'b', clauses: ['FOO-2'], status: 'failed', ok: false, errors: ['the broken rule'] }),
      ],
      { seededFaults: [{ name: 'break-foo-2', clause: 'FOO-2' }] },
    ),
  );
  assertValidReport(r);
  const first = renderSummary(r)
    .split('\n')
    .find((l) => l.startsWith('- '));
  expect(first).toContain('**FOO-2** _(broken by seeded fault break-foo-2)_');
});

test('a service run names its data API forms in the report, summary.md and clauses.html headers; a host run does not', () => {
  const forms = { configEnd: 'with-slash', keyedWrite: 'body', keyField: 'recordKey', writeBody: 'bare' } as const;
  const r = buildReport(input(clean, { dataApi: forms }));
  expect(r.target.dataApi).toEqual(forms);
  assertValidReport(r);
  expect(renderSummary(r)).toContain(
    'Data API forms (target `dataApi`; the contract leaves them open, UNSPEC-8, UNSPEC-9): configEnd with its slash (/endpoints//profile/data/...); keyed write with the serviceKey in the body member "recordKey" (POST .../data/{endUserHandle}); write body the bare field map {...}',
  );
  expect(renderHtml(r)).toContain(
    'Data API forms (target <code>dataApi</code>; UNSPEC-8, UNSPEC-9): configEnd with its slash',
  );
  const host = buildReport(
    input([t({ title: 'h', clauses: ['BAR-4'], project: 'host' })], { projects: ['host'], dataApi: forms }),
  );
  expect(host.target.dataApi).toBeUndefined();
  expect(renderSummary(host)).not.toContain('Data API forms');
});

test('the hints of failed checks and stopped preconditions are listed once for the run, with their clauses', () => {
  const hint =
    'the service answered 405 to POST .../data/{endUserHandle}/{serviceKey}: check `dataApi.keyedWrite` in the target';
  const tests = [
    t({
      title: 'a',
      clauses: ['FOO-1'],
      status: 'failed',
      ok: false,
      errors: [`FOO-1: the keyed write is answered with a 2xx: expected a 2xx, got 405. Hint: ${hint}`],
      checks: [
        {
          clauses: ['FOO-1'],
          rule: 'the keyed write is answered with a 2xx',
          outcome: 'failed',
          expected: 'a 2xx',
          seen: '405',
          hint,
          stopped: true,
        },
      ],
    }),
    t({
      title: 'b',
      clauses: ['FOO-2'],
      status: 'failed',
      ok: false,
      errors: [`Error: precondition: the keyed write is answered with a 2xx: expected a 2xx, got 405. Hint: ${hint}`],
      checks: [],
    }),
    t({ title: 'c', clauses: ['FOO-3'] }),
  ];
  const r = buildReport(input(tests));
  expect(r.hints).toEqual([{ hint, clauses: ['FOO-1', 'FOO-2'] }]);
  expect(r.clauses.find((c) => c.id === 'FOO-2')?.status).toBe('blocked');
  assertValidReport(r);
  // Shown whole on the failed clause's line, so not said again under ## Hints.
  const md = renderSummary(r);
  expect(md.split(hint).length - 1).toBe(1);
  expect(md).not.toContain('## Hints');
  // A hint that only a stopped precondition gave (its clauses blocked) is listed once for the run.
  const blockedOnly = buildReport(input([tests[1]!, tests[2]!]));
  expect(renderSummary(blockedOnly)).toContain(`## Hints\n\n- ${hint} (FOO-2)`);
  expect(buildReport(input(clean)).hints).toBeUndefined();
});
