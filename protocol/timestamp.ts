/**
 * The payload timestamp (2.1, EVT-14): date-time with milliseconds, no zone offset, read as UTC:
 * YYYY-MM-DDTHH:MM:SS.mmm with exactly three fractional digits.
 */
import { ccsError } from '../spec/index.ts';

export const CALLBACK_TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/;

export function formatCallbackTimestamp(d: Date): string {
  const ms = d instanceof Date ? d.getTime() : Number.NaN;
  if (!Number.isFinite(ms))
    throw ccsError('PROTOCOL_DATE_INVALID', { problem: 'formatCallbackTimestamp needs a valid Date' });
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ for years 0000..9999
  if (!iso.endsWith('Z') || iso.length !== 24) {
    throw ccsError('PROTOCOL_DATE_INVALID', {
      problem: `year of ${iso} is outside 0000..9999 and has no four-digit form`,
    });
  }
  return iso.slice(0, 23);
}

/** The Date of a timestamp in the contract's form, or undefined when it is not that form or not a real date. */
export function parseCallbackTimestamp(s: string): Date | undefined {
  if (typeof s !== 'string') return undefined;
  const m = CALLBACK_TIMESTAMP_PATTERN.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se, ms] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, se, ms);
  // Reject rollovers (2026-02-30, 24:00:00, 12:60:00): the fields must come back unchanged.
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d ||
    date.getUTCHours() !== h ||
    date.getUTCMinutes() !== mi ||
    date.getUTCSeconds() !== se
  ) {
    return undefined;
  }
  return date;
}
