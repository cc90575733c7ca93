/**
 * Small readers over mock-host journal entries used by the area specs: headers read
 * case-insensitively, raw body bytes, and the lifecycle payload checks of sections 2.1/2.2.
 */
import type { JournalEntry } from '../../mock-host/index.ts';

export function header(e: JournalEntry, name: string): string | undefined {
  const want = name.toLowerCase();
  // the first key of that name in any case, as Object.entries would find it, without an array per call
  // (the traffic judge asks once per callback)
  for (const k in e.headers) {
    // only a name of the same length can be the same name: no lower-case copy of every other one
    if (k.length === want.length && (k === want || k.toLowerCase() === want)) {
      const v = e.headers[k];
      return Array.isArray(v) ? v.join(', ') : v;
    }
  }
  return undefined;
}

export function rawBody(e: JournalEntry): Buffer {
  return Buffer.from(e.bodyBase64 ?? '', 'base64');
}

export function payload(e: JournalEntry): Record<string, unknown> {
  const j = e.json;
  if (j && typeof j === 'object' && !Array.isArray(j)) return j as Record<string, unknown>;
  try {
    const parsed = JSON.parse(rawBody(e).toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* reported by the caller's check */
  }
  return {};
}

export function describe(e: JournalEntry): string {
  return `#${e.seq} ${e.method} ${e.url} event=${header(e, 'x-service-event') ?? '-'} id=${header(e, 'x-service-delivery-id') ?? '-'} body=${rawBody(e).toString('utf8').slice(0, 400)}`;
}

/** EVT-4: fields common to every lifecycle payload. */
export const COMMON_FIELDS = [
  'event',
  'workspaceKey',
  'configEnd',
  'endUserHandle',
  'conversationId',
  'timestamp',
] as const;

/** Section 2.2: the additional fields of each event, exactly (EVT-2 reading: payloads are closed). */
export const EVENT_FIELDS: Record<string, readonly string[]> = {
  onStart: ['serviceKeys'],
  onSessionInterrupted: ['serviceKeys'],
  onSessionTimeout: ['serviceKeys'],
  onComplete: ['serviceKeys', 'path'],
  'config.saved': ['serviceKey', 'changedFields', 'callbackStatus'],
  'config.deleted': ['serviceKey'],
  'config.bulk_deleted': ['count', 'page', 'totalPages', 'keys'],
};

/** EVT-14: date-time with exactly three fractional digits, no zone offset. */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

/** Wall-clock ms of a zone-less payload timestamp, read as UTC (EVT-14 reading). */
export function timestampMs(ts: string): number {
  return Date.parse(ts + 'Z');
}

export function sortedKeys(o: object): string[] {
  return Object.keys(o).sort();
}
