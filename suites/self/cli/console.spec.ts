/**
 * What the console says, end to end through the real CLI and the tiny fixture suite: a failed check as
 * its rule, what was seen and where, once with its count however often it failed, stack frames only
 * with --verbose; and a run the clause reporter fails for a defect of its own tests never says PASS.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import type { ConformanceReport } from '../../../reports/index.ts';
import { cli, readJson, tempDir } from './helpers.ts';

test.describe.configure({ mode: 'parallel', timeout: 300_000 });

const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

test(
  'a check failed 12 times is one console line and one summary.md line with its count, seen before where, ' +
    'and no stack frame without --verbose',
  async () => {
    const out = tempDir();
    const r = await cli(['run', '--report-dir', out], { CCS_FIXTURE_BREAK: 'twelve-foo-1' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const all = r.stdout + r.stderr;
    const line = new RegExp(
      'FOO-1 case 1: a bad signature is refused with 401: failed 12 times, e\\.g\\. ' +
        'got 200 after 1 ms \\(expected refused \\(401\\)\\) — at POST http://127\\.0\\.0\\.1:1/hooks/ccs',
    );
    expect(r.stdout).toMatch(line); // the progress reporter, under the failed test's title
    expect(r.stderr).toMatch(line); // the gate, under "error: MUST FOO-1 failed"
    expect(all.match(/a bad signature is refused/g)).toHaveLength(2);
    expect(all).not.toMatch(STACK_FRAME);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toMatch(line);
    expect(summary.match(/a bad signature is refused/g)).toHaveLength(1);
    const foo1 = readJson<ConformanceReport>(join(out, 'conformance.json')).clauses.find((c) => c.id === 'FOO-1');
    expect(foo1?.failures?.[0]?.error.split('\n')).toHaveLength(12);
    rmSync(out, { recursive: true, force: true });
  },
);

test("--verbose restores the failed test's whole errors with their stack frames", async () => {
  const out = tempDir();
  const r = await cli(['run', '--verbose', '--report-dir', out], { CCS_FIXTURE_BREAK: 'twelve-foo-1' });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).toMatch(STACK_FRAME);
  expect(r.stdout).toContain('tiny.fixture.ts');
  rmSync(out, { recursive: true, force: true });
});

test(
  "a run the clause reporter fails for a clause cited outside its test's tags prints FAIL with no verdict and " +
    'exits 2, never PASS with exit 0',
  async () => {
    const out = tempDir();
    const r = await cli(['run', '--report-dir', out], { CCS_FIXTURE_BREAK: 'cite-outside-tags' });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain("CLAUSE_UNKNOWN: 1 clause id cited outside the clause list or a test's tags");
    expect(r.stderr).toContain('error: harness defect (no verdict on the target): ');
    expect(r.stdout).toMatch(/^conformance FAIL \(harness defect, no verdict on the target\): /m);
    expect(r.stdout).not.toContain('conformance PASS');
    const report = readJson<ConformanceReport>(join(out, 'conformance.json'));
    expect(report.verdict).toBe('fail');
    expect(report.harnessErrors?.[0]).toContain('made a check of FOO-2, which is not among its tags');
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe('# Conformance: FAIL (harness defect, no verdict)');
    rmSync(out, { recursive: true, force: true });
  },
);
