import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { MatrixProject } from './runner.ts';
import { readSettings } from '../../spec/index.ts';

/**
 * The child run of the mutation matrix (runner.ts runMatrixChild): one Playwright project per
 * seeded fault (and the clean runs), planned by the parent and passed in CCS_MATRIX_PLAN. The
 * fixtures seed a project's fault from its metadata (ccsFault for the reference service,
 * ccsHostFault for the reference host receiver). Only the JSON reporter: these runs are not
 * conformance evidence and write no conformance.json.
 *
 * Not fully parallel: a worker is started per fault (its fixtures seed it), and starting one costs
 * more than most tests of a fault take, so the tests of one file of a fault run in one worker, one
 * after the other; the faults themselves run side by side.
 */
const plan = JSON.parse(readSettings().matrixPlan ?? '[]') as MatrixProject[];
// resolved against the working directory, as the main config's report directory is: a relative path in a reporter's
// options would be taken from this file's folder
const results = resolve(readSettings().matrixResults ?? `${readSettings().reportDir}/mutants/results.json`);

export default defineConfig({
  testDir: '..',
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: false,
  retries: 0,
  workers: readSettings().workers ?? 2,
  reporter: [['line'], ['json', { outputFile: results }]],
  outputDir: `${results}.artifacts`,
  projects: plan.map((p) => ({
    name: p.name,
    testDir: `../${p.testDir.replace(/^suites\//, '')}`,
    ...(p.grep ? { grep: new RegExp(p.grep) } : {}),
    ...(p.grepInvert ? { grepInvert: new RegExp(p.grepInvert) } : {}),
    metadata: p.metadata,
  })),
});
