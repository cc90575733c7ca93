/**
 * config.bulk_deleted paging (2.2, section 6): at most 500 keys a page, page starts at 1,
 * totalPages, and count (the total keys deleted) on every page.
 */
import { ccsError } from '../spec/index.ts';
import { CONTRACT } from './constants.ts';

export interface BulkPage {
  page: number;
  totalPages: number;
  count: number;
  keys: string[];
}

function checkPageSize(pageSize: number): void {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw ccsError('PROTOCOL_PAGE_SIZE_INVALID', { pageSize: String(pageSize) });
  }
}

/**
 * Pages needed for count keys. Zero keys give zero pages: the contract does not say whether an
 * empty scope delete fires config.bulk_deleted at all (read in the report as unspecified).
 */
export function totalPagesFor(count: number, pageSize: number = CONTRACT.bulkPageSize): number {
  checkPageSize(pageSize);
  if (!Number.isSafeInteger(count) || count < 0) {
    throw ccsError('PROTOCOL_COUNT_INVALID', { count: String(count) });
  }
  return Math.ceil(count / pageSize);
}

/** Cuts keys into pages in order; every page carries the total count. */
export function bulkPages(keys: readonly string[], pageSize: number = CONTRACT.bulkPageSize): BulkPage[] {
  const totalPages = totalPagesFor(keys.length, pageSize);
  const pages: BulkPage[] = [];
  for (let i = 0; i < totalPages; i += 1) {
    pages.push({ page: i + 1, totalPages, count: keys.length, keys: keys.slice(i * pageSize, (i + 1) * pageSize) });
  }
  return pages;
}
