/**
 * Per-check attribution (reports/attribution.ts): a failed check fails the clauses it names and no
 * other; the other clauses of the test keep the verdict of their own checks, or are blocked (not
 * decided) when the test stopped first; a clause is passed only when a check of it ran.
 */
import { test, expect } from '@playwright/test';
import {
  attributeTest,
  buildReport,
  renderJunit,
  renderSummary,
  assertValidReport,
  applyGate,
} from '../../../reports/index.ts';
import type { CheckRecord } from '../../../spec/index.ts';
import { CLAUSES, t } from './helpers.ts';

const held = (id: string, rule = `${id} holds`): CheckRecord => ({ clauses: [id], rule, outcome: 'passed' });
const broke = (id: string, seen = 'something else'): CheckRecord => ({
  clauses: [id],
  rule: `${id} holds`,
  outcome: 'failed',
  expected: 'the rule',
  seen,
});
/** A failed check that ended its test (check(), not check.soft(): suites/shared/checks.ts). */
const stopped = (id: string): CheckRecord => ({ ...broke(id), stopped: true });

test('a failed check fails only the clauses it names; a clause whose checks held stays passed; one never reached is blocked', () => {
  const v = attributeTest(
    t({
      title: 'x',
      clauses: ['FOO-1', 'FOO-2', 'FOO-3'],
      status: 'failed',
      ok: false,
      errors: ['FOO-2 broke'],
      checks: [held('FOO-1'), broke('FOO-2')],
    }),
  );
  expect(v.get('FOO-1')?.status).toBe('passed');
  expect(v.get('FOO-2')?.status).toBe('failed');
  expect(v.get('FOO-2')?.failures[0]).toBe('FOO-2: FOO-2 holds: expected the rule, got something else');
  expect(v.get('FOO-3')).toMatchObject({ status: 'blocked', reasons: ['blocked: FOO-2 failed first'] });
});

test('a test that failed only soft checks and went on to its end leaves a clause it never checked not exercised, not blocked', () => {
  const soft = broke('FOO-2');
  const words = 'FOO-2: FOO-2 holds: expected the rule, got something else';
  const ran = (over: Partial<Parameters<typeof t>[0]>) =>
    attributeTest(t({ title: 'x', clauses: ['FOO-1', 'FOO-2', 'FOO-3'], status: 'failed', ok: false, ...over }));
  const v = ran({ errors: [`Error: ${words}`], checks: [held('FOO-1'), soft] });
  expect(v.get('FOO-1')?.status).toBe('passed');
  expect(v.get('FOO-2')?.status).toBe('failed');
  expect(v.get('FOO-3')).toMatchObject({
    status: 'not-exercised',
    reasons: ['the test ran but made no check of FOO-3'],
  });
  // a failure that ended the test, an error no check names, or a timeout: FOO-3 was not reached
  const blocked = { status: 'blocked', reasons: ['blocked: FOO-2 failed first'] };
  expect(ran({ errors: [words], checks: [stopped('FOO-2')] }).get('FOO-3')).toMatchObject(blocked);
  expect(ran({ errors: [words, 'TypeError: x is undefined'], checks: [soft] }).get('FOO-3')).toMatchObject(blocked);
  expect(ran({ status: 'timedOut', errors: [words], checks: [soft] }).get('FOO-3')).toMatchObject(blocked);
});

test('a test stopped by an error no check names leaves every clause it cites blocked, with the error', () => {
  const v = attributeTest(
    t({
      title: 'x',
      clauses: ['FOO-1', 'FOO-2'],
      status: 'timedOut',
      ok: false,
      errors: ['Test timeout of 60000ms exceeded.'],
      checks: [held('FOO-1')],
    }),
  );
  expect(v.get('FOO-1')?.status).toBe('blocked');
  expect(v.get('FOO-2')?.reasons[0]).toContain('Test timeout of 60000ms exceeded.');
});

test('a clause whose only checks are not-exercised notes stays not exercised when the test fails on another', () => {
  const note: CheckRecord = { clauses: ['FOO-3'], rule: 'n', outcome: 'not-exercised', reason: 'no request seen' };
  const v = attributeTest(
    t({
      title: 'x',
      clauses: ['FOO-1', 'FOO-2', 'FOO-3'],
      status: 'failed',
      ok: false,
      errors: ['FOO-1 broke'],
      checks: [broke('FOO-1'), note],
    }),
  );
  expect(v.get('FOO-2')?.status).toBe('blocked');
  expect(v.get('FOO-3')).toMatchObject({ status: 'not-exercised', reasons: ['no request seen'] });
});

test('a passing test that made no check of a clause leaves it not exercised, with its own note when it gave one', () => {
  const v = attributeTest(
    t({
      title: 'x',
      clauses: ['FOO-1', 'FOO-2', 'FOO-3'],
      checks: [
        held('FOO-1'),
        {
          clauses: ['FOO-2'],
          rule: 'not exercised in this run',
          outcome: 'not-exercised',
          reason: 'signing mode none: nothing is signed',
        },
      ],
    }),
  );
  expect(v.get('FOO-1')?.status).toBe('passed');
  expect(v.get('FOO-2')).toMatchObject({ status: 'not-exercised', reasons: ['signing mode none: nothing is signed'] });
  expect(v.get('FOO-3')).toMatchObject({
    status: 'not-exercised',
    reasons: ['the test ran but made no check of FOO-3'],
  });
});

test('a warning never fails its clause and is shown; a skipped test decides nothing', () => {
  const v = attributeTest(
    t({
      title: 'x',
      clauses: ['FOO-1'],
      checks: [
        {
          clauses: ['FOO-1'],
          rule: 'an English name',
          outcome: 'warning',
          reason: '"Klingon" is not in the harness\'s list',
        },
      ],
    }),
  );
  expect(v.get('FOO-1')?.status).toBe('passed');
  expect(v.get('FOO-1')?.warnings[0]).toContain('Klingon');
  const s = attributeTest(
    t({ title: 's', clauses: ['FOO-1'], status: 'skipped', skipReasons: ['capability x not offered'] }),
  );
  expect(s.get('FOO-1')).toMatchObject({ status: 'not-exercised', reasons: ['capability x not offered'] });
});

test('across tests a clause is failed before blocked before passed; a blocked MUST fails the verdict, is no failure, and each report shows it', () => {
  const r = buildReport({
    runId: 'r',
    startedAt: new Date().toISOString(),
    endedAt: new Date().toISOString(),
    targetDescription: 'synthetic',
    projects: ['service'],
    clauses: CLAUSES,
    tests: [
      t({ title: 'a', clauses: ['FOO-1', 'FOO-2'], status: 'failed', ok: false, checks: [stopped('FOO-1')] }),
      t({ title: 'b', clauses: ['FOO-2'], checks: [held('FOO-2')] }),
      t({ title: 'c', clauses: ['FOO-3'], checks: [held('FOO-3')] }),
    ],
  });
  assertValidReport(r);
  const by = Object.fromEntries(r.clauses.map((c) => [c.id, c]));
  expect(by['FOO-1']?.status).toBe('failed');
  expect(by['FOO-2']).toMatchObject({ status: 'blocked', blockedReasons: ['blocked: FOO-1 failed first'] });
  expect(by['FOO-2']?.tests.map((x) => x.verdict)).toEqual(['blocked', 'passed']);
  expect(by['FOO-3']?.status).toBe('passed');
  expect(r.totals.failed).toBe(1);
  expect(r.totals.blocked).toBe(1);
  expect(r.verdict).toBe('fail');
  expect(r.tests[0]?.verdicts).toEqual({ 'FOO-1': 'failed', 'FOO-2': 'blocked' });
  expect(renderSummary(r)).toContain('## Not decided (blocked)');
  expect(renderJunit(r)).toContain('<error message="MUST clause FOO-2 not decided (blocked)" type="blocked">');
  expect(applyGate(r).errors.some((e) => e.startsWith('MUST FOO-2 not decided (blocked)'))).toBe(true);

  // Only a blocked MUST clause: still no pass.
  const only = buildReport({
    runId: 'r',
    startedAt: new Date().toISOString(),
    endedAt: new Date().toISOString(),
    targetDescription: 'synthetic',
    projects: ['service'],
    clauses: CLAUSES,
    tests: [
      t({ title: 'a', clauses: ['FOO-1'], status: 'failed', ok: false, errors: ['driver call failed'], checks: [] }),
    ],
  });
  expect(only.clauses.find((c) => c.id === 'FOO-1')?.status).toBe('blocked');
  expect(only.verdict).toBe('fail');
});
