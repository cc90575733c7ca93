/**
 * Writes docs/images/inspector.png: starts a mock host, sends it a realistic set of signed
 * callbacks and a facts GET (demo.ts), opens the inspector in chromium, selects the onComplete
 * that took three attempts, and photographs the page. Run: npm run screenshots:inspector
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockHost } from '../server.ts';
import { launchChromium } from '../../spec/chromium.ts';
import { DEMO_ONLY_SECRET, postDemoTraffic } from './demo.ts';

const OUT = fileURLToPath(new URL('../../docs/images/inspector.png', import.meta.url));
const TIME_SCALE = 0.1;

async function main(): Promise<void> {
  const signing = { mode: 'hmac' as const, secrets: [DEMO_ONLY_SECRET] };
  const host = await MockHost.start({
    timeScale: TIME_SCALE,
    routes: [
      { kind: 'lifecycle', path: '/hooks', signing },
      {
        kind: 'facts',
        path: '/facts',
        signing,
        defaultFacts: { preferredLanguages: ['German', 'English'], country: 'DE', plan: 'business' },
      },
    ],
    scripts: [
      {
        id: 'fail-twice',
        match: { deliveryId: 'lc-5120-onComplete', attempt: [1, 2] },
        steps: [{ action: 'respond', status: 503 }],
        then: 'repeat-last',
      },
    ],
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1680, height: 1050 }, deviceScaleFactor: 1 });
    page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
    page.on('console', (m) => process.stderr.write(`console: ${m.text()}\n`));
    await page.goto(`${host.url}/__admin/ui`);
    await page.locator('body[data-live="live"]').waitFor({ timeout: 10_000 });
    await postDemoTraffic(host.url, TIME_SCALE);
    const row = page.locator('.row[data-delivery-id="lc-5120-onComplete"][data-count="3"]');
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page
      .locator('#detail article.card')
      .nth(2)
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    mkdirSync(dirname(OUT), { recursive: true });
    await page.screenshot({ path: OUT });
    process.stdout.write(`wrote ${OUT}\n`);
  } finally {
    await browser.close();
    await host.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots:inspector: ${(error as Error).message}\n`);
  process.exit(1);
});
