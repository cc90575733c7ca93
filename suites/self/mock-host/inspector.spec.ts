/**
 * The mock host's inspector page in a real headless Chromium (Debian's chromium: browsers cannot
 * be downloaded here): live arrival over server-sent events, grouping and the timeline, filters,
 * copy as curl, replay, facts answers, paging of a large journal, and no secret on the page.
 * Screenshots are attached to each test so a reviewer sees the page.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { MockHost, type JournalEntry, type MockHostOptions } from '../../../mock-host/index.ts';
import { launchChromium } from '../../../spec/chromium.ts';
import { factsSigningPayload, signHmac } from '../../../protocol/index.ts';
import { hmacHeader, lcBody, lcHeaders, nowSeconds, send, TEST_ONLY_SECRET } from './helpers.ts';
import type { CcsErrorCode } from '../../../spec/index.ts';

const WAIT = { timeout: 10_000 };
const signing = { mode: 'hmac' as const, secrets: [TEST_ONLY_SECRET] };
let browser: Browser;
let host: MockHost | undefined;
let pageErrors: string[] = [];

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

async function startHost(o: MockHostOptions = {}): Promise<MockHost> {
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

async function openPage(h: MockHost): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${h.url}/__admin/ui`);
  await expect(page.locator('body')).toHaveAttribute('data-live', 'live', WAIT);
  return page;
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot(), contentType: 'image/png' });
}

async function postSigned(h: MockHost, body: string, o: { attempt?: number; secret?: string } = {}): Promise<void> {
  const headers = lcHeaders(body, {
    signature: hmacHeader(body, o.secret ?? TEST_ONLY_SECRET),
    ...(o.attempt !== undefined ? { attempt: o.attempt } : {}),
  });
  const r = await send(h.url, { path: '/hooks', headers, body });
  expect(r.error, 'the mock host answered').toBeUndefined();
}

const row = (page: Page, deliveryId: string) => page.locator(`.row[data-delivery-id="${deliveryId}"]`);

test('a callback posted after the page opened appears live, and no configured secret reaches the page', async ({}, testInfo) => {
  const h = await startHost();
  const page = await openPage(h);
  const bodies: string[] = [];
  page.on(
    'response',
    (r) =>
      void r.text().then(
        (t) => bodies.push(t),
        () => undefined,
      ),
  );
  await expect(page.locator('.row')).toHaveCount(0);
  await postSigned(h, lcBody('onStart', 31));
  await expect(row(page, 'lc-31-onStart')).toBeVisible(WAIT);
  await expect(row(page, 'lc-31-onStart').locator('.chip.sig-valid')).toHaveText('sig valid');
  await row(page, 'lc-31-onStart').click();
  await expect(page.locator('#detail .verdict').first()).toContainText('valid (hmac)');
  await shot(page, testInfo, 'live arrival');
  const everything = [await page.content(), ...bodies].join('\n');
  expect(everything.includes(TEST_ONLY_SECRET), 'the HMAC secret is never sent to the page').toBe(false);
  // a reset over the admin API empties the page too
  expect((await send(h.url, { method: 'POST', path: '/__admin/reset' })).status).toBe(200);
  await expect(page.locator('.row')).toHaveCount(0, WAIT);
  await expect(page.locator('#detail')).toHaveText('The journal was reset.');
  await postSigned(h, lcBody('onStart', 39));
  await expect(row(page, 'lc-39-onStart')).toBeVisible(WAIT);
  await page.close();
});

test('three attempts of one delivery id are one row and one timeline against the retry windows; a filter hides the others', async ({}, testInfo) => {
  const h = await startHost({
    scripts: [
      {
        id: 'fail-twice',
        match: { event: 'onComplete', attempt: [1, 2] },
        steps: [{ action: 'respond', status: 503 }],
        then: 'repeat-last',
      },
    ],
  });
  const page = await openPage(h);
  await postSigned(h, lcBody('onStart', 32));
  await postSigned(h, lcBody('config.saved', 33, { endUserHandle: 'user-2' }), { secret: 'not-the-configured-secret' });
  const complete = lcBody('onComplete', 32);
  for (const attempt of [1, 2, 3]) await postSigned(h, complete, { attempt });
  await h.journal.waitFor({ event: 'onComplete', completed: true }, { count: 3, timeoutMs: 5000 });

  const group = row(page, 'lc-32-onComplete');
  await expect(group).toHaveAttribute('data-count', '3', WAIT);
  await expect(page.locator('.row')).toHaveCount(3);
  await expect(group.locator('circle.mark')).toHaveCount(3);
  await expect(group.locator('circle.mark.fail')).toHaveCount(2);
  await expect(group.locator('circle.mark.ok')).toHaveCount(1);
  await group.click();
  await expect(page.locator('#detail article.card')).toHaveCount(3, WAIT);
  // DELIV-8: a window before attempt 2 and one before attempt 3, scaled by 0.1
  await expect(page.locator('#detail .chart rect.win')).toHaveCount(2);
  await expect(page.locator('#detail .chart .win-label')).toHaveText(['≈500 ms before #2', '≈2.00 s before #3']);
  // sent back to back, the retries came before their windows, and the chart says so
  await expect(page.locator('#detail .chart .bar-label')).toHaveText([
    /^503 · /,
    /^503 · .* · early$/,
    /^200 · .* · early$/,
  ]);
  await expect(page.locator('#detail article.card').nth(0)).toContainText('fail-twice step 1');
  await expect(page.locator('#detail article.card').nth(2).locator('.chip.status')).toHaveText('200');
  await shot(page, testInfo, 'three attempts on the timeline');

  await page.locator('#f-delivery').fill('lc-32-onComplete');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await expect(page.locator('.row').first()).toHaveAttribute('data-delivery-id', 'lc-32-onComplete');
  await page.locator('#f-delivery').fill('');
  await page.locator('#f-verdict').selectOption('sig:invalid');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await expect(page.locator('.row').first()).toHaveAttribute('data-delivery-id', 'lc-33-config.saved');
  await page.locator('#f-verdict').selectOption('');
  await page.locator('#f-user').fill('user-2');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await page.locator('#f-user').fill('');
  await page.locator('#f-event').selectOption('onStart');
  await expect(page.locator('.row')).toHaveCount(1, WAIT);
  await expect(page.locator('.row').first()).toHaveAttribute('data-delivery-id', 'lc-32-onStart');
  await shot(page, testInfo, 'filtered by event');
  await page.close();
});

function sh(line: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', line], { timeout: 10_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

test('copy as curl gives a sh line that re-sends the same bytes, headers and a still valid signature', async ({}, testInfo) => {
  const h = await startHost();
  const page = await openPage(h);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
  // quotes, a backslash, markup and non-ASCII text: the line must carry them byte for byte,
  // and the page must show the markup as text
  const body = lcBody('config.saved', 34, { endUserHandle: "o'brien \\ zürich <img src=x>" });
  await postSigned(h, body);
  await expect(row(page, 'lc-34-config.saved').locator('.user')).toHaveText("o'brien \\ zürich <img src=x>", WAIT);
  await expect(page.locator('img')).toHaveCount(0);
  await row(page, 'lc-34-config.saved').click();
  await page.locator('#detail button[data-action="curl"]').click();
  const shown = page.locator('#detail pre.curl');
  await expect(shown).toBeVisible();
  const line = await shown.textContent();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(line);
  await shot(page, testInfo, 'copy as curl');

  const ran = await sh(line!);
  expect(ran.code, `the curl line runs: ${ran.stderr}`).toBe(0);
  const [first, again] = await h.journal.waitFor(
    { deliveryId: 'lc-34-config.saved', completed: true },
    { count: 2, timeoutMs: 5000 },
  );
  expect(again!.bodySha256).toBe(first!.bodySha256);
  expect(again!.method).toBe(first!.method);
  expect(again!.url).toBe(first!.url);
  const names = (e: JournalEntry) =>
    e.rawHeaders.filter((_, i) => i % 2 === 0).filter((n) => !/^(host|content-length|connection)$/i.test(n));
  expect(names(again!)).toEqual(names(first!));
  expect(again!.headers['x-service-signature']).toBe(first!.headers['x-service-signature']);
  expect(again!.signature.verdict).toBe('valid');
  await expect(row(page, 'lc-34-config.saved')).toHaveAttribute('data-count', '2', WAIT);
  await page.close();
});

test('a curl line carries a body that is not text, or starts with @, byte for byte', async () => {
  const h = await startHost();
  for (const body of [Buffer.from([0x40, 0x27, 0x00, 0xff, 0x25, 0x5c, 0x0a, 0x80]), Buffer.from('@not-a-file-name')]) {
    await send(h.url, { path: '/raw-bytes', headers: { 'content-type': 'application/octet-stream' }, body });
    const [e] = await h.journal.waitFor(
      { path: '/raw-bytes', completed: true, predicate: (x) => x.bodySize === body.length },
      { timeoutMs: 5000 },
    );
    const { curl } = JSON.parse((await send(h.url, { method: 'GET', path: `/__admin/entries/${e!.id}` })).body!) as {
      curl: string;
    };
    const ran = await sh(curl);
    expect(ran.code, ran.stderr).toBe(0);
    const again = await h.journal.waitFor(
      { path: '/raw-bytes', completed: true, predicate: (x) => x.seq > e!.seq },
      { timeoutMs: 5000 },
    );
    expect(Buffer.from(again[0]!.bodyBase64, 'base64').equals(body)).toBe(true);
  }
});

interface Received {
  rawHeaders: string[];
  body: Buffer;
  url: string;
  method: string;
}
async function recordingApp(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        url: req.url ?? '',
        method: req.method ?? '',
      });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"seen":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

test('replay re-sends the recorded request byte for byte to the --forward-to target and shows its answer', async ({}, testInfo) => {
  const app = await recordingApp();
  try {
    const h = await startHost({ forwardTo: app.url });
    const page = await openPage(h);
    const body = lcBody('onComplete', 35);
    await postSigned(h, body, { attempt: 1 });
    await expect(row(page, 'lc-35-onComplete')).toBeVisible(WAIT);
    await row(page, 'lc-35-onComplete').click();
    await page.locator('#detail button[data-action="replay"]').click();
    await expect(page.locator('#detail .replay')).toContainText('answered 202', WAIT);
    await shot(page, testInfo, 'replay');
    expect(app.received).toHaveLength(2); // the relay of the original, then the replay
    const [relayed, replayed] = app.received;
    expect(replayed!.body.equals(Buffer.from(body))).toBe(true);
    expect(replayed!.method).toBe('POST');
    expect(replayed!.url).toBe('/hooks');
    // the headers as the mock host received them, names and order kept; Host names the target
    const [recorded] = await h.journal.waitFor({ deliveryId: 'lc-35-onComplete' }, { timeoutMs: 1000 });
    const pairs = (raw: string[]) =>
      raw.flatMap((v, i) =>
        i % 2 ? [] : /^(host|content-length|connection)$/i.test(v) ? [] : [`${v}: ${raw[i + 1]}`],
      );
    expect(pairs(replayed!.rawHeaders)).toEqual(pairs(recorded!.rawHeaders));
    expect(relayed!.body.equals(replayed!.body)).toBe(true);
    await page.close();
  } finally {
    await new Promise((r) => app.server.close(r));
  }
});

test('replay without a forward target is refused with the reason', async () => {
  const h = await startHost();
  await postSigned(h, lcBody('onStart', 36));
  const [e] = await h.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  const r = await send(h.url, { method: 'POST', path: `/__admin/replay/${e!.id}` });
  expect(r.status).toBe(409);
  expect(JSON.parse(r.body!)).toMatchObject({ error: 'MOCKHOST_REPLAY_NO_TARGET' satisfies CcsErrorCode });
});

test('a facts GET appears with the facts that were answered', async ({}, testInfo) => {
  const h = await startHost();
  const page = await openPage(h);
  const target = '/facts?endUserHandle=user-9';
  const r = await send(h.url, {
    method: 'GET',
    path: target,
    headers: {
      accept: 'application/json',
      'x-service-event': 'user.facts.fetch',
      'x-service-workspace': 'ws-test',
      'x-service-end-user': 'user-9',
      'x-service-delivery-id': 'uf-ws-test-user-9',
      'x-service-signature': signHmac({
        secret: TEST_ONLY_SECRET,
        t: nowSeconds(),
        payload: factsSigningPayload(target),
      }),
    },
  });
  expect(r.status).toBe(200);
  await row(page, 'uf-ws-test-user-9').click(WAIT);
  const card = page.locator('#detail article.card');
  await expect(card.locator('.sec', { hasText: 'Facts answered' })).toContainText('"plan": "business"');
  await expect(card.locator('.verdict').first()).toContainText('valid (hmac)');
  await shot(page, testInfo, 'facts GET');
  await page.close();
});

test('with 100,000 entries the page holds only the rows in view, fetched a page at a time, and the oldest is reachable', async ({}, testInfo) => {
  test.setTimeout(120_000);
  const h = await startHost();
  await postSigned(h, lcBody('onStart', 1));
  const [seed] = await h.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  for (let i = 2; i <= 100_000; i++) {
    const seq = h.journal.allocateSeq();
    h.journal.add({ ...seed!, seq, id: `${seed!.id.split('-')[0]}-${seq}`, deliveryId: `lc-${i}-onStart` });
  }
  const page = await openPage(h);
  await expect(page.locator('#stat-requests')).toHaveText('100000', WAIT);
  await expect(row(page, 'lc-100000-onStart')).toBeVisible(WAIT);
  expect(await page.locator('.row').count()).toBeLessThan(60);
  await page.locator('#list').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(row(page, 'lc-1-onStart')).toBeVisible(WAIT);
  expect(await page.locator('.row').count()).toBeLessThan(60);
  await shot(page, testInfo, 'the end of a 100,000 entry journal');
  await page.close();
});
