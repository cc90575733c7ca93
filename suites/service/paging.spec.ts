/**
 * config.bulk_deleted paging (2.2, 6, 8): at most 500 keys a page, pages 1..totalPages, each page
 * its own POST, count on every page, and the union of the pages exactly the deleted scope.
 * Scopes of hundreds of keys are seeded through the driver (seed-records).
 */
import type { JWK } from 'jose';
import { test, expect } from './fixtures.ts';
import type { DriverClient, TestWorkspace } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, payload } from './areas/journal.ts';
import { uniqueHandle, waitEvent } from './areas/scenario.ts';
import { checkJws } from './areas/signatures.ts';
import { clauseTags } from '../../spec/index.ts';

const PAGE = CONTRACT.bulkPageSize;

interface BulkRun { keys: string[]; pages: JournalEntry[] }

/** Seeds n records, deletes the whole scope in one action and waits for ceil(n / 500) pages. */
async function bulkDelete(ws: TestWorkspace, driver: DriverClient, n: number): Promise<BulkRun> {
  driver.requireCapability('seed-records', 'bulk-delete');
  const h = uniqueHandle('bulk');
  const { serviceKeys: keys } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: n });
  expect(keys.length, 'the driver seeded the scope').toBe(n);
  const c = await driver.open(ws, { endUserHandle: h, configEnd: '/addresses' });
  await driver.bulkDelete(c.conversationId, { configEnd: '/addresses' });
  const pages = await waitEvent(ws, 'config.bulk_deleted', h, Math.ceil(n / PAGE));
  return { keys, pages };
}

const keysOf = (e: JournalEntry) => (Array.isArray(payload(e).keys) ? (payload(e).keys as string[]) : []);

test('no config.bulk_deleted page holds more than 500 keys: 500 keys make one page, 501 make two (PAGE-1)', { tag: clauseTags('PAGE-1') }, async ({ ws, driver }) => {
  const full = await bulkDelete(ws, driver, PAGE);
  expect(full.pages.length, `PAGE-1: ${full.pages.map(describe).join(' | ')}`).toBe(1);
  expect(keysOf(full.pages[0]!).length, 'PAGE-1: a scope of exactly 500 keys fills one page').toBe(PAGE);
  const over = await bulkDelete(ws, driver, PAGE + 1);
  for (const p of over.pages) expect(keysOf(p).length, `PAGE-1: ${describe(p)}`).toBeLessThanOrEqual(PAGE);
  expect(over.pages.length, 'PAGE-1: 501 keys need two pages').toBe(2);
});

test('pages are numbered 1 to totalPages with no gap, totalPages = ceil(count / 500) (PAGE-2)', { tag: clauseTags('PAGE-2') }, async ({ ws, driver }) => {
  const run = await bulkDelete(ws, driver, 2 * PAGE + 1);
  const numbers = run.pages.map((p) => payload(p).page).sort((a, b) => Number(a) - Number(b));
  expect(numbers, 'PAGE-2: page numbers').toEqual([1, 2, 3]);
  for (const p of run.pages) expect(payload(p).totalPages, `PAGE-2: totalPages of ${describe(p)}`).toBe(3);
});

test('each page is a separate delivery, its own POST (PAGE-3)', { tag: clauseTags('PAGE-3') }, async ({ ws, driver }) => {
  const run = await bulkDelete(ws, driver, PAGE + 1);
  expect(run.pages.length, 'PAGE-3: two POSTs for two pages').toBe(2);
  expect(new Set(run.pages.map((p) => p.bodySha256)).size, 'PAGE-3: the two POSTs carry different pages').toBe(2);
  for (const p of run.pages) expect(p.method, `PAGE-3: ${describe(p)}`).toBe('POST');
});

test('count, the total number of keys deleted, is on every page (PAGE-4)', { tag: clauseTags('PAGE-4') }, async ({ ws, driver }) => {
  const n = 2 * PAGE + 1;
  const run = await bulkDelete(ws, driver, n);
  for (const p of run.pages) expect(payload(p).count, `PAGE-4: ${describe(p)}`).toBe(n);
});

test('the union of the pages is exactly the deleted scope, no key twice (PAGE-5)', { tag: clauseTags('PAGE-5') }, async ({ ws, driver }) => {
  const run = await bulkDelete(ws, driver, 2 * PAGE + 1);
  const all = run.pages.flatMap(keysOf);
  expect(all.length, 'PAGE-5: no key twice').toBe(new Set(all).size);
  expect([...new Set(all)].sort(), 'PAGE-5: the union is the scope').toEqual([...run.keys].sort());
});

test('a full 500-key page in JWKS mode is signed over its raw body (SIGN-8)', { tag: clauseTags('SIGN-8') }, async ({ makeWorkspace, driver, svc }) => {
  driver.requireCapability('signing-jwks');
  // PITFALLS: the JWS header of a 500-key page is far over 16 KB; the mock host raised its limit.
  const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
  const run = await bulkDelete(ws, driver, PAGE);
  const doc = (await svc.jwks()).json as { keys: JWK[] };
  const v = await checkJws(run.pages[0]!, doc);
  expect(v.ok, `SIGN-8: ${v.reason}`).toBe(true);
});
