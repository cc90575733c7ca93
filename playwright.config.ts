import { defineConfig } from '@playwright/test';

/**
 * One Playwright run holds every suite, split in projects:
 *   self              the harness's own tests (protocol vectors, spec self-checks, mock host,
 *                     reference service, reporter, CLI)
 *   service           service conformance suites against the target (default: embedded reference)
 *   service-realtime  the retry-schedule clauses once at time scale 1 (tests tagged @realtime)
 *   host              host conformance suites against the reference host receiver
 *   mutants           the mutation matrix (each test runs the suites against one seeded fault)
 * The CLI selects projects with --project; `npm test` runs them all.
 */
const outDir = process.env.CCS_REPORT_DIR ?? 'reports/out';

export default defineConfig({
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CCS_WORKERS ? Number(process.env.CCS_WORKERS) : 2,
  reporter: [
    [process.env.CI ? 'dot' : 'list'],
    ['json', { outputFile: `${outDir}/results.json` }],
    ['./reports/clause-reporter.ts', { outputDir: outDir }],
    ['html', { outputFolder: `${outDir}/playwright-html`, open: 'never' }],
  ],
  outputDir: 'test-results',
  projects: [
    { name: 'self', testDir: 'suites/self' },
    { name: 'service', testDir: 'suites/service', grepInvert: /@realtime/ },
    { name: 'service-realtime', testDir: 'suites/service', grep: /@realtime/ },
    { name: 'host', testDir: 'suites/host' },
    { name: 'mutants', testDir: 'suites/mutants' },
  ],
});
