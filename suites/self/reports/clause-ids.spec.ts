/**
 * Clause ids are checked: a tag or an evidence `clause` naming no clause fails the run with a message
 * naming the test and the id. Pure check, then the real clause reporter in a child Playwright run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import {
  applyGate,
  buildReport,
  checkClauseIds,
  renderSummary,
  type ConformanceReport,
} from '../../../reports/index.ts';
import { CLAUSES, t } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = fileURLToPath(new URL('./fixtures/playwright.config.ts', import.meta.url));

test('a tag, a check or an evidence clause naming no clause is an error naming the test and the id, a check outside its tags too; UNSPECIFIED only warns', () => {
  const r = checkClauseIds(
    [
      t({ title: 'good', clauses: ['FOO-1'], evidence: [{ sentence: 's', clause: 'FOO-1' }] }),
      t({ title: 'typo', file: 'suites/service/x.spec.ts', line: 12, clauses: ['FOO-11'], checks: [] }),
      t({
        title: 'check outside its tags',
        line: 30,
        clauses: ['FOO-1'],
        checks: [
          { clauses: ['FOO-2'], rule: 'r', outcome: 'passed' },
          { clauses: ['FOO-9'], rule: 'r', outcome: 'passed' },
        ],
      }),
      t({
        title: 'bad evidence',
        line: 20,
        clauses: ['FOO-2'],
        evidence: [{ sentence: 's', items: [{ sentence: 'i', clause: 'NOPE-1' }] }],
      }),
      t({ title: 'not shown', clauses: ['UNSPEC-1'] }),
    ],
    CLAUSES,
  );
  expect(r.errors).toEqual([
    'suites/service/x.spec.ts:12 "typo" has the tag @FOO-11, which names no clause of spec/clauses.yaml',
    'suites/service/x.spec.ts:30 "check outside its tags" made a check of FOO-2, which is not among its tags',
    'suites/service/x.spec.ts:30 "check outside its tags" made a check of "FOO-9", which names no clause of spec/clauses.yaml',
    'suites/service/x.spec.ts:20 "bad evidence" attached evidence for clause "NOPE-1", which names no clause of spec/clauses.yaml',
  ]);
  expect(r.warnings).toHaveLength(1);
  expect(r.warnings[0]).toContain('UNSPEC-1');
});

test('the clause reporter fails a run whose test cites an unknown clause id, naming the test and the id', async () => {
  test.setTimeout(120_000);
  const out = mkdtempSync(join(tmpdir(), 'ccs-ids-'));
  try {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env))
      if (!/^(TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|PLAYWRIGHT_|PW_|CCS_)/.test(k)) env[k] = v;
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', CONFIG], {
      cwd: ROOT,
      env: { ...env, CCS_REPORT_DIR: out },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`child run did not finish in 100 s\n${stderr}`));
      }, 100_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    // Both tests themselves pass: only the wrong ids fail the run.
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('CLAUSE_UNKNOWN');
    expect(stderr).toContain('"cites a clause id with a typo (FOO-11)" has the tag @FOO-11, which names no clause');
    expect(stderr).toContain('attached evidence for clause "BAZ-9", which names no clause');
    // The report is still written, and says what the console says: no PASS, the defects listed.
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict).toBe('fail');
    expect(report.harnessErrors?.join('\n')).toContain('has the tag @FOO-11, which names no clause');
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe('# Conformance: FAIL (harness defect, no verdict)');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test(
  'a report with a clause id cited wrongly is never PASS: verdict fail, the gate exits 2 (no verdict), summary.md ' +
    'says so first',
  () => {
    const tests = [t({ title: 'clean', clauses: ['FOO-1'] }), t({ title: 'also clean', clauses: ['FOO-2'] })];
    const errors = checkClauseIds([...tests, t({ title: 'typo', clauses: ['FOO-11'] })], CLAUSES).errors;
    const r = buildReport({
      runId: 'r',
      startedAt: new Date().toISOString(),
      endedAt: new Date().toISOString(),
      targetDescription: 'synthetic',
      projects: ['service'],
      clauses: CLAUSES,
      tests,
      harnessErrors: errors,
    });
    expect(r.clauses.filter((c) => c.status === 'failed')).toEqual([]);
    expect(r.verdict).toBe('fail');
    const gate = applyGate(r);
    expect(gate.exitCode).toBe(2);
    expect(gate.harnessErrors).toEqual(errors);
    const lines = renderSummary(r).split('\n');
    expect(lines[0]).toBe('# Conformance: FAIL (harness defect, no verdict)');
    expect(lines[4]).toContain('has the tag @FOO-11, which names no clause');
    // Without the defect the same tests pass.
    const clean = buildReport({
      runId: 'r',
      startedAt: '',
      endedAt: '',
      targetDescription: 's',
      projects: ['service'],
      clauses: CLAUSES,
      tests,
    });
    expect([clean.verdict, applyGate(clean).exitCode]).toEqual(['pass', 0]);
  },
);
