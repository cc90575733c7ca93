/**
 * PAGE-1, PAGE-2, PAGE-4, PAGE-5 over the config.bulk_deleted pages of each manifest. The pages of a
 * conversation share its delivery id lc-<conversationId>-config.bulk_deleted (HDR-3 reading); one
 * conversation may delete two scopes, each a manifest of its own under that one id (the id is fixed per
 * conversation and event, DELIV-13), so a page 1 after other pages starts the next manifest. The union of
 * keys is judged only once every page 1..totalPages arrived.
 */
import { CONTRACT } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { at, bodyOf } from './words.ts';
import type { Verdicts } from './verdicts.ts';

interface Page {
  e: JournalEntry;
  page: unknown;
  totalPages: unknown;
  count: unknown;
  keys: unknown;
}

export function judgePages(entries: JournalEntry[], v: Verdicts): void {
  const by = new Map<string, Page[][]>();
  for (const e of entries) {
    const b = bodyOf(e);
    if (b?.event !== 'config.bulk_deleted') continue;
    const key = JSON.stringify([b.workspaceKey ?? null, b.conversationId ?? null]);
    const page: Page = { e, page: b.page, totalPages: b.totalPages, count: b.count, keys: b.keys };
    const manifests = by.get(key);
    const current = manifests?.at(-1);
    if (!manifests) by.set(key, [[page]]);
    else if (b.page === 1 && current!.length > 0) manifests.push([page]);
    else current!.push(page);
  }
  if (by.size === 0) {
    for (const c of ['PAGE-1', 'PAGE-2', 'PAGE-4', 'PAGE-5'] as const)
      v.notExercised(c, 'no config.bulk_deleted arrived: delete a whole scope');
    return;
  }
  for (const manifests of by.values()) for (const pages of manifests) judgeManifest(pages, v);
}

/** PAGE-1: "in pages of 500 keys": every page of a complete manifest but the last holds 500 keys. */
function judgeFullPages(pages: Page[], total: number, v: Verdicts): void {
  const short = pages.filter(
    (p) => p.page !== total && (!Array.isArray(p.keys) || p.keys.length !== CONTRACT.bulkPageSize),
  );
  v.that('PAGE-1', 'the pages of a manifest hold 500 keys each, but the last', short.length === 0, {
    id: 'page.500-one-page',
    expected: `${CONTRACT.bulkPageSize} keys on every page but page ${total}`,
    seen: short
      .map((p) => `page ${String(p.page)}: ${Array.isArray(p.keys) ? p.keys.length : 0} keys (${at(p.e)})`)
      .join('; '),
  });
}

function judgeManifest(pages: Page[], v: Verdicts): void {
  for (const p of pages) {
    const n = Array.isArray(p.keys) ? p.keys.length : 0;
    v.that('PAGE-1', 'a config.bulk_deleted page holds at most 500 keys', n <= CONTRACT.bulkPageSize, {
      id: 'page.at-most-500',
      expected: `at most ${CONTRACT.bulkPageSize} keys`,
      seen: `${n} keys (${at(p.e)})`,
    });
  }
  const first = pages[0]!;
  const count = first.count;
  // count's type is EVT-10's (a member of section 2.2): this clause asks that it is on every page, the same
  for (const p of pages) {
    v.that('PAGE-4', 'count is on every page, the same on each', p.count !== undefined && p.count === count, {
      id: 'page.count-every-page',
      expected: `count ${JSON.stringify(count)}`,
      seen: `count ${JSON.stringify(p.count) ?? 'absent'} (${at(p.e)})`,
    });
  }
  const total = first.totalPages;
  const numbering: string[] = [];
  for (const p of pages) {
    const ok =
      Number.isInteger(p.page) &&
      Number.isInteger(total) &&
      (p.page as number) >= 1 &&
      (p.page as number) <= (total as number) &&
      p.totalPages === total;
    if (!ok) numbering.push(`page ${JSON.stringify(p.page)} of ${JSON.stringify(p.totalPages)} (${at(p.e)})`);
  }
  if (
    Number.isInteger(count) &&
    Number.isInteger(total) &&
    (count as number) > 0 &&
    total !== Math.ceil((count as number) / CONTRACT.bulkPageSize)
  ) {
    numbering.push(`totalPages ${String(total)} for count ${String(count)}`);
  }
  v.that('PAGE-2', 'pages are numbered 1..totalPages, totalPages = ceil(count / 500)', numbering.length === 0, {
    id: 'page.numbering',
    expected: `pages 1..${String(total)}`,
    seen: numbering.join('; '),
  });
  // the union is held to count only when count is a number (EVT-10 judges its type)
  if (numbering.length > 0 || !Number.isInteger(total) || !Number.isInteger(count)) return;
  const got = new Set(pages.map((p) => p.page as number));
  if (got.size < (total as number)) {
    v.notExercised(
      'PAGE-5',
      `only ${got.size} of ${String(total)} pages of ${first.e.deliveryId ?? 'a manifest'} arrived`,
    );
    return;
  }
  const union = new Set<string>();
  let dup = 0;
  const seenPage = new Set<number>();
  for (const p of pages) {
    if (seenPage.has(p.page as number)) continue; // a page sent twice is PAGE-3's, not the union's
    seenPage.add(p.page as number);
    for (const k of Array.isArray(p.keys) ? p.keys : []) {
      if (union.has(String(k))) dup++;
      union.add(String(k));
    }
  }
  // pages short of keys the count has are PAGE-5's (the union); short pages of a whole union are PAGE-1's
  if (dup === 0 && union.size === count) judgeFullPages(pages, total as number, v);
  v.that(
    'PAGE-5',
    'the union of the pages holds no key twice and its size equals count',
    dup === 0 && union.size === count,
    {
      id: 'page.union-exact',
      expected: `${String(count)} distinct keys, none twice`,
      seen: `${union.size} distinct keys, ${dup} repeated (${first.e.deliveryId ?? ''})`,
    },
  );
}
