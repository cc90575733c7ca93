/**
 * A report of its own side: a service run reports the service clauses and puts the host clauses on
 * one line ("not in this run"), in conformance.json (status not-in-run, sides), summary.md and
 * junit.xml; a combined run reports both sides; --require-all never counts a clause of a side not in the run.
 */
import { test, expect } from '@playwright/test';
import {
  applyGate,
  assertValidReport,
  buildReport,
  renderJunit,
  renderSummary,
  type BuildInput,
} from '../../../reports/index.ts';
import { CLAUSES, checkXml, t } from './helpers.ts';

const now = new Date().toISOString();
function input(tests: BuildInput['tests']): BuildInput {
  return {
    runId: 'r1',
    startedAt: now,
    endedAt: now,
    targetDescription: 'synthetic',
    projects: ['service', 'service-realtime', 'host'],
    clauses: CLAUSES,
    tests,
  };
}

const serviceRun = [
  t({ title: 'a', clauses: ['FOO-1'] }),
  t({ title: 'b', clauses: ['FOO-2'], project: 'service-realtime' }),
];
const hostRun = [t({ title: 'h', clauses: ['BAR-4'], project: 'host' })];

test('a service run marks its side and reports the host clauses not-in-run, never not-exercised', () => {
  const r = buildReport(input(serviceRun));
  assertValidReport(r);
  expect(r.sides).toEqual(['service']);
  expect(r.clauses.find((c) => c.id === 'BAR-4')).toMatchObject({ status: 'not-in-run', side: 'host', evidence: [] });
  expect(r.clauses.filter((c) => c.side === 'service').every((c) => c.status !== 'not-in-run')).toBe(true);
  expect(r.totals['not-in-run']).toBe(1);
  expect(r.totals['not-exercised']).toBe(4);
});

test('a host run reports the service clauses on one line, and a combined run reports both sides', () => {
  const host = buildReport(input(hostRun));
  expect(host.sides).toEqual(['host']);
  expect(host.clauses.find((c) => c.id === 'BAR-4')?.status).toBe('passed');
  expect(renderSummary(host)).toContain('7 service clauses: not in this run');
  const both = buildReport(input([...serviceRun, ...hostRun]));
  expect(both.sides.sort()).toEqual(['host', 'service']);
  expect(both.totals['not-in-run']).toBe(0);
  expect(renderSummary(both)).not.toContain('not in this run');
});

test("junit.xml lists the clauses of the run's side, and the other side as one skipped line", () => {
  const r = buildReport(input(serviceRun));
  const xml = renderJunit(r);
  expect(checkXml(xml)).toEqual([]);
  expect(xml).not.toContain('BAR-4');
  expect(xml.match(/<testcase classname="clauses\./g)?.length).toBe(CLAUSES.length - 1 + 1);
  expect(xml).toContain('<skipped message="1 host clause: not in this run"/>');
});

test('--require-all never counts a clause of a side not in the run as not exercised', () => {
  const r = buildReport(input([...serviceRun, t({ title: 'c', clauses: ['FOO-3', 'BAR-1', 'BAR-2'] })]));
  // Whatever sides the caller names, the host clause is not-in-run and does not fail the gate.
  expect(applyGate(r, { requireAll: true, sides: ['service', 'host'] })).toMatchObject({ exitCode: 0, errors: [] });
  expect(applyGate(r, { requireAll: true })).toMatchObject({ exitCode: 0 });
  // The same clause in a host run with no test citing it does fail it.
  const host = buildReport(input([t({ title: 'h', clauses: [], project: 'host' })]));
  expect(applyGate(host, { requireAll: true }).errors.map((e) => e.split(' ')[1])).toEqual(['BAR-4']);
});
