/**
 * The report builder's renderings: junit.xml, summary.md, the CI line, the redactor, the data API forms in the
 * headers, and the run's hints.
 */
import { test, expect } from '@playwright/test';
import {
  buildReport,
  renderJunit,
  renderSummary,
  assertValidReport,
  Redactor,
  countLine,
  renderHtml,
} from '../../../reports/index.ts';
import { t, checkXml } from './helpers.ts';
import { clean, input } from './build-input.ts';

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

test("a test's coverage lines reach conformance.json and summary.md, each once, under the test's rule", () => {
  const lines = [
    'transition coverage: 3/4 reachable rows exercised (75%); not reached: T2',
    'mixed-scope triggers: 1/1',
  ];
  const withCoverage = t({ title: 'sequences keep to the model (FOO-1)', clauses: ['FOO-1'], coverage: lines });
  const r = buildReport(input([...clean, withCoverage]));
  assertValidReport(r);
  expect(r.coverage).toEqual([{ test: 'sequences keep to the model (FOO-1)', lines }]);
  const md = renderSummary(r);
  expect(md).toContain('## Coverage: sequences keep to the model\n\n- transition coverage: 3/4');
  expect(md.split('not reached: T2').length).toBe(2);
  expect(buildReport(input(clean)).coverage).toBeUndefined();
});
