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
    // Console: CCS_REPORTER (set by `ccs-conformance run --reporter`, default there 'progress': a line per
    // clause area), else dot on CI and list elsewhere. The files below are written whatever it is.
    ...(process.env.CCS_REPORTER ?? (process.env.CI ? 'dot' : 'list')).split(',').map(
      (r): [string] => [r === 'progress' ? './reports/progress-reporter.ts' : r],
    ),
    ['json', { outputFile: `${outDir}/results.json` }],
    ['./reports/clause-reporter.ts', { outputDir: outDir }],
    ['html', { outputFolder: `${outDir}/playwright-html`, open: 'never' }],
    // `ccs-conformance run --shard i/n` sets CCS_SHARD: each shard writes a blob for `report --merge`.
    ...(process.env.CCS_SHARD
      ? [['blob', { outputDir: `${outDir}/blob`, fileName: `report-${process.env.CCS_SHARD.replace('/', '-of-')}.zip` }] as [string, unknown]]
      : []),
  ],
  outputDir: 'test-results',
  projects: [
    { name: 'self', testDir: 'suites/self' },
    { name: 'service', testDir: 'suites/service', grepInvert: /@realtime/ },
    { name: 'service-realtime', testDir: 'suites/service', grep: /@realtime/ },
    { name: 'host', testDir: 'suites/host' },
    // Last: each mutant test starts a child Playwright run; running them after the timing-sensitive
    // suites keeps the machine's two cores from being shared three ways.
    { name: 'mutants', testDir: 'suites/mutants', dependencies: ['self', 'service', 'service-realtime', 'host'] },
  ],
});
