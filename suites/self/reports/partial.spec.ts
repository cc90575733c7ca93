/**
 * Partial verdicts (reports/exercised.ts): a clause that passed while a test citing it was not exercised,
 * or a test that passed it noted a check of it it could not make, reads "passed (partly)" in every report
 * with what was not seen and why, and conformance.json says how much was seen (`exercised`); its status
 * stays passed. --require-full fails the gate on a partial MUST clause only; the traffic judge's notes
 * (advice for `observe`) make nothing partial in a driven run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import {
  applyGate,
  assertValidReport,
  attributeTest,
  buildReport,
  judgedJournalRecords,
  renderHtml,
  renderJunit,
  renderSummary,
  type ClauseRecord,
} from '../../../reports/index.ts';
import { DRIVER_PART_RULE, type CheckRecord } from '../../../spec/index.ts';
import { checkXml, t } from './helpers.ts';
import { input } from './build-input.ts';

const SKIP = 'capability jwksRotation not offered by the target';
const held = (id: string, rule = `${id} holds`): CheckRecord => ({ clauses: [id], rule, outcome: 'passed' });
const note = (id: string, reason: string): CheckRecord => ({
  clauses: [id],
  rule: `${id} note`,
  outcome: 'not-exercised',
  reason,
});

/** FOO-1 (MUST): one passing test, one skipped for a capability. FOO-2 (MUST): two passing tests. */
const mixed = [
  t({ title: 'rotation-free check (FOO-1)', clauses: ['FOO-1'] }),
  t({ title: 'rotation check (FOO-1)', clauses: ['FOO-1'], status: 'skipped', skipReasons: [SKIP] }),
  t({ title: 'second rule once (FOO-2)', clauses: ['FOO-2'] }),
  t({ title: 'second rule again (FOO-2)', clauses: ['FOO-2'], project: 'service-realtime' }),
];

function clause(clauses: ClauseRecord[], id: string): ClauseRecord {
  const c = clauses.find((x) => x.id === id);
  if (!c) throw new Error(`no clause ${id}`);
  return c;
}

/** The <tr> of a clause in clauses.html. */
function row(html: string, id: string): string {
  return new RegExp(`<tr class="clause[^"]*" id="${id}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
}

/** The <testcase> of a clause in junit.xml. */
function testcase(xml: string, id: string): string {
  return (
    new RegExp(`<testcase classname="clauses\\.[A-Z]+" name="${id} [^"]*"[^>]*?(/>|>[\\s\\S]*?</testcase>)`).exec(
      xml,
    )?.[0] ?? ''
  );
}

test('a clause with one passing and one skipped test passed partly, with the skip reason and the fraction, in every report', () => {
  const r = buildReport(input(mixed));
  assertValidReport(r);
  const foo1 = clause(r.clauses, 'FOO-1');
  // The status stays passed (a gate on the status keeps its meaning); the new field says partly.
  expect(foo1.status).toBe('passed');
  expect(foo1.exercised).toEqual({ seen: 1, of: 2, notSeen: [{ test: 'rotation check (FOO-1)', reason: SKIP }] });
  expect(r.verdict).toBe('pass');

  const md = renderSummary(r);
  expect(md).toContain('## Passed partly (a part not exercised)');
  expect(md).toContain(
    `- **FOO-1** [MUST] (§2.2) A synthetic MUST rule. — passed (partly), 1 of 2 exercised; not seen: ${SKIP}, in "rotation check (FOO-1)"`,
  );
  expect(md).toContain('1 passed clause passed only partly');
  expect(md).not.toMatch(/\*\*FOO-2\*\*.*partly/);

  const xml = renderJunit(r);
  expect(checkXml(xml)).toEqual([]);
  expect(testcase(xml, 'FOO-1')).toContain(
    `<system-out>passed (partly): 1 of 2 exercised; not seen: ${SKIP}, in &quot;rotation check (FOO-1)&quot;</system-out>`,
  );
  expect(testcase(xml, 'FOO-1')).not.toMatch(/<failure|<skipped/);

  const html = renderHtml(r, { areaTitles: {} });
  const foo1Row = row(html, 'FOO-1');
  expect(foo1Row).toContain('data-status="passed" data-partly="1"');
  expect(foo1Row).toContain('>passed (partly)</span>');
  expect(foo1Row).toContain('passed (partly): 1 of 2 exercised');
  expect(foo1Row).toContain(`not seen: ${SKIP}, in &quot;rotation check (FOO-1)&quot;`);
  expect(html).toContain('1 of the passed clauses passed (partly): <a href="#FOO-1">FOO-1</a>');
});

test('a fully exercised clause stays plain "passed" everywhere, with every part seen', () => {
  const r = buildReport(input(mixed));
  const foo2 = clause(r.clauses, 'FOO-2');
  expect(foo2).toMatchObject({ status: 'passed', exercised: { seen: 2, of: 2 } });
  expect(foo2.exercised?.notSeen).toBeUndefined();
  expect(testcase(renderJunit(r), 'FOO-2')).toMatch(/\/>$/);
  const foo2Row = row(renderHtml(r, { areaTitles: {} }), 'FOO-2');
  expect(foo2Row).toContain('<span class="st s-passed">passed</span>');
  expect(foo2Row).not.toContain('partly');

  // Without a partial clause the summary says nothing of it.
  const full = buildReport(input(mixed.filter((x) => x.status !== 'skipped')));
  expect(renderSummary(full)).not.toContain('partly');
  expect(applyGate(full, { requireFull: true })).toMatchObject({ exitCode: 0, errors: [], notes: [] });
});

test('a not-exercised check of a clause inside a passing test makes it partial, with the note as the reason', () => {
  const r = buildReport(
    input([
      t({ title: 'signed run (FOO-1)', clauses: ['FOO-1'], checks: [held('FOO-1'), note('FOO-1', 'signing off')] }),
    ]),
  );
  assertValidReport(r);
  expect(clause(r.clauses, 'FOO-1')).toMatchObject({
    status: 'passed',
    exercised: { seen: 1, of: 2, notSeen: [{ test: 'signed run (FOO-1)', reason: 'signing off' }] },
  });
  // A test that ran, checked only another clause and noted why: not exercised, so the clause is partial too.
  const r2 = buildReport(
    input([
      t({ title: 'a (FOO-1)', clauses: ['FOO-1'] }),
      t({ title: 'b (FOO-1, FOO-2)', clauses: ['FOO-1', 'FOO-2'], checks: [held('FOO-2'), note('FOO-1', 'no kid')] }),
    ]),
  );
  expect(clause(r2.clauses, 'FOO-1').exercised).toEqual({
    seen: 1,
    of: 2,
    notSeen: [{ test: 'b (FOO-1, FOO-2)', reason: 'no kid' }],
  });
});

test('--require-full fails the gate on a partial MUST clause, one line naming it, and never on a partial SHOULD', () => {
  const r = buildReport(
    input([
      ...mixed,
      t({ title: 'should rule (FOO-3)', clauses: ['FOO-3'] }),
      t({ title: 'should rule skipped (FOO-3)', clauses: ['FOO-3'], status: 'skipped', skipReasons: [SKIP] }),
    ]),
  );
  const plain = applyGate(r);
  expect(plain.exitCode).toBe(0);
  expect(plain.notes).toEqual([
    `MUST FOO-1 passed (partly), 1 of 2 exercised; not seen: ${SKIP}, in "rotation check (FOO-1)"`,
    `SHOULD FOO-3 passed (partly), 1 of 2 exercised; not seen: ${SKIP}, in "should rule skipped (FOO-3)"`,
  ]);
  const full = applyGate(r, { requireFull: true, sides: ['service'] });
  expect(full.exitCode).toBe(1);
  expect(full.errors).toEqual([
    `MUST FOO-1 passed only partly (--require-full): 1 of 2 exercised; not seen: ${SKIP}, in "rotation check (FOO-1)"`,
  ]);
  expect(full.notes).toEqual([expect.stringMatching(/^SHOULD FOO-3 passed \(partly\)/)]);
  // Outside the --grep / --area selection a partial clause is only a note, as for --require-all.
  expect(applyGate(r, { requireFull: true, selected: (c) => c.id === 'FOO-3' }).exitCode).toBe(0);
  const foo3 = buildReport(input([t({ title: 'should rule (FOO-3)', clauses: ['FOO-3'] }), mixed[1]!]));
  expect(applyGate(foo3, { requireFull: true }).exitCode).toBe(0);
});

test("the traffic judge's not-exercised notes are dropped when its journals are read, and make nothing partial", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-judged-'));
  try {
    const checks: CheckRecord[] = [
      held('FOO-1', 'every callback is signed'),
      note('FOO-1', 'no onComplete was answered 5xx: `--inject onComplete=503`'),
      note('FOO-3', 'no retry seen: `--inject onComplete=503`'),
      { clauses: ['FOO-2'], rule: 'the attempt header', outcome: 'warning', reason: 'cannot tell' },
    ];
    const judged = { project: 'service', worker: 0, journal: 'service-w0.jsonl', callbacks: 3, checks };
    writeFileSync(join(dir, 'service-w0.judged.json'), JSON.stringify(judged));
    const [judge] = judgedJournalRecords(dir);
    expect(judge?.checks.map((c) => c.outcome)).toEqual(['passed', 'warning']);
    expect(judge?.clauses).toEqual(['FOO-1', 'FOO-2']);
    const r = buildReport(input([judge!, t({ title: 'a (FOO-1)', clauses: ['FOO-1'] })]));
    expect(r.clauses.filter((c) => c.exercised && c.exercised.seen < c.exercised.of)).toEqual([]);
    expect(clause(r.clauses, 'FOO-1').exercised).toEqual({ seen: 2, of: 2 });
    // A clause only the judge's notes spoke of is not cited by its record at all.
    expect(clause(r.clauses, 'FOO-3').tests).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the mutation matrix's reading keeps the judge's notes on a driver's part, so that clause passed only partly", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-judged-'));
  try {
    const driverPart: CheckRecord = { ...note('FOO-1', 'the rotation is the driver'), rule: DRIVER_PART_RULE };
    const checks = [held('FOO-1'), driverPart, note('FOO-2', 'advice'), held('FOO-2')];
    const judged = { project: 'service', worker: 0, journal: 'service-w0.jsonl', callbacks: 2, checks };
    writeFileSync(join(dir, 'service-w0.judged.json'), JSON.stringify(judged));
    const [run] = judgedJournalRecords(dir);
    expect(run?.checks.map((c) => c.outcome)).toEqual(['passed', 'passed']);
    const [matrix] = judgedJournalRecords(dir, { keepDriverParts: true });
    expect(matrix?.checks).toEqual([held('FOO-1'), driverPart, held('FOO-2')]);
    const verdicts = attributeTest(matrix!);
    expect(verdicts.get('FOO-1')).toMatchObject({ status: 'passed', notSeen: ['the rotation is the driver'] });
    expect(verdicts.get('FOO-2')).toMatchObject({ status: 'passed', notSeen: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("observe's record of a clause the judge both passed and noted passes partly (judge/service/report.ts's shape)", () => {
  const observed = t({
    title: 'observed traffic: every callback is signed (FOO-1)',
    file: 'observe',
    line: 0,
    clauses: ['FOO-1'],
    checks: [held('FOO-1', 'every callback is signed'), note('FOO-1', 'no kid rotation seen')],
  });
  const r = buildReport(input([observed], { projects: ['service'], sides: ['service'] }));
  expect(clause(r.clauses, 'FOO-1')).toMatchObject({
    status: 'passed',
    exercised: { seen: 1, of: 2, notSeen: [{ reason: 'no kid rotation seen' }] },
  });
  expect(renderSummary(r)).toContain('passed (partly), 1 of 2 exercised; not seen: no kid rotation seen, in');
});

test('an expected failure passed by the expected-outcomes file never reads partly', () => {
  const r = buildReport(
    input(
      [
        t({ title: 'broke (FOO-1)', clauses: ['FOO-1'], status: 'failed', ok: false, errors: ['x'] }),
        t({ title: 'skipped (FOO-1)', clauses: ['FOO-1'], status: 'skipped', skipReasons: [SKIP] }),
      ],
      { expected: { expectedFailures: [{ clause: 'FOO-1', reason: 'known' }] } },
    ),
  );
  const foo1 = clause(r.clauses, 'FOO-1');
  expect(foo1).toMatchObject({ status: 'passed', expectedFailure: { reason: 'known' } });
  expect(foo1.exercised).toBeUndefined();
  assertValidReport(r);
  expect(renderSummary(r)).not.toContain('partly');
});
