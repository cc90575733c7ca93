/**
 * ENV-1: the stored record envelope of 2.3. Members beyond the five listed are allowed (UNSPEC-2)
 * and never asserted.
 */
import { TIMESTAMP_PATTERN } from './journal.ts';

function isReasonMap(v: unknown): boolean {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')
  );
}

export function envelopeProblems(v: unknown): string[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return [`not a JSON object: ${JSON.stringify(v)?.slice(0, 200)}`];
  const e = v as Record<string, unknown>;
  const p: string[] = [];
  if (!('data' in e) || !(e.data === null || (typeof e.data === 'object' && !Array.isArray(e.data))))
    p.push(`data is ${JSON.stringify(e.data)}, not an object or null`);
  if (!isReasonMap(e.errors)) p.push(`errors is ${JSON.stringify(e.errors)}, not a map of field to reason string`);
  if (!isReasonMap(e.warnings))
    p.push(`warnings is ${JSON.stringify(e.warnings)}, not a map of field to reason string`);
  if (e.callbackStatus !== 'PENDING' && e.callbackStatus !== 'DELIVERED')
    p.push(`callbackStatus is ${JSON.stringify(e.callbackStatus)}, not PENDING or DELIVERED`);
  // completedAt is a timestamp (2.1: date-time with milliseconds, no zone offset); null is ENV-3's concern.
  if (!('completedAt' in e)) p.push('completedAt is missing');
  else if (e.completedAt !== null && !(typeof e.completedAt === 'string' && TIMESTAMP_PATTERN.test(e.completedAt)))
    p.push(`completedAt is ${JSON.stringify(e.completedAt)}, not a timestamp`);
  return p;
}

export function asEnvelope(v: unknown): {
  data: Record<string, unknown> | null;
  errors: Record<string, string>;
  warnings: Record<string, string>;
  callbackStatus?: string;
  completedAt?: unknown;
} {
  const e = (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {}) as Record<string, unknown>;
  return {
    data: (e.data as Record<string, unknown> | null) ?? null,
    errors: (e.errors as Record<string, string>) ?? {},
    warnings: (e.warnings as Record<string, string>) ?? {},
    callbackStatus: e.callbackStatus as string | undefined,
    completedAt: e.completedAt,
  };
}

/** DATA-2 reading: a List read is a JSON array of envelopes. */
export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
