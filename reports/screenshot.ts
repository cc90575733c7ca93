/**
 * `npm run screenshots:matrix`: writes docs/images/clauses.png, the clause matrix of a realistic
 * report (demo-report.ts: a service run whose second onComplete back-off is too short), filtered
 * to the delivery area with the failed retry clause's timeline open. Uses Debian's chromium.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { demoReport } from './demo-report.ts';
import { writeReports } from './write-reports.ts';
import { launchChromium } from '../spec/chromium.ts';

const OUT = fileURLToPath(new URL('../docs/images/clauses.png', import.meta.url));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-shot-'));
  const browser = await launchChromium();
  try {
    writeReports(await demoReport(), dir);
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(join(dir, 'clauses.html')).href);
    await page.locator('#area-filter').selectOption('DELIV');
    const evidence = page.locator('tr.ev-row[data-for="DELIV-8"] details.evidence');
    await evidence.locator('summary').click();
    await evidence.locator('svg.timeline').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    mkdirSync(join(OUT, '..'), { recursive: true });
    const bottom = await evidence.evaluate((el) => el.closest('tr')!.getBoundingClientRect().bottom + window.scrollY);
    await page.screenshot({
      path: OUT,
      fullPage: true,
      clip: { x: 0, y: 0, width: 1360, height: Math.ceil(bottom + 8) },
    });
    process.stdout.write(`wrote ${OUT}\n`);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
