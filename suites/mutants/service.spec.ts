/**
 * The mutation matrix inside the test command (issue 5 item 5): one test per seeded fault of the
 * reference service, plus the clean run. Each test runs the fault's area suites in a child
 * Playwright run and passes when a failing test cites the fault's clause. Tagged @mutant only:
 * these tests are not conformance evidence for any clause.
 */
import { test, expect } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serviceDirection, runClean, runFault, DEFAULT_FAULT_DEADLINE_MS, REPO_ROOT, type FaultResult, type CleanResult } from './index.ts';

test.describe.configure({ mode: 'parallel' });

const reportDir = resolve(REPO_ROOT, process.env.CCS_REPORT_DIR ?? 'reports/out');
const only = (process.env.CCS_MUTANTS ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** Each test writes its verdict; the merged reports/out/mutants.json is rewritten after each. */
function record(name: string, verdict: FaultResult | CleanResult): void {
  const dir = join(reportDir, 'mutants', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'verdict.json'), JSON.stringify(verdict, null, 2));
  const root = join(reportDir, 'mutants');
  const faults: FaultResult[] = [];
  const clean: CleanResult[] = [];
  for (const d of readdirSync(root)) {
    const p = join(root, d, 'verdict.json');
    if (!existsSync(p)) continue;
    try {
      const v = JSON.parse(readFileSync(p, 'utf8')) as FaultResult | CleanResult;
      if ('fault' in v) faults.push(v); else clean.push(v);
    } catch { /* being written by another test */ }
  }
  const ok = clean.every((c) => c.ok) && faults.every((f) => f.status === 'caught');
  const tmp = join(reportDir, `mutants.json.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify({ generatedAt: new Date().toISOString(), partial: true, ok, clean, faults }, null, 2));
  renameSync(tmp, join(reportDir, 'mutants.json'));
}

test('the clean reference service fails no service test (mutation matrix)', { tag: ['@mutant'] }, async () => {
  test.setTimeout(DEFAULT_FAULT_DEADLINE_MS + 60_000);
  const c = await runClean(serviceDirection, { reportDir });
  record('clean', c);
  expect(c.error, c.error).toBeUndefined();
  expect(c.failures.map((f) => `${f.title} [${f.clauses.join(',')}]: ${f.error ?? ''}`), 'tests that fail against the clean reference').toEqual([]);
  expect(c.passed, 'the clean run passed some tests').toBeGreaterThan(0);
});

for (const fault of serviceDirection.faults) {
  if (only.length && !only.includes(fault.name)) continue;
  test(`seeded fault ${fault.name} is caught by a test citing ${fault.clause} (mutation matrix)`, { tag: ['@mutant'] }, async () => {
    test.setTimeout(DEFAULT_FAULT_DEADLINE_MS + 60_000);
    const r = await runFault(serviceDirection, fault, { reportDir });
    record(fault.name, r);
    test.info().annotations.push({ type: 'ccs-mutant', description: `${r.status}${r.caughtBy.length ? ` by ${r.caughtBy.join('; ')}` : ''}` });
    const why = r.status === 'caught' ? '' : r.status === 'unrelated-only'
      ? `only tests of other clauses failed: ${r.alsoFailed.map((a) => `${a.title} [${a.clauses.join(',')}]`).join('; ')}`
      : r.status === 'error' ? `the child run did not report: ${r.error}` : `no test failed among ${r.passed} passed, ${r.skipped} skipped in ${r.files.join(', ')}`;
    expect(r.status, `${fault.name} (${fault.sentence ?? ''}): ${why}`).toBe('caught');
  });
}
