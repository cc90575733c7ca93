/**
 * What the inspector page's self tests share: a headless Chromium per file, a mock host per test (closed after
 * it), the page opened live, screenshots for the reviewer, signed callbacks, and a row by delivery id. Each test
 * fails on a script error of the page.
 */
import { test, expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { MockHost, type MockHostOptions } from '../../../mock-host/index.ts';
import { launchChromium } from '../../../spec/chromium.ts';
import { hmacHeader, lcHeaders, send, TEST_ONLY_SECRET } from './helpers.ts';

export const WAIT = { timeout: 10_000 };
export const signing = { mode: 'hmac' as const, secrets: [TEST_ONLY_SECRET] };
let browser: Browser;
let host: MockHost | undefined;
let pageErrors: string[] = [];

/** Registers the calling file's hooks: the browser for its tests, each test's page errors and mock host. */
export function inspectorHooks(): void {
  test.beforeAll(async () => {
    browser = await launchChromium();
  });
  test.afterAll(async () => browser?.close());
  test.afterEach(async () => {
    expect(pageErrors, 'the page ran without script errors').toEqual([]);
    pageErrors = [];
    await host?.close();
    host = undefined;
  });
}

export async function startHost(o: MockHostOptions = {}): Promise<MockHost> {
  host = await MockHost.start({
    timeScale: 0.1,
    routes: [
      { kind: 'lifecycle', path: '/hooks', signing },
      { kind: 'facts', path: '/facts', signing, defaultFacts: { preferredLanguages: ['German'], plan: 'business' } },
    ],
    ...o,
  });
  return host;
}

export async function openPage(h: MockHost): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${h.url}/__admin/ui`);
  await expect(page.locator('body')).toHaveAttribute('data-live', 'live', WAIT);
  return page;
}

export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot(), contentType: 'image/png' });
}

export async function postSigned(
  h: MockHost,
  body: string,
  o: { attempt?: number; secret?: string } = {},
): Promise<void> {
  const headers = lcHeaders(body, {
    signature: hmacHeader(body, o.secret ?? TEST_ONLY_SECRET),
    ...(o.attempt !== undefined ? { attempt: o.attempt } : {}),
  });
  const r = await send(h.url, { path: '/hooks', headers, body });
  expect(r.error, 'the mock host answered').toBeUndefined();
}

export const row = (page: Page, deliveryId: string) => page.locator(`.row[data-delivery-id="${deliveryId}"]`);
