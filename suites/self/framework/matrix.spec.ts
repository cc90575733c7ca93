/**
 * The mutation matrix's parsing and verdict rules: a child's Playwright JSON report read into
 * tests with clause tags and outcomes, the files chosen for a fault's area, the child environment.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseResults, parseResultsText, clausesOf, childEnv, filesForArea, renderTable } from '../../mutants/index.ts';
import { isCcsError } from '../../../spec/errors.ts';

const REPORT = {
  config: {}, errors: [],
  suites: [{
    title: 'delivery.spec.ts', file: 'delivery.spec.ts', specs: [],
    suites: [{
      title: 'retries', file: 'delivery.spec.ts',
      specs: [
        { title: 'onComplete is retried after a 503 (DELIV-4)', file: 'delivery.spec.ts', tags: ['DELIV-4', 'realtime'], tests: [{ status: 'unexpected', results: [{ status: 'failed', error: { message: 'Expected 3 attempts\nmore' } }] }] },
        { title: 'no retry after a 200 (DELIV-10)', file: 'delivery.spec.ts', tags: ['DELIV-10'], tests: [{ status: 'expected', results: [{ status: 'passed' }] }] },
        { title: 'needs upload', file: 'delivery.spec.ts', tags: ['@UPLOAD-3'], tests: [{ status: 'skipped', results: [{ status: 'skipped' }] }] },
      ],
    }],
  }],
};

test('a JSON report is read into tests with their clause tags and outcomes', () => {
  const { tests } = parseResults(REPORT);
  expect(tests).toHaveLength(3);
  expect(tests[0]).toMatchObject({ title: 'retries › onComplete is retried after a 503 (DELIV-4)', clauses: ['DELIV-4'], outcome: 'failed', error: 'Expected 3 attempts', file: 'delivery.spec.ts' });
  expect(tests[1]!.outcome).toBe('passed');
  expect(tests[2]).toMatchObject({ outcome: 'skipped', clauses: ['UPLOAD-3'] });
});

test('clause tags are recognised with or without their @, other tags are not clauses', () => {
  expect(clausesOf(['@EVT-5', 'DELIV-10', 'realtime', '@mutant', '@property', 'HOST-22'])).toEqual(['EVT-5', 'DELIV-10', 'HOST-22']);
});

test('a report with noise before the JSON is still read; a non-report is a clear error', () => {
  expect(parseResultsText('warning: something\n' + JSON.stringify(REPORT)).tests).toHaveLength(3);
  let err: unknown;
  try { parseResultsText('{"not":"a report"}'); } catch (e) { err = e; }
  expect(isCcsError(err, 'MUTANTS_RESULTS_INVALID')).toBe(true);
  expect(() => parseResultsText('')).toThrow(/empty or not JSON/);
});

test('the child environment drops what would make Playwright think the child is a worker', () => {
  const env = childEnv({ TEST_WORKER_INDEX: '1', TEST_PARALLEL_INDEX: '0', PW_TS_ESM_LOADER_ON: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: 'x', PLAYWRIGHT_BROWSERS_PATH: '/b', PATH: '/bin', CCS_TARGET: 't.yaml' }, { CCS_FAULTS: 'f1' }, ['CCS_TARGET']);
  expect(env).toEqual({ PATH: '/bin', PLAYWRIGHT_BROWSERS_PATH: '/b', CCS_FAULTS: 'f1', FORCE_COLOR: '0' });
});

test('a fault runs the spec files that carry a tag of its area', () => {
  const root = mkdtempSync(join(tmpdir(), 'ccs-matrix-'));
  mkdirSync(join(root, 'suites/service'), { recursive: true });
  writeFileSync(join(root, 'suites/service/a.spec.ts'), `test('x (DELIV-4)', { tag: ['@DELIV-4'] }, () => {})`);
  writeFileSync(join(root, 'suites/service/b.spec.ts'), `test('y (EVT-1)', { tag: ['@EVT-1', '@DELIV-10'] }, () => {})`);
  writeFileSync(join(root, 'suites/service/c.spec.ts'), `test('z (EVT-2)', { tag: ['@EVT-2'] }, () => {})`);
  writeFileSync(join(root, 'suites/service/helper.ts'), `// @DELIV-1`);
  expect(filesForArea('suites/service', 'DELIV', root)).toEqual(['suites/service/a.spec.ts', 'suites/service/b.spec.ts']);
  expect(filesForArea('suites/service', 'PAGE', root)).toEqual([]);
});

test('the table names each fault, its clause, the verdict and the tests that decided it', () => {
  const t = renderTable(
    [{ direction: 'service', ok: true, failures: [], passed: 10, failed: 0, skipped: 0, durationMs: 1, files: [], exitCode: 0, timedOut: false }],
    [
      { direction: 'service', fault: 'two-attempts-only', clause: 'DELIV-7', status: 'caught', caughtBy: ['at most 3 attempts (DELIV-7)'], alsoFailed: [], passed: 1, failed: 1, skipped: 0, durationMs: 1, files: [], exitCode: 1, timedOut: false },
      { direction: 'service', fault: 'x', clause: 'EVT-1', status: 'unrelated-only', caughtBy: [], alsoFailed: [{ title: 'other', clauses: ['EVT-2'] }], passed: 1, failed: 1, skipped: 0, durationMs: 1, files: [], exitCode: 1, timedOut: false },
    ]);
  expect(t).toContain('two-attempts-only');
  expect(t).toMatch(/DELIV-7\s+caught\s+at most 3 attempts/);
  expect(t).toContain('CAUGHT ONLY BY UNRELATED TESTS');
  expect(t).toContain('passes');
});
