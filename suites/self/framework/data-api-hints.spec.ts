/**
 * A target that declares a write body and a key member its service does not read (UNSPEC-8,
 * UNSPEC-9): the data API tests, run as a user runs them (a child Playwright run against a target
 * file), still fail on the clause their own condition decides, and the failure carries the hint
 * naming the target field to check (dataApi.writeBody, dataApi.keyField), never a hint for a form
 * that is right. The service is the reference serving the bare field map with its key in
 * "recordKey"; the target declares {"data": {...}} with the key in "serviceKey".
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceService } from '../../../reference-service/index.ts';
import { DEFAULT_DATA_API_FORMS, type DataApiForms } from '../../../spec/index.ts';
import { childEnv, readChildResults, runChildPlaywright } from '../../mutants/index.ts';
import { FORMS_CONFIG, type FormsProject } from '../../forms/index.ts';

const SERVED: DataApiForms = {
  ...DEFAULT_DATA_API_FORMS,
  keyedWrite: 'body',
  keyField: 'recordKey',
  writeBody: 'bare',
};
const DECLARED: DataApiForms = { ...SERVED, keyField: 'serviceKey', writeBody: 'data' };
const DEADLINE_MS = 150_000;

const TITLE =
  'a declared write body and key member the service does not read fail DATA-1 and DATA-4 with the hints ' +
  'naming dataApi.writeBody and dataApi.keyField (UNSPEC-8, UNSPEC-9)';
test(TITLE, async () => {
  test.setTimeout(DEADLINE_MS + 30_000);
  const dir = mkdtempSync(join(tmpdir(), 'ccs-hints-'));
  const svc = await startReferenceService({ port: 0, timeScale: 0.1, dataApi: SERVED });
  try {
    const target = join(dir, 'target.json');
    writeFileSync(
      target,
      JSON.stringify({
        description: 'reference serving the bare body with the key in recordKey (test-only)',
        service: { baseUrl: svc.url, driverUrl: svc.driverUrl },
        dataApi: DECLARED,
      }),
    );
    // The DATA-1 and DATA-4 tests of the data API suite, in the child config of the forms run.
    const plan: FormsProject[] = [
      {
        name: 'hints',
        testDir: 'suites/service',
        files: ['data-api-reads.spec.ts', 'data-api-writes.spec.ts'],
        grep: '@DATA-[14]\\b',
        grepInvert: '@realtime',
        metadata: {},
      },
    ];
    const results = join(dir, 'results.json');
    const env = childEnv(
      process.env,
      {
        CCS_MATRIX_PLAN: JSON.stringify(plan),
        CCS_MATRIX_RESULTS: results,
        CCS_WORKERS: '1',
        CCS_REPORT_DIR: dir,
        CCS_TARGET: target,
      },
      ['CCS_FAULTS', 'CCS_HOST_FAULT', 'CCS_HOST_TARGET', 'CCS_TIME_SCALE', 'CCS_SEED', 'CCS_SEED_PATH'],
    );
    const run = await runChildPlaywright({ config: FORMS_CONFIG, env, deadlineMs: DEADLINE_MS });
    const { tests, error } = readChildResults(results, run, DEADLINE_MS);
    expect(error, error).toBeUndefined();
    const failedChecks = tests.flatMap((t) => t.checks.filter((c) => c.outcome === 'failed'));
    const said = failedChecks
      .map((c) => `${c.clauses.join(',')} ${c.rule}: ${c.seen ?? ''} hint: ${c.hint ?? ''}`)
      .join('\n');
    type Failed = (typeof failedChecks)[number];
    const hinting = (c: Failed, field: string) => (c.hint ?? '').includes(`check \`${field}\` in the target`);

    // The Setting write went in as {"data": {...}}, stored as a field named data: DATA-1 fails, hinting at writeBody.
    const data1 = failedChecks.filter((c) => c.clauses.includes('DATA-1'));
    expect(data1.length, said).toBeGreaterThan(0);
    expect(
      data1.every((c) => hinting(c, 'dataApi.writeBody')),
      said,
    ).toBe(true);

    // The keyed write's key went in "serviceKey", which the service does not read: DATA-4 fails, hinting at keyField.
    const data4 = failedChecks.filter((c) => c.clauses.includes('DATA-4'));
    expect(data4.length, said).toBeGreaterThan(0);
    expect(
      data4.some((c) => hinting(c, 'dataApi.keyField')),
      said,
    ).toBe(true);
    // The configEnd form is right: no failure points at it.
    expect(
      failedChecks.filter((c) => (c.hint ?? '').includes('dataApi.configEnd')),
      said,
    ).toEqual([]);
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
