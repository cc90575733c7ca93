import { defineConfig } from '@playwright/test';
import { DEFAULT_REPORT_DIR, readSettings } from './spec/settings.ts';
import { realtimeProjectWorkers } from './target/service/realtime.ts';

/**
 * One Playwright run holds every suite, split in projects:
 *   self              the harness's own tests (protocol vectors, spec self-checks, mock host,
 *                     reference service, reporter, CLI)
 *   service           service conformance suites against the target (default: embedded reference)
 *   service-realtime  the retry-schedule clauses once at time scale 1 (tests tagged @realtime); when the
 *                     service project runs at 1 anyway, every waiting test instead (suites/service/areas/waiting.ts)
 *   host              host conformance suites against the reference host receiver
 *   forms-run, forms  the data API forms: one child run with the data API tests in each combination of the forms the
 *                     contract leaves open (UNSPEC-8, UNSPEC-9), then a verdict test per combination
 *   mutants-run, mutants  the mutation matrix: one child run with a project per seeded fault, then a verdict
 *                     test per fault
 * The CLI selects projects with --project; `npm test` runs them all.
 */
const settings = readSettings();
const outDir = settings.reportDir;
// From the published package this config is compiled JavaScript (dist/playwright.config.js) and so
// are the reporters beside it.
const ext = import.meta.url.endsWith('.js') ? '.js' : '.ts';
const workers = settings.workers ?? 2;

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
    ...(settings.reporter ?? (process.env.CI ? 'dot' : 'list'))
      .split(',')
      .map((r): [string] => [r === 'progress' ? `./reports/progress-reporter${ext}` : r]),
    ['json', { outputFile: `${outDir}/results.json` }],
    [`./reports/clause-reporter${ext}`, { outputDir: outDir }],
    ['html', { outputFolder: `${outDir}/playwright-html`, open: 'never' }],
    // `ccs-conformance run --shard i/n` sets CCS_SHARD: each shard writes a blob for `report --merge`.
    ...(settings.shard
      ? [
          ['blob', { outputDir: `${outDir}/blob`, fileName: `report-${settings.shard.replace('/', '-of-')}.zip` }] as [
            string,
            unknown,
          ],
        ]
      : []),
  ],
  // Under the CLI (which always sets CCS_REPORT_DIR, in the user's directory) the artefacts go beside
  // the reports, never into the installed package's folder.
  outputDir: outDir === DEFAULT_REPORT_DIR ? 'test-results' : `${outDir}/test-results`,
  projects: [
    { name: 'self', testDir: 'suites/self' },
    // service-realtime before service: its retry schedules are the run's longest waits, so they start
    // first and the service project's tests fill the other workers meanwhile.
    // Its share of the workers leaves the service project at least one (target/service/realtime.ts).
    {
      name: 'service-realtime',
      testDir: 'suites/service',
      grep: /@realtime/,
      workers: realtimeProjectWorkers(workers),
    },
    { name: 'service', testDir: 'suites/service', grepInvert: /@realtime/ },
    { name: 'host', testDir: 'suites/host' },
    // After the timing-sensitive suites, like the matrix, and before it: neither child run shares
    // the machine's two cores with them or with the other (run beside the matrix, on a machine another
    // run shared, the model-based test's waits in the matrix's first minutes failed on other clauses).
    {
      name: 'forms-run',
      testDir: 'suites/forms',
      testMatch: /run\.setup\.[jt]s$/,
      dependencies: ['self', 'service', 'service-realtime', 'host'],
    },
    { name: 'forms', testDir: 'suites/forms', testMatch: /\.spec\.[jt]s$/, dependencies: ['forms-run'] },
    // Last: the matrix's child run would otherwise share the machine's two cores with the
    // timing-sensitive suites. Its clean runs are the service and host projects themselves.
    {
      name: 'mutants-run',
      testDir: 'suites/mutants',
      testMatch: /run\.setup\.[jt]s$/,
      dependencies: ['self', 'service', 'service-realtime', 'host', 'forms-run'],
    },
    { name: 'mutants', testDir: 'suites/mutants', testMatch: /\.spec\.[jt]s$/, dependencies: ['mutants-run'] },
  ],
});
