/**
 * config.bulk_deleted manifests (2.2, section 6): pages 1..totalPages with no gap, at most 500 keys
 * a page, count on every page and equal to the union of keys, no duplicate key, union equal to
 * the expected set when given.
 */
import { CONTRACT } from '../../protocol/index.ts';
import type { JournalEntry, Verdict } from '../types.ts';

interface Page {
  seq: number;
  page: unknown;
  totalPages: unknown;
  count: unknown;
  keys: unknown;
}

export function checkBulkPages(
  entries: JournalEntry[],
  o: { expectedKeys?: string[]; pageSize?: number } = {},
): Verdict {
  const pageSize = o.pageSize ?? CONTRACT.bulkPageSize;
  const list = [...entries].sort((a, b) => a.seq - b.seq);
  const seqs = list.map((e) => e.seq);
  const problems: string[] = [];
  const pages: Page[] = [];
  for (const e of list) {
    const b = e.json as Record<string, unknown> | undefined;
    if (!b || typeof b !== 'object' || b.event !== 'config.bulk_deleted') {
      problems.push(`#${e.seq} is not a config.bulk_deleted body`);
      continue;
    }
    pages.push({ seq: e.seq, page: b.page, totalPages: b.totalPages, count: b.count, keys: b.keys });
  }
  if (pages.length === 0)
    return {
      ok: false,
      sentence: `no config.bulk_deleted pages to check${problems.length ? ` (${problems.join('; ')})` : ''}.`,
      evidence: { seqs },
    };
  const totals = new Set(pages.map((p) => p.totalPages));
  if (totals.size > 1)
    problems.push(
      `pages disagree on totalPages: ${pages.map((p) => `#${p.seq} says ${String(p.totalPages)}`).join(', ')}`,
    );
  const total = pages[0]!.totalPages;
  const byNumber = new Map<number, Page>();
  for (const p of pages) {
    if (typeof p.page !== 'number' || !Number.isInteger(p.page) || p.page < 1) {
      problems.push(`#${p.seq} has page ${JSON.stringify(p.page)}, not an integer >= 1`);
      continue;
    }
    const dup = byNumber.get(p.page);
    // the same page re-sent with the same keys is a duplicate delivery, not a new page
    if (dup) problems.push(`page ${p.page} arrived twice (#${dup.seq} and #${p.seq})`);
    else byNumber.set(p.page, p);
  }
  if (typeof total === 'number' && Number.isInteger(total) && total >= 1) {
    const missing: number[] = [];
    for (let n = 1; n <= total; n++) if (!byNumber.has(n)) missing.push(n);
    if (missing.length) problems.push(`page(s) ${missing.join(', ')} of ${total} missing`);
    for (const n of byNumber.keys()) if (n > total) problems.push(`page ${n} is beyond totalPages ${total}`);
    // PAGE-2: totalPages = ceil(count / 500)
    const count = pages[0]!.count;
    if (typeof count === 'number' && count > 0 && total !== Math.ceil(count / pageSize)) {
      problems.push(
        `totalPages is ${total}, but count ${count} makes ceil(${count} / ${pageSize}) = ${Math.ceil(count / pageSize)} pages (PAGE-2)`,
      );
    }
  } else problems.push(`totalPages is ${JSON.stringify(total)}, not an integer >= 1`);
  const union: string[] = [];
  const seen = new Map<string, number>();
  const dups: string[] = [];
  for (const p of pages) {
    if (!Array.isArray(p.keys) || p.keys.some((k) => typeof k !== 'string')) {
      problems.push(`#${p.seq} keys is not an array of strings`);
      continue;
    }
    if (p.keys.length > pageSize)
      problems.push(`#${p.seq} (page ${String(p.page)}) carries ${p.keys.length} keys, over ${pageSize}`);
    for (const k of p.keys as string[]) {
      const at = seen.get(k);
      if (at !== undefined) dups.push(`${k} (#${at} and #${p.seq})`);
      else {
        seen.set(k, p.seq);
        union.push(k);
      }
    }
  }
  if (dups.length)
    problems.push(
      `duplicate key(s): ${dups.slice(0, 5).join(', ')}${dups.length > 5 ? ` and ${dups.length - 5} more` : ''}`,
    );
  for (const p of pages) {
    if (p.count !== union.length)
      problems.push(
        `#${p.seq} (page ${String(p.page)}) says count ${JSON.stringify(p.count)}, the pages carry ${union.length} distinct keys`,
      );
  }
  if (o.expectedKeys) {
    const want = new Set(o.expectedKeys);
    const missing = o.expectedKeys.filter((k) => !seen.has(k));
    const extra = union.filter((k) => !want.has(k));
    if (missing.length)
      problems.push(
        `${missing.length} expected key(s) missing: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}`,
      );
    if (extra.length)
      problems.push(
        `${extra.length} unexpected key(s): ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', ...' : ''}`,
      );
  }
  const ok = problems.length === 0;
  const desc = `${pages.length} page(s) ${pages.map((p) => `#${p.seq}=p${String(p.page)}`).join(', ')} with ${union.length} distinct keys`;
  return {
    ok,
    sentence: ok
      ? `bulk manifest complete: ${desc}, count and totalPages consistent.`
      : `bulk manifest broken: ${problems.join('; ')}. Observed ${desc}.`,
    evidence: {
      seqs,
      details: {
        pages: pages.map((p) => ({
          seq: p.seq,
          page: p.page,
          totalPages: p.totalPages,
          count: p.count,
          keys: Array.isArray(p.keys) ? p.keys.length : null,
        })),
        unionSize: union.length,
      },
    },
  };
}
