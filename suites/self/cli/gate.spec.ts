/**
 * The gate end to end: the real CLI runs the tiny fixture suite (suites/self/cli/fixtures) in a
 * child Playwright and decides the exit code from the clause report it wrote.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { assertValidReport, type ConformanceReport } from '../../../reports/index.ts';
import { allFiles, cli, FIXTURES, readJson, statuses, tempDir } from './helpers.ts';

test.describe.configure({ mode: 'parallel', timeout: 300_000 });

let dirs: string[] = [];
function dir(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}
test.afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

test('a clean run exits 0 with plain progress lines (one per area) off a terminal, and report re-renders it', async () => {
  const out = dir();
  const r = await cli(['run', '--report-dir', out]);
  expect(r.stderr).not.toContain('error:');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^ok +FOO +\d+ passed, 0 failed/m);
  expect(r.stdout).toMatch(/^ok +BAR /m);
  expect(r.stdout).not.toMatch(/[\r\u001b]/);
  const report = readJson<ConformanceReport>(join(out, 'conformance.json'));
  assertValidReport(report);
  expect(report.verdict).toBe('pass');
  for (const f of ['junit.xml', 'summary.md', 'clauses.html', 'results.json'])
    expect(existsSync(join(out, f))).toBe(true);

  // `report` re-renders the same human files from the conformance.json.
  const again = dir();
  const rr = await cli(['report', '--from', join(out, 'conformance.json'), '--report-dir', again]);
  expect(rr.code).toBe(0);
  for (const f of ['junit.xml', 'summary.md', 'clauses.html'])
    expect(readFileSync(join(again, f), 'utf8')).toBe(readFileSync(join(out, f), 'utf8'));
});

test('a known failure listed in the expected-outcomes file passes, marked expected-failure', async () => {
  const out = dir();
  const r = await cli([
    'run',
    '--fault',
    'break-foo-1',
    '--expected',
    join(FIXTURES, 'expected.yaml'),
    '--reporter',
    'dot',
    '--report-dir',
    out,
  ]);
  expect(r.code).toBe(0);
  const foo1 = readJson<ConformanceReport>(join(out, 'conformance.json')).clauses.find((c) => c.id === 'FOO-1');
  expect(foo1).toMatchObject({ status: 'passed', expectedFailure: { reason: 'the fixture breaks FOO-1 on purpose' } });
});

test('a stale expected failure and, with --require-all, a service clause not exercised both fail the run', async () => {
  const out = dir();
  const r = await cli([
    'run',
    '--expected',
    join(FIXTURES, 'expected.yaml'),
    '--require-all',
    '--reporter',
    'dot',
    '--report-dir',
    out,
  ]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('FOO-1: expected to fail (the fixture breaks FOO-1 on purpose) but it passes');
  expect(readJson<ConformanceReport>(join(out, 'conformance.json')).staleExpectations).toEqual(['FOO-1']);
  expect(r.stderr).toContain('MUST BAR-1 not exercised (--require-all): capability widgets not offered by the target');
  // Unobservable (BAR-3), host-side (BAR-4) and unspecified clauses are never required.
  expect(r.stderr).not.toMatch(/BAR-3|BAR-4|UNSPEC-1/);
});

test('a MUST failure exits 1 with the clause first in the summary, and no target secret appears in any output', async () => {
  const out = dir();
  const secrets = readFileSync(join(FIXTURES, 'target.yaml'), 'utf8').match(/test-only-[a-z]+-[0-9a-f]+/g) ?? [];
  expect(secrets).toHaveLength(3);
  // The fixture simulates a careless suite: the target's apiKey in its evidence, headers and error text.
  // No service listens at the fixture target's address: the fixture suite never calls it, so no preflight.
  const args = ['run', '--target', join(FIXTURES, 'target.yaml'), '--no-preflight', '--seed', '42'];
  const r = await cli([...args, '--reporter', 'dot', '--report-dir', out], { CCS_FIXTURE_BREAK: 'break-foo-1' });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('error: MUST FOO-1 failed');
  const summary = readFileSync(join(out, 'summary.md'), 'utf8');
  expect(summary.split('\n')[0]).toBe('# Conformance: FAIL');
  expect(summary.split('\n').find((l) => l.startsWith('- '))).toContain('**FOO-1**');
  const foo1 = readJson<ConformanceReport>(join(out, 'conformance.json')).clauses.find((c) => c.id === 'FOO-1');
  expect(foo1?.reproduction?.command).toBe(
    `ccs-conformance run --grep FOO-1 --target ${join(FIXTURES, 'target.yaml')} --seed 42`,
  );
  expect(foo1?.reproduction?.curl[0]).toContain('Authorization: [REDACTED]');
  expect(foo1?.reproduction?.entries).toHaveLength(1);
  const files = allFiles(out);
  expect(files.map((f) => f.slice(out.length + 1))).toEqual(
    expect.arrayContaining(['conformance.json', 'junit.xml', 'summary.md', 'clauses.html', 'results.json']),
  );
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const s of [
      ...secrets,
      Buffer.from(secrets[0] as string)
        .toString('base64')
        .slice(0, 24),
    ])
      expect(text.includes(s), `${s} in ${f}`).toBe(false);
  }
  for (const s of secrets) expect(r.stdout + r.stderr).not.toContain(s);
  const report = readJson<ConformanceReport>(join(out, 'conformance.json'));
  expect(report.target.description).toBe('synthetic fixture target');
  expect(JSON.stringify(report)).toContain('[REDACTED]');
});

test('two shards merged give the same verdict and clause statuses as one unsharded run', async () => {
  const whole = dir();
  const s1 = dir();
  const s2 = dir();
  const merged = dir();
  const common = ['--fault', 'break-foo-3', '--reporter', 'dot'];
  const [w, a, b] = await Promise.all([
    cli(['run', ...common, '--report-dir', whole]),
    cli(['run', ...common, '--shard', '1/2', '--report-dir', s1]),
    cli(['run', ...common, '--shard', '2/2', '--report-dir', s2]),
  ]);
  expect([w.code, a.code, b.code]).toEqual([0, 0, 0]);
  const m = await cli(['report', '--merge', join(s1, 'blob'), join(s2, 'blob'), '--report-dir', merged]);
  expect(m.code).toBe(0);
  const one = readJson<ConformanceReport>(join(whole, 'conformance.json'));
  const both = readJson<ConformanceReport>(join(merged, 'conformance.json'));
  assertValidReport(both);
  expect(both.verdict).toBe(one.verdict);
  expect(statuses(both)).toEqual(statuses(one));
  expect(both.tests.length).toBe(one.tests.length);
  // The merged report keeps the run's flags for reproduction (from the shards' run-context files).
  expect(both.clauses.find((c) => c.id === 'FOO-3')?.reproduction?.command).toBe(
    'ccs-conformance run --grep FOO-3 --fault break-foo-3',
  );
  expect(m.stderr).toContain('warning: SHOULD FOO-3 failed');
});
