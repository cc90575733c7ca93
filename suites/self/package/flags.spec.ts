import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, FIXTURES } from '../cli/helpers.ts';

/**
 * The flags a release gate leans on: a --grep that looks like a clause id must name a clause (a
 * typo would select nothing and pass), free text still selects by title, and --time-scale keeps to
 * the target schema's range. Each usage error exits 2 before any test runs, naming what is wrong.
 */
for (const command of ['run', 'host']) {
  test(`${command} --grep NOPE-1 exits 2 naming the unknown clause id, before any test runs`, async () => {
    const r = await cli([command, '--grep', 'NOPE-1'], { CCS_CLAUSES_FILE: '' });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--grep NOPE-1: not a clause id of spec\/clauses\.yaml/);
    expect(r.stdout).not.toMatch(/passed|running/);
  });
}

test('run --grep with free text selects tests by title and is not refused', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'ccs-flags-'));
  const r = await cli(['run', '--grep', 'synthetic SHOULD rule', '--report-dir', reportDir, '--reporter', 'list'], {
    CCS_RUN_CONFIG: join(FIXTURES, 'playwright.config.ts'),
  });
  const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as {
    stats: { expected: number; unexpected: number };
  };
  expect(r.stderr).not.toMatch(/--grep/);
  rmSync(reportDir, { recursive: true, force: true });
  expect(results.stats.expected + results.stats.unexpected, r.stdout).toBe(1);
});

for (const value of ['0', '-1', '2', 'fast', '']) {
  test(`run --time-scale '${value}' exits 2 naming the flag and its range`, async () => {
    const r = await cli(['run', '--time-scale', value]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--time-scale/);
  });
}
