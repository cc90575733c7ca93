/**
 * config.bulk_deleted paging (2.2, 6, 8): at most 500 keys a page, pages 1..totalPages, each page
 * its own POST, count on every page, and the union of the pages exactly the deleted scope.
 * Scopes of hundreds of keys are seeded through the driver (seed-records).
 */
import type { JWK } from 'jose';
import { test } from './fixtures.ts';
import type { DriverClient, TestWorkspace } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, payload } from '../../judge/service/journal.ts';
import { uniqueHandle, waitEvent } from './areas/scenario.ts';
import { checkJws } from './areas/signatures.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

const PAGE = CONTRACT.bulkPageSize;

interface BulkRun {
  keys: string[];
  pages: JournalEntry[];
}

/**
 * Seeds n records, deletes the whole scope in one action and waits for ceil(n / 500) pages. How
 * many pages come is the tests' own rule (PAGE-1, PAGE-2, PAGE-3): the wait is lenient, and only
 * that the scope delete delivered something at all is a precondition here.
 */
async function bulkDelete(ws: TestWorkspace, driver: DriverClient, n: number): Promise<BulkRun> {
  driver.requireCapability('seed-records', 'bulk-delete');
  const h = uniqueHandle('bulk');
  const { serviceKeys: keys } = await driver.seed(ws, { configEnd: '/addresses', endUserHandle: h, count: n });
  precondition(keys.length === n, 'the driver seeded the scope', {
    expected: `${n} keys`,
    seen: `${keys.length} keys`,
  });
  const c = await driver.open(ws, { endUserHandle: h, configEnd: '/addresses' });
  await driver.bulkDelete(c.conversationId, { configEnd: '/addresses' });
  const pages = await waitEvent(ws, 'config.bulk_deleted', h, Math.ceil(n / PAGE), undefined, { lenient: true });
  precondition(pages.length > 0, `the delete of a scope of ${n} keys delivered config.bulk_deleted`, {
    expected: 'at least one page',
    seen: 'none',
  });
  return { keys, pages };
}

const pagesIn = (pages: JournalEntry[]) => pages.map(describe).join(' | ');

const keysOf = (e: JournalEntry) => (Array.isArray(payload(e).keys) ? (payload(e).keys as string[]) : []);

test(
  'no config.bulk_deleted page holds more than 500 keys: 500 keys make one page, 501 make two (PAGE-1)',
  { tag: clauseTags('PAGE-1') },
  async ({ ws, driver }) => {
    const full = await bulkDelete(ws, driver, PAGE);
    check
      .soft('PAGE-1', `a scope of exactly ${PAGE} keys is deleted in one page`, { id: 'page.500-one-page' })
      .that(full.pages.length === 1, { expected: '1 page', seen: `${full.pages.length}: ${pagesIn(full.pages)}` });
    check
      .soft('PAGE-1', `a scope of exactly ${PAGE} keys fills its page`, { id: 'page.500-one-page' })
      .that(keysOf(full.pages[0]!).length === PAGE, {
        expected: `${PAGE} keys`,
        seen: `${keysOf(full.pages[0]!).length} keys in ${describe(full.pages[0]!)}`,
      });
    const over = await bulkDelete(ws, driver, PAGE + 1);
    for (const p of over.pages)
      check
        .soft('PAGE-1', `a page of a scope of ${PAGE + 1} keys holds at most ${PAGE} keys`, { id: 'page.at-most-500' })
        .that(keysOf(p).length <= PAGE, {
          expected: `at most ${PAGE} keys`,
          seen: `${keysOf(p).length} keys in ${describe(p)}`,
        });
    check
      .soft('PAGE-1', `a scope of ${PAGE + 1} keys is deleted in two pages`, { id: 'page.at-most-500' })
      .that(over.pages.length === 2, { expected: '2 pages', seen: `${over.pages.length}: ${pagesIn(over.pages)}` });
  },
);

test(
  'pages are numbered 1 to totalPages with no gap, totalPages = ceil(count / 500) (PAGE-2)',
  { tag: clauseTags('PAGE-2') },
  async ({ ws, driver }) => {
    const run = await bulkDelete(ws, driver, 2 * PAGE + 1);
    const numbers = run.pages.map((p) => payload(p).page).sort((a, b) => Number(a) - Number(b));
    check
      .soft('PAGE-2', `the pages of a scope of ${2 * PAGE + 1} keys are numbered 1 to 3 with no gap`, {
        id: 'page.numbering',
      })
      .equals(numbers, [1, 2, 3]);
    for (const p of run.pages)
      check
        .soft('PAGE-2', `totalPages of a scope of ${2 * PAGE + 1} keys is ceil(count / ${PAGE}) = 3`, {
          id: 'page.numbering',
        })
        .that(payload(p).totalPages === 3, {
          expected: '3',
          seen: `totalPages ${show(payload(p).totalPages)} in ${describe(p)}`,
        });
  },
);

test(
  'each page is a separate delivery, its own POST (PAGE-3)',
  { tag: clauseTags('PAGE-3') },
  async ({ ws, driver }) => {
    const run = await bulkDelete(ws, driver, PAGE + 1);
    check
      .soft('PAGE-3', 'two pages are two deliveries', { id: 'page.own-post' })
      .that(run.pages.length === 2, { expected: '2 POSTs', seen: `${run.pages.length}: ${pagesIn(run.pages)}` });
    check
      .soft('PAGE-3', 'each delivery carries its own page', { id: 'page.own-post' })
      .that(new Set(run.pages.map((p) => p.bodySha256)).size === run.pages.length, {
        expected: 'a different body on each POST',
        seen: pagesIn(run.pages),
      });
    for (const p of run.pages)
      check
        .soft('PAGE-3', 'each page is delivered with its own POST', { id: 'page.own-post' })
        .that(p.method === 'POST', { expected: 'POST', seen: describe(p) });
  },
);

test(
  'count, the total number of keys deleted, is on every page (PAGE-4)',
  { tag: clauseTags('PAGE-4') },
  async ({ ws, driver }) => {
    const n = 2 * PAGE + 1;
    const run = await bulkDelete(ws, driver, n);
    for (const p of run.pages)
      check
        .soft('PAGE-4', `every page of a scope of ${n} keys carries count ${n}`, { id: 'page.count-every-page' })
        .that(payload(p).count === n, {
          expected: String(n),
          seen: `count ${show(payload(p).count)} in ${describe(p)}`,
        });
  },
);

test(
  'the union of the pages is exactly the deleted scope, no key twice (PAGE-5)',
  { tag: clauseTags('PAGE-5') },
  async ({ ws, driver }) => {
    const run = await bulkDelete(ws, driver, 2 * PAGE + 1);
    const all = run.pages.flatMap(keysOf);
    const twice = [...new Set(all.filter((k, i) => all.indexOf(k) !== i))];
    check
      .soft('PAGE-5', 'no key is on two pages, nor twice on one', { id: 'page.union-exact' })
      .none(twice, 'no key twice');
    const union = new Set(all);
    const missing = run.keys.filter((k) => !union.has(k));
    const foreign = [...union].filter((k) => !run.keys.includes(k));
    check
      .soft('PAGE-5', `the union of the pages is exactly the deleted scope of ${run.keys.length} keys`, {
        id: 'page.union-exact',
      })
      .that(missing.length === 0 && foreign.length === 0, {
        expected: `the ${run.keys.length} keys of the scope`,
        seen: `${union.size} keys over ${run.pages.length} page(s); missing ${show(missing, 120)}; not of the scope ${show(foreign, 120)}`,
      });
  },
);

test(
  'a full 500-key page in JWKS mode is signed over its raw body (SIGN-8)',
  { tag: clauseTags('SIGN-8') },
  async ({ makeWorkspace, driver, svc }) => {
    driver.requireCapability('signing-jwks');
    // PITFALLS: the JWS header of a 500-key page is far over 16 KB; the mock host raised its limit.
    const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
    const run = await bulkDelete(ws, driver, PAGE);
    const doc = (await svc.jwks()).json as { keys: JWK[] };
    const v = await checkJws(run.pages[0]!, doc);
    // A JWS that does not verify at all (header, alg, kid, key) fails the JWKS rules' own tests; SIGN-8 is what its
    // payload signs.
    precondition(
      v.ok || /JWS payload/.test(v.reason),
      'the page carries an ES256 JWS that verifies with a key of the JWKS document',
      { expected: 'a verifying JWS', seen: v.reason },
    );
    check('SIGN-8', 'the JWS payload of a full 500-key page is "<unix_seconds>." followed by its raw body', {
      id: 'sign.jws-payload-full-page',
    }).that(v.ok, { expected: 'the raw body bytes after "<t>."', seen: v.reason });
  },
);
