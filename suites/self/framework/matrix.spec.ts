/**
 * The mutation matrix's parsing and verdict rules: a child's Playwright JSON report read into
 * tests with clause tags and outcomes, the files chosen for a fault's area, the child environment.
 */
import { test, expect, type TestInfo } from '@playwright/test';
import { join } from 'node:path';
import {
  parseResults,
  parseResultsText,
  clausesOf,
  childEnv,
  planProjects,
  renderTable,
  type MatrixDirection,
} from '../../mutants/index.ts';
import { isCcsError } from '../../../spec/index.ts';
import { keepingMatrixWorker } from '../../shared/index.ts';

const REPORT = {
  config: {},
  errors: [],
  suites: [
    {
      title: 'delivery.spec.ts',
      file: 'delivery.spec.ts',
      specs: [],
      suites: [
        {
          title: 'retries',
          file: 'delivery.spec.ts',
          specs: [
            {
              title: 'onComplete is retried after a 503 (DELIV-4)',
              file: 'delivery.spec.ts',
              tags: ['DELIV-4', 'realtime'],
              tests: [
                {
                  status: 'unexpected',
                  results: [{ status: 'failed', error: { message: 'Expected 3 attempts\nmore' } }],
                },
              ],
            },
            {
              title: 'no retry after a 200 (DELIV-10)',
              file: 'delivery.spec.ts',
              tags: ['DELIV-10'],
              tests: [{ status: 'expected', results: [{ status: 'passed' }] }],
            },
            {
              title: 'needs upload',
              file: 'delivery.spec.ts',
              tags: ['@UPLOAD-3'],
              tests: [{ status: 'skipped', results: [{ status: 'skipped' }] }],
            },
          ],
        },
      ],
    },
  ],
};

test('a JSON report is read into tests with their clause tags and outcomes', () => {
  const { tests } = parseResults(REPORT);
  expect(tests).toHaveLength(3);
  expect(tests[0]).toMatchObject({
    title: 'retries › onComplete is retried after a 503 (DELIV-4)',
    clauses: ['DELIV-4'],
    outcome: 'failed',
    error: 'Expected 3 attempts',
    file: 'delivery.spec.ts',
  });
  expect(tests[1]!.outcome).toBe('passed');
  expect(tests[2]).toMatchObject({ outcome: 'skipped', clauses: ['UPLOAD-3'] });
});

test('a failure its fault project made its expected status (the worker kept) is still read as failed', () => {
  const spec = REPORT.suites[0]!.suites[0]!.specs[0]!;
  const kept = { ...spec, tests: [{ ...spec.tests[0]!, status: 'expected' }] };
  const report = {
    ...REPORT,
    suites: [{ ...REPORT.suites[0]!, suites: [{ ...REPORT.suites[0]!.suites[0]!, specs: [kept] }] }],
  };
  expect(parseResults(report).tests[0]).toMatchObject({ outcome: 'failed', ok: false, error: 'Expected 3 attempts' });
});

test('a fault project keeps its worker after a failed test; a clean project and a timeout do not', async () => {
  const info = (metadata: object, status: string) =>
    ({ project: { metadata }, status, expectedStatus: 'passed' }) as unknown as TestInfo;
  const fault = info({ ccsFault: 'two-attempts-only' }, 'failed');
  await keepingMatrixWorker(fault, async () => undefined);
  expect(fault.expectedStatus).toBe('failed');
  const hostFault = info({ ccsHostFault: 'no-dedupe' }, 'passed');
  await expect(keepingMatrixWorker(hostFault, () => Promise.reject(new Error('observer')))).rejects.toThrow();
  expect(hostFault.expectedStatus).toBe('failed');
  for (const other of [info({}, 'failed'), info({ ccsFault: 'x' }, 'timedOut'), info({ ccsFault: 'x' }, 'passed')]) {
    await keepingMatrixWorker(other, async () => undefined);
    expect(other.expectedStatus).toBe('passed');
  }
});

test('clause tags are recognised with or without their @, other tags are not clauses', () => {
  expect(clausesOf(['@EVT-5', 'DELIV-10', 'realtime', '@mutant', '@property', 'HOST-22'])).toEqual([
    'EVT-5',
    'DELIV-10',
    'HOST-22',
  ]);
});

test('a report with noise before the JSON is still read; a non-report is a clear error', () => {
  expect(parseResultsText('warning: something\n' + JSON.stringify(REPORT)).tests).toHaveLength(3);
  let err: unknown;
  try {
    parseResultsText('{"not":"a report"}');
  } catch (e) {
    err = e;
  }
  expect(isCcsError(err, 'MUTANTS_RESULTS_INVALID')).toBe(true);
  expect(() => parseResultsText('')).toThrow(/empty or not JSON/);
});

test('the child environment drops what would make Playwright think the child is a worker', () => {
  const env = childEnv(
    {
      TEST_WORKER_INDEX: '1',
      TEST_PARALLEL_INDEX: '0',
      PW_TS_ESM_LOADER_ON: '1',
      PLAYWRIGHT_JSON_OUTPUT_NAME: 'x',
      PLAYWRIGHT_BROWSERS_PATH: '/b',
      PATH: '/bin',
      CCS_TARGET: 't.yaml',
    },
    { CCS_FAULTS: 'f1' },
    ['CCS_TARGET'],
  );
  expect(env).toEqual({ PATH: '/bin', PLAYWRIGHT_BROWSERS_PATH: '/b', CCS_FAULTS: 'f1', FORCE_COLOR: '0' });
});

/** A host direction of the matrix with the given faults (and what else the test sets). */
const hostOf = (o: Pick<MatrixDirection, 'faults'> & Partial<MatrixDirection>): MatrixDirection => ({
  name: 'host',
  project: 'host',
  faultEnv: 'CCS_HOST_FAULT',
  testDir: 'suites/host',
  ...o,
});

test('the matrix plans one project per fault, selecting the tests that cite its clause, and a clean project per direction', () => {
  const d = hostOf({
    faults: [
      { name: 'no-signature-check', clause: 'HOST-1', area: 'HOST' },
      { name: 'slow-ack', clause: 'HOST-12', area: 'HOST' },
    ],
  });
  const projects = planProjects([d]);
  expect(projects.map((p) => p.name)).toEqual(['host:clean', 'host:no-signature-check', 'host:slow-ack']);
  expect(projects[1]!.metadata).toEqual({ ccsHostFault: 'no-signature-check' });
  const grep = new RegExp(projects[1]!.grep!);
  // @HOST-1 must not select @HOST-12.
  expect(grep.test('title @HOST-1')).toBe(true);
  expect(grep.test('title @HOST-12')).toBe(false);
  expect(planProjects([d], { clean: false, faults: ['slow-ack'] }).map((p) => p.name)).toEqual(['host:slow-ack']);
  expect(new RegExp(planProjects([d], { scope: 'area' })[1]!.grep!).test('x @HOST-7')).toBe(true);
});

test('a fault of a clause the observer adds to every test runs on the tests whose titles cite it, not on every test', () => {
  const d = hostOf({
    observedClauses: ['HOST-13', 'HOST-21'],
    faults: [{ name: 'retry-without-token', clause: 'HOST-21', also: ['HOST-11'], area: 'HOST' }],
  });
  const grep = new RegExp(planProjects([d], { clean: false })[0]!.grep!);
  // every host test carries @HOST-21 (the observer's); only a title citing it selects the test
  expect(grep.test('data reads a read answered 503 is retried (HOST-21, HOST-1) @HOST-21 @HOST-1 @HOST-13')).toBe(true);
  expect(grep.test('delivery a callback is acknowledged (HOST-1, HOST-2) @HOST-1 @HOST-2 @HOST-13 @HOST-21')).toBe(
    false,
  );
  expect(grep.test('facts (HOST-210) @HOST-210')).toBe(false);
  // a clause the observer does not add is still selected by its tag
  expect(grep.test('dedupe a delivery sent again is deduped @HOST-11')).toBe(true);
});

test('the table names each fault, its clause, the verdict and the tests that decided it', () => {
  const t = renderTable(
    [
      {
        direction: 'service',
        ok: true,
        failures: [],
        passed: 10,
        failed: 0,
        skipped: 0,
        durationMs: 1,
        files: [],
        exitCode: 0,
        timedOut: false,
      },
    ],
    [
      {
        direction: 'service',
        fault: 'two-attempts-only',
        clause: 'DELIV-7',
        status: 'caught',
        declared: ['DELIV-7'],
        failedClauses: ['DELIV-7'],
        blockedClauses: [],
        exact: true,
        failedChecks: [],
        caughtBy: ['at most 3 attempts (DELIV-7)'],
        alsoFailed: [],
        judgeMissed: [],
        passed: 1,
        failed: 1,
        skipped: 0,
        durationMs: 1,
        files: [],
        exitCode: 1,
        timedOut: false,
      },
      {
        direction: 'service',
        fault: 'x',
        clause: 'EVT-1',
        status: 'unrelated-only',
        declared: ['EVT-1'],
        failedClauses: ['EVT-2'],
        blockedClauses: ['EVT-1'],
        exact: false,
        failedChecks: [],
        caughtBy: [],
        alsoFailed: [{ title: 'other', clauses: ['EVT-2'] }],
        judgeMissed: [],
        passed: 1,
        failed: 1,
        skipped: 0,
        durationMs: 1,
        files: [],
        exitCode: 1,
        timedOut: false,
      },
    ],
  );
  expect(t).toContain('two-attempts-only');
  expect(t).toMatch(/DELIV-7\s+caught\s+DELIV-7\s+at most 3 attempts/);
  expect(t).toContain('CAUGHT ONLY BY UNRELATED TESTS');
  expect(t).toContain('passes');
  // The precision line: one of two faults failed exactly its own clauses; the other is listed with what failed and what
  // was blocked.
  expect(t).toContain('precision: 1/2 faults (50.0%) fail exactly their own clauses');
  expect(t).toContain('x: declared EVT-1; failed EVT-2; blocked EVT-1');
});

test('a fault declaring a second clause selects the tests of both, and counts as exact only when both fail', () => {
  const d: MatrixDirection = {
    name: 'service',
    project: 'service',
    faultEnv: 'CCS_FAULTS',
    testDir: 'suites/service',
    faults: [{ name: 'four-attempts', clause: 'EVT-1', also: ['HDR-1'], area: 'EVT' }],
  };
  const [p] = planProjects([d], { clean: false });
  const grep = new RegExp(p!.grep!);
  expect(grep.test('x @HDR-1')).toBe(true);
  expect(grep.test('x @EVT-1')).toBe(true);
  expect(grep.test('x @EVT-12')).toBe(false);
  expect(p!.declared).toEqual(['EVT-1', 'HDR-1']);
});
