/**
 * The mock host's inspector page in a real headless Chromium: copy as curl gives a line that re-sends the same
 * bytes, and replay re-sends a recorded request to the --forward-to target. Screenshots are attached to each test.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import type { JournalEntry } from '../../../mock-host/index.ts';
import type { CcsErrorCode } from '../../../spec/index.ts';
import { lcBody, send } from './helpers.ts';
import { WAIT, inspectorHooks, openPage, postSigned, row, shot, startHost } from './inspector-page.ts';

inspectorHooks();

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
