/** How the judge names a journal entry and a value in its failure words, and reads a payload. */
import type { JournalEntry } from '../../mock-host/index.ts';
import { header } from './journal.ts';

export type DeclaredSigning = 'none' | 'hmac' | 'jwks' | 'unknown';

export function at(e: JournalEntry): string {
  const ev = e.event ?? header(e, 'x-service-event') ?? '(no event)';
  // the attempt header as sent (an attempt counted by the mock host for other events is not shown)
  const sent = header(e, 'x-service-delivery-attempt');
  const attempt = sent !== undefined ? ` attempt ${sent}` : '';
  return `#${e.seq} ${ev} ${e.deliveryId ?? '(no delivery id)'}${attempt}`;
}

export function show(v: unknown): string {
  const s = JSON.stringify(v);
  if (s === undefined) return 'absent';
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** The payload as an object, or undefined when the body is not one (EVT-1 says so). */
export function bodyOf(e: JournalEntry): Record<string, unknown> | undefined {
  const j = e.json;
  return typeof j === 'object' && j !== null && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
}
