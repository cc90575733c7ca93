/**
 * The clause matrix page in a real headless Chromium (Debian's chromium package: browsers cannot be
 * downloaded here, see PITFALLS), opened from the file system: the run's own side by default, the
 * filters, the bars, links to sections and tests, lazy evidence, and the timeline of a retry clause.
 * Screenshots are kept as test attachments.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { buildReport, writeReports, type ConformanceReport } from '../../../reports/index.ts';
import { launchChromium } from '../../../spec/chromium.ts';
import { demoReport } from '../../../reports/demo-report.ts';
import { CLAUSES, t } from './helpers.ts';
import { clauseTags } from '../../../spec/index.ts';

let browser: Browser;
let dir: string;
const now = new Date().toISOString();

function write(name: string, report: ConformanceReport): string {
  const out = join(dir, name);
  writeReports(report, out);
  return pathToFileURL(join(out, 'clauses.html')).href;
}

/** Opens a page that must raise no script error and make no request but for its own file. */
async function open(url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
  page.on('request', (r) => {
    if (r.url() !== url) problems.push(`request: ${r.url()}`);
  });
  await page.goto(url);
  return { page, problems };
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
}

test.beforeAll(async () => {
  browser = await launchChromium();
  dir = mkdtempSync(join(tmpdir(), 'ccs-matrix-'));
});

test.afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const synthetic = () =>
  buildReport({
    runId: 'matrix-test',
    startedAt: now,
    endedAt: now,
    targetDescription: 'synthetic <target>',
    projects: ['service', 'service-realtime', 'host'],
    clauses: CLAUSES,
    tests: [
      t({ title: 'retry came', clauses: ['FOO-1'], evidence: [{ sentence: 'the retry arrived after 5 s' }] }),
      t({
        title: 'no retry after 503',
        clauses: ['FOO-2'],
        status: 'failed',
        ok: false,
        errors: ['expected a second attempt within 7 s'],
        evidence: [
          {
            sentence: 'only one attempt of onComplete arrived',
            requests: [
              { method: 'POST', url: 'http://127.0.0.1:1/h', status: 503, curl: 'curl -X POST http://127.0.0.1:1/h' },
            ],
          },
        ],
      }),
      t({ title: 'should rule broke', clauses: ['FOO-3'], status: 'failed', ok: false, errors: ['warn'] }),
      t({
        title: 'needs widgets',
        clauses: ['BAR-1'],
        status: 'skipped',
        skipReasons: ['capability widgets not offered by the target'],
      }),
    ],
  });

test("the matrix opens from file:// on the run's own side, failed MUST first, and filters by side, area, level and status", async ({}, testInfo) => {
  const { page, problems } = await open(write('synthetic', synthetic()));
  await expect(page.locator('#verdict')).toHaveText('FAIL');
  await expect(page.locator('tr.clause')).toHaveCount(CLAUSES.length);
  // A service run: the host clause is hidden by default and summed up on one line.
  await expect(page.locator('#side-filter')).toHaveValue('service');
  await expect(page.locator('#shown')).toHaveText(String(CLAUSES.length - 1));
  await expect(page.locator('tr#BAR-4')).toBeHidden();
  await expect(page.locator('.other-side')).toContainText('1 host clause: not in this run');
  // Failed MUST clauses come first, then the failed SHOULD.
  await expect(page.locator('tr.clause').nth(0)).toHaveAttribute('id', 'FOO-2');
  await expect(page.locator('tr.clause').nth(1)).toHaveAttribute('id', 'FOO-3');
  // No CCS_CONTRACT_URL: the section is named, not linked (the contract is not shipped).
  await expect(page.locator('tr#FOO-2 .section')).toHaveText('contract §4.2');
  await expect(page.locator('tr#FOO-2 a.section')).toHaveCount(0);
  await shot(page, testInfo, 'matrix-default');

  await page.locator('#status-filter').selectOption('failed');
  await expect(page.locator('tr.clause:visible')).toHaveCount(2);
  await page.locator('#level-filter').selectOption('MUST');
  await expect(page.locator('tr.clause:visible')).toHaveCount(1);
  await expect(page.locator('#shown')).toHaveText('1');
  await page.locator('#level-filter').selectOption('all');
  await page.locator('#status-filter').selectOption('all');
  await page.locator('#area-filter').selectOption('BAR');
  await expect(page.locator('tr.clause:visible')).toHaveCount(3);
  await page.locator('#side-filter').selectOption('all');
  await expect(page.locator('tr.clause:visible')).toHaveCount(4);
  await expect(page.locator('tr#BAR-4 .st')).toHaveText('not in this run');
  await page.locator('#side-filter').selectOption('service');
  await page.locator('#area-filter').selectOption('all');
  // A bar's label filters too: the BAR area in the area chart.
  await page.locator('.areas button.bar-label[data-value="BAR"]').click();
  await expect(page.locator('#area-filter')).toHaveValue('BAR');
  await expect(page.locator('tr.clause:visible')).toHaveCount(3);
  await expect(page.locator('tr#BAR-1 .why')).toHaveText('not exercised: capability widgets not offered by the target');
  expect(problems).toEqual([]);
});

test('a clause links to its tests, and its evidence is rendered only when expanded', async () => {
  const { page, problems } = await open(write('links', synthetic()));
  // Nothing of the evidence is in the document before it is opened (it sits in a template).
  await expect(page.locator('pre')).toHaveCount(0);
  const evidence = page.locator('tr.ev-row[data-for="FOO-2"] details.evidence');
  await evidence.locator('summary').click();
  await expect(evidence).toHaveAttribute('open', '');
  await expect(evidence.getByText('only one attempt of onComplete arrived')).toBeVisible();
  await evidence.locator('summary', { hasText: 'requests (1)' }).click();
  await expect(evidence.getByText('curl -X POST http://127.0.0.1:1/h')).toBeVisible();
  await expect(evidence.getByText('ccs-conformance run --grep FOO-2')).toBeVisible();
  await page.locator('tr#FOO-2 td.tests a', { hasText: 'no retry after 503' }).click();
  await expect(page).toHaveURL(/#test-\d+$/);
  const testRow = page.locator('tr:target');
  await expect(testRow).toContainText('suites/service/x.spec.ts:1');
  await testRow.locator('a', { hasText: 'FOO-2' }).click();
  await expect(page.locator('tr.clause:target')).toHaveAttribute('id', 'FOO-2');
  await expect(page.locator('.run p').first()).toContainText('synthetic <target>');
  expect(problems).toEqual([]);
});

test(
  'a failed retry clause shows a timeline: attempt 2 inside its 5 s window, attempt 3 outside its 20 s window (DELIV-8)',
  { tag: clauseTags('DELIV-8') },
  async ({}, testInfo) => {
    const { page, problems } = await open(write('demo', await demoReport()));
    await page.locator('#area-filter').selectOption('DELIV');
    // Per check: the back-off failed DELIV-8 alone; DELIV-4, DELIV-7 and HDR-4 of the same test held.
    await expect(page.locator('tr.clause:visible').first()).toHaveAttribute('id', 'DELIV-8');
    await expect(page.locator('tr#DELIV-4')).toHaveAttribute('data-status', 'passed');
    const evidence = page.locator('tr.ev-row[data-for="DELIV-8"] details.evidence');
    await expect(evidence.locator('summary .tl-badge')).toHaveText('timeline');
    await expect(evidence.locator('svg.timeline')).toHaveCount(0);
    await evidence.locator('summary').click();
    const timeline = evidence.locator('figure.tl');
    await expect(timeline.locator('svg.timeline')).toBeVisible();
    await expect(timeline.locator('g.tl-attempt')).toHaveCount(3);
    await expect(timeline.locator('g.tl-window.tl-pass')).toHaveCount(1);
    await expect(timeline.locator('g.tl-window.tl-fail')).toHaveCount(1);
    await expect(timeline.locator('li.tl-pass')).toContainText(
      'attempt 2 (back-off about 5 s) started 5.1 s after attempt 1 ended',
    );
    await expect(timeline.locator('li.tl-fail')).toContainText(
      'attempt 3 (back-off about 20 s) started 2.3 s after attempt 2 ended; expected about 20 s ± 5 s: OUTSIDE',
    );
    await timeline.scrollIntoViewIfNeeded();
    await testInfo.attach('deliv-8-timeline', { body: await timeline.screenshot(), contentType: 'image/png' });
    // A timeout clause: the held attempt's end against its 10 s window.
    const held = page.locator('tr.ev-row[data-for="DELIV-3"] details.evidence');
    await held.locator('summary').click();
    await expect(held.locator('li.tl-pass').first()).toContainText(
      'attempt 1 (held by the host) was given up 10.01 s after its start',
    );
    await shot(page, testInfo, 'matrix-deliv');
    expect(problems).toEqual([]);
  },
);

test('a report of 10,000 evidence entries opens with none of them in the document until one is expanded', async ({}, testInfo) => {
  test.setTimeout(120_000);
  const tests = Array.from({ length: 1_000 }, (_, i) =>
    t({
      title: `check ${i}`,
      clauses: [CLAUSES[i % 3]!.id],
      evidence: Array.from({ length: 10 }, (_, j) => ({
        sentence: `evidence ${i}.${j}`,
        entries: [{ seq: i * 10 + j, event: 'onComplete', attempt: 1 }],
      })),
    }),
  );
  const report = buildReport({
    runId: 'big',
    startedAt: now,
    endedAt: now,
    targetDescription: 'big',
    projects: ['service'],
    clauses: CLAUSES,
    tests,
  });
  expect(report.clauses.reduce((n, c) => n + c.evidence.length, 0)).toBe(10_000);
  const { page, problems } = await open(write('big', report));
  await expect(page.locator('#shown')).toHaveText(String(CLAUSES.length - 1));
  expect(await page.evaluate(() => document.querySelectorAll('p.sentence').length)).toBe(0);
  const evidence = page.locator('tr.ev-row[data-for="FOO-1"] details.evidence');
  await evidence.locator('summary').click();
  await expect(evidence.getByText('evidence 999.9', { exact: true })).toBeAttached();
  expect(await page.evaluate(() => document.querySelectorAll('p.sentence').length)).toBe(3_340);
  await testInfo.attach('matrix-big', { body: await page.screenshot(), contentType: 'image/png' });
  expect(problems).toEqual([]);
});
