/**
 * Keeps journal entries small. A journal holding 100,000 callbacks makes
 * every garbage collection walk every entry, so each byte an entry keeps costs throughput. Header
 * names and the usual header values repeat on every request: the entry keeps one shared copy of
 * each instead of the parser's fresh one. The strings are equal, so nothing a reader sees changes.
 */
import type { EntryCheck } from './types.ts';

/** Headers whose values take few distinct values (never the signature, delivery id or the like). */
const REPEATING_VALUES = new Set([
  'host',
  'connection',
  'content-type',
  'content-length',
  'accept',
  'accept-encoding',
  'user-agent',
  'x-service-event',
  'x-service-workspace',
  'x-service-delivery-attempt',
]);

const MAX_SHARED = 4096;
const MAX_SHARED_LENGTH = 128;
const shared = new Map<string, string>();

/** One shared copy of a short string that repeats from request to request (equal value). */
export function share(s: string): string {
  if (s.length > MAX_SHARED_LENGTH) return s;
  const known = shared.get(s);
  if (known !== undefined) return known;
  // bounded: once full, new strings are kept as they came (correct, only not shared)
  if (shared.size < MAX_SHARED) shared.set(s, s);
  return s;
}

// the header lines of the last request whose names differed from the one before, with shared
// strings, and which of its values repeat: requests from one client come with the same lines in
// the same order, so comparing with them finds the shared strings without hashing each one
let layout: string[] = [];
let layoutRepeats: boolean[] = [];

function repeats(name: string): boolean {
  return REPEATING_VALUES.has(name.toLowerCase());
}

/**
 * Replaces the header names of rawHeaders and the values of repeating headers by shared equal
 * strings, in place. On the request path: the parser's own copies then die young, which the
 * garbage collector finds far cheaper than copying them into the old generation with the entry.
 */
export function shareRawHeaders(rawHeaders: string[]): void {
  const prev = layout;
  let sameNames = rawHeaders.length === prev.length;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (i < prev.length && name === prev[i]) {
      rawHeaders[i] = prev[i]!;
      if (layoutRepeats[i >> 1]) {
        const value = rawHeaders[i + 1]!;
        rawHeaders[i + 1] = value === prev[i + 1] ? prev[i + 1]! : share(value);
      }
      continue;
    }
    sameNames = false;
    rawHeaders[i] = share(name);
    if (repeats(name)) rawHeaders[i + 1] = share(rawHeaders[i + 1]!);
  }
  if (!sameNames) {
    layout = rawHeaders.slice();
    layoutRepeats = [];
    for (let i = 0; i + 1 < layout.length; i += 2) layoutRepeats.push(repeats(layout[i]!));
  }
}

/**
 * Replaces the values of repeating headers in headers (folded from header lines that
 * shareRawHeaders already shared) by shared equal strings. In place; the same keys, order and values.
 */
export function shareHeaderValues(headers: Record<string, string | string[] | undefined>): void {
  for (const key of REPEATING_VALUES) {
    const v = headers[key];
    if (typeof v === 'string') headers[key] = share(v);
  }
}

const MAX_SHARED_CHECKS = 1024;
const sharedChecks = new Map<string, Readonly<EntryCheck>>();

/**
 * One shared, frozen copy of a header check that repeats from request to request (the same name,
 * clause, outcome and sentence): most entries carry the same few. Readers only read checks.
 */
export function shareCheck(name: string, clause: string, ok: boolean, detail: string): EntryCheck {
  const key = [name, clause, ok ? '1' : '0', detail].join('\u0000');
  const known = sharedChecks.get(key);
  if (known !== undefined) return known;
  const check = Object.freeze({ name, clause, ok, detail });
  if (sharedChecks.size < MAX_SHARED_CHECKS && detail.length <= MAX_SHARED_LENGTH) sharedChecks.set(key, check);
  return check;
}

const sharedValidSchema = new Map<string, Readonly<{ name: string; valid: boolean; errors: string[] }>>();

/**
 * The schema verdict of one entry: a passing verdict is the same for every entry of one webhook,
 * so those share one frozen copy; a failing one (with its errors) is the entry's own.
 */
export function schemaVerdict(
  name: string,
  r: { valid: boolean; errors: string[] },
): { name: string; valid: boolean; errors: string[] } {
  const keys = Object.keys(r);
  // shared only when it reads exactly as Object.assign({ name }, r) would: { name, valid, errors }
  if (r.valid !== true || r.errors.length !== 0 || keys.length !== 2 || keys[0] !== 'valid' || keys[1] !== 'errors')
    return Object.assign({ name }, r);
  let known = sharedValidSchema.get(name);
  if (known === undefined) {
    known = Object.freeze({ name, valid: true, errors: Object.freeze([]) as unknown as string[] });
    if (sharedValidSchema.size < 256) sharedValidSchema.set(name, known);
  }
  return known;
}
