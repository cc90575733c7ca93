import { defineConfig } from '@playwright/test';
import { realtimeProjectWorkers } from './suites/service/target/realtime.ts';

/**
 * One Playwright run holds every suite, split in projects:
 *   self              the harness's own tests (protocol vectors, spec self-checks, mock host,
 *                     reference service, reporter, CLI)
 *   service           service conformance suites against the target (default: embedded reference)
 *   service-realtime  the retry-schedule clauses once at time scale 1 (tests tagged @realtime); when the
 *                     service project runs at 1 anyway, every waiting test instead (suites/service/areas/waiting.ts)
 *   host              host conformance suites against the reference host receiver
 *   mutants-run, mutants  the mutation matrix: one child run with a project per seeded fault, then a verdict test per fault
 * The CLI selects projects with --project; `npm test` runs them all.
 */
const outDir = process.env.CCS_REPORT_DIR ?? 'reports/out';
const workers = process.env.CCS_WORKERS ? Number(process.env.CCS_WORKERS) : 2;

export default defineConfig({
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers,
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
    // service-realtime before service: its retry schedules are the run's longest waits, so they start
    // first and the service project's tests fill the other workers meanwhile.
    // Its share of the workers leaves the service project at least one (suites/service/target/realtime.ts).
    { name: 'service-realtime', testDir: 'suites/service', grep: /@realtime/, workers: realtimeProjectWorkers(workers) },
    { name: 'service', testDir: 'suites/service', grepInvert: /@realtime/ },
    { name: 'host', testDir: 'suites/host' },
    // Last: the matrix's child run would otherwise share the machine's two cores with the
    // timing-sensitive suites. Its clean runs are the service and host projects themselves.
    { name: 'mutants-run', testDir: 'suites/mutants', testMatch: /run\.setup\.ts$/, dependencies: ['self', 'service', 'service-realtime', 'host'] },
    { name: 'mutants', testDir: 'suites/mutants', testMatch: /\.spec\.ts$/, dependencies: ['mutants-run'] },
  ],
});
