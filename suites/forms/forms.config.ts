import { defineConfig } from '@playwright/test';
import type { FormsProject } from './plan.ts';
import { readSettings } from '../../spec/index.ts';

/**
 * The child run of the data API forms run (runner.ts): one Playwright project per combination of
 * the data API forms and the default one, planned by the parent and passed in CCS_MATRIX_PLAN. The
 * service fixtures start the embedded reference in a project's forms (metadata ccsDataApi) and
 * write every data API request in them. Only the JSON reporter: these runs are not conformance
 * evidence and write no conformance.json.
 */
const plan = JSON.parse(readSettings().matrixPlan ?? '[]') as FormsProject[];
const results = readSettings().matrixResults ?? `${readSettings().reportDir}/forms/results.json`;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default defineConfig({
  testDir: '..',
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  retries: 0,
  workers: readSettings().workers ?? 2,
  reporter: [['line'], ['json', { outputFile: results }]],
  outputDir: `${results}.artifacts`,
  // One worker per project: a project's tests share one embedded reference and mock host, started
  // once, and the two workers run two projects side by side.
  projects: plan.map((p) => ({
    name: p.name,
    workers: 1,
    testDir: `../${p.testDir.replace(/^suites\//, '')}`,
    testMatch: p.files.map((f) => new RegExp(`[\\\\/]${escape(f)}$`)),
    grep: new RegExp(p.grep),
    grepInvert: new RegExp(p.grepInvert),
    metadata: p.metadata,
  })),
});
