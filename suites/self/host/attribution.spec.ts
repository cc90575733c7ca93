/**
 * Per-check attribution in the host direction, as a host team sees it through the CLI: a receiver
 * that accepts a signature 301 s in the future fails HOST-6 alone, and one that refuses a bad
 * signature with 400 fails HOST-3 alone; the other clauses of the same test (raw bytes, the past
 * side of the window, HMAC and JWS verification, every event) are passed by their own checks.
 */
import { test, expect } from '@playwright/test';
import { join } from 'node:path';
import { cli, readJson, tempDir } from '../cli/helpers.ts';

interface Report {
  clauses: Array<{ id: string; status: string; level: string; failures?: Array<{ error: string }> }>;
}

const SIGNATURE_TEST_CLAUSES = ['HOST-3', 'HOST-4', 'HOST-5', 'HOST-6', 'HOST-7', 'HOST-8', 'HOST-10', 'HOST-25'];

for (const { fault, grep, own } of [
  { fault: 'past-only-window', grep: 'HOST-6', own: 'HOST-6' },
  { fault: 'refuses-with-400', grep: 'HOST-3', own: 'HOST-3' },
]) {
  test(`a receiver with one broken duty (${fault}) fails ${own} alone; the other clauses of the test pass`, async () => {
    test.setTimeout(150_000);
    const dir = tempDir('ccs-host-attribution-');
    const r = await cli(
      ['host', '--fault', fault, '--grep', grep, '--workers', '2', '--report-dir', dir],
      { CCS_RUN_CONFIG: '', CCS_CLAUSES_FILE: '' },
      140_000,
    );
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
    const report = readJson<Report>(join(dir, 'conformance.json'));
    const by = new Map(report.clauses.map((c) => [c.id, c]));
    const failedMust = report.clauses.filter((c) => c.level === 'MUST' && c.status === 'failed').map((c) => c.id);
    expect(failedMust).toEqual([own]);
    for (const id of SIGNATURE_TEST_CLAUSES.filter((c) => c !== own))
      expect(by.get(id)?.status, `${id} keeps the verdict of its own checks`).toBe('passed');
    // In words: the rule, what was expected and what was seen.
    expect(by.get(own)?.failures?.[0]?.error).toMatch(/expected .+, got .+/);
  });
}
