/**
 * The clause matrix page in a real headless Chromium (Debian's chromium package: browsers cannot be
 * downloaded here, see PITFALLS), opened from the file system: it renders one row per clause,
 * filters by status, and a failed clause's evidence opens.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, chromium, type Browser } from '@playwright/test';
import { buildReport, writeReports } from '../../../reports/index.ts';
import { CLAUSES, t } from './helpers.ts';

function chromiumPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

let browser: Browser;
let dir: string;

test.beforeAll(async () => {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('chromium is not installed: apt-get install -y chromium (the matrix page test needs it)');
  browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  dir = mkdtempSync(join(tmpdir(), 'ccs-matrix-'));
  const now = new Date().toISOString();
  const report = buildReport({
    runId: 'matrix-test', startedAt: now, endedAt: now, targetDescription: 'synthetic <target>', projects: ['service'],
    clauses: CLAUSES,
    tests: [
      t({ title: 'retry came', clauses: ['FOO-1'], evidence: [{ sentence: 'the retry arrived after 5 s' }] }),
      t({
        title: 'no retry after 503', clauses: ['FOO-2'], status: 'failed', ok: false, errors: ['expected a second attempt within 7 s'],
        evidence: [{ sentence: 'only one attempt of onComplete arrived', requests: [{ method: 'POST', url: 'http://127.0.0.1:1/h', status: 503, curl: 'curl -X POST http://127.0.0.1:1/h' }] }],
      }),
      t({ title: 'needs widgets', clauses: ['BAR-1'], status: 'skipped', skipReasons: ['capability widgets not offered by the target'] }),
    ],
  });
  writeReports(report, dir);
});

test.afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the clause matrix renders from file://, filters by status, and a failed clause\'s evidence opens', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(dir, 'clauses.html')).href);

  await expect(page.locator('h1')).toContainText('FAIL');
  await expect(page.locator('tr.clause')).toHaveCount(CLAUSES.length);
  await expect(page.locator('#shown')).toHaveText(String(CLAUSES.length));
  // Failed clauses come first.
  await expect(page.locator('tr.clause').first()).toHaveAttribute('id', 'FOO-2');
  await expect(page.locator('tr#FOO-2 a.section')).toHaveAttribute('href', /#42-routes-of-the-service-called-by-the-host$/);

  await page.locator('#status-filter').selectOption('failed');
  await expect(page.locator('tr.clause:visible')).toHaveCount(1);
  await expect(page.locator('#shown')).toHaveText('1');
  await page.locator('#status-filter').selectOption('not-exercised');
  await expect(page.locator('tr.clause:visible')).toHaveCount(5);
  await expect(page.locator('tr#BAR-1')).toContainText('capability widgets not offered by the target', { useInnerText: false });
  await page.locator('#status-filter').selectOption('failed');

  const evidence = page.locator('tr#FOO-2 details.evidence');
  await expect(evidence.getByText('only one attempt of onComplete arrived')).toBeHidden();
  await evidence.locator('summary').click();
  await expect(evidence).toHaveAttribute('open', '');
  await expect(evidence.getByText('only one attempt of onComplete arrived')).toBeVisible();
  await expect(evidence.getByText('curl -X POST http://127.0.0.1:1/h')).toBeVisible();
  await expect(evidence.getByText('ccs-conformance run --grep FOO-2')).toBeVisible();
  await expect(page.locator('p').first()).toContainText('synthetic <target>');
  expect(errors).toEqual([]);
});
