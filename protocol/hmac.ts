/**
 * HMAC mode of callback signing (5.2, SIGN-11, SIGN-12, HOST-9, HOST-10).
 * Header: t=<unix_seconds>,v1=<hex>; v1 = lowercase hex HMAC-SHA256(secret, t + "." + raw body bytes).
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ccsError } from '../spec/index.ts';
import { CONTRACT } from './constants.ts';
import { HMAC_HEADER_PATTERN, exactHmacFormEnd } from './hmac-form.ts';
import { hmacSha256Into } from './hmac-pads.ts';
import { parseUnixSeconds, toBytes, unixNow, windowVerdict, type SignatureVerdict } from './verdict.ts';

export { HMAC_HEADER_PATTERN };

/**
 * The key objects of the last few text secrets: a verifier checks the same one or two per
 * request, and createHmac given raw bytes would build a fresh key object for every request.
 */
const secretKeyCache = new Map<string, KeyObject>();
const SECRET_CACHE_MAX = 16;

function keyOf(secret: string | Uint8Array): KeyObject | Uint8Array {
  // bytes may be changed by their owner between calls, so only text secrets are cached
  if (typeof secret !== 'string') return secret;
  let key = secretKeyCache.get(secret);
  if (key === undefined) {
    if (secretKeyCache.size >= SECRET_CACHE_MAX) secretKeyCache.clear();
    // Reading: a secret given as text is used as its UTF-8 bytes (the contract says "with the secret").
    const bytes = Buffer.from(secret, 'utf8');
    // an empty key cannot be a KeyObject; createHmac takes the empty bytes as they are
    key = bytes.length === 0 ? undefined : createSecretKey(bytes);
    if (key === undefined) return bytes;
    secretKeyCache.set(secret, key);
  }
  return key;
}

/** Lowercase hex HMAC-SHA256 over `${t}.` followed by the payload bytes (SIGN-12). */
export function hmacHex(secret: string | Uint8Array, tText: string, payload: Uint8Array | string): string {
  return hmacDigest(secret, tText, payload).toString('hex');
}

/** Builds the X-Service-Signature value for HMAC mode. */
export function signHmac(o: { secret: string | Uint8Array; t: number; payload: Uint8Array | string }): string {
  if (!Number.isSafeInteger(o.t) || o.t < 0) {
    throw ccsError('PROTOCOL_T_INVALID', { t: String(o.t) });
  }
  const t = String(o.t);
  return `t=${t},v1=${hmacHex(o.secret, t, o.payload)}`;
}

export type HmacHeaderParse = { ok: true; tText: string; t: number; v1: string } | { ok: false; reason: string };

/** Splits an HMAC header into t and v1, or says in words what is wrong with it. */
export function parseHmacHeader(header: string): HmacHeaderParse {
  const value = header.trim();
  const parts = value.split(',');
  const fields = new Map<string, string>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0)
      return {
        ok: false,
        reason: `header part "${part.slice(0, 40)}" is not key=value; expected t=<unix_seconds>,v1=<hex> (SIGN-11)`,
      };
    const key = part.slice(0, eq);
    if (fields.has(key))
      return { ok: false, reason: `header repeats ${key}; expected t=<unix_seconds>,v1=<hex> (SIGN-11)` };
    fields.set(key, part.slice(eq + 1));
  }
  const tText = fields.get('t');
  const v1 = fields.get('v1');
  if (tText === undefined)
    return { ok: false, reason: 'header has no t; expected t=<unix_seconds>,v1=<hex> (SIGN-11)' };
  if (v1 === undefined) return { ok: false, reason: 'header has no v1; expected t=<unix_seconds>,v1=<hex> (SIGN-11)' };
  const t = parseUnixSeconds(tText);
  if (t === undefined)
    return { ok: false, reason: `t "${tText.slice(0, 40)}" is not an integer of unix seconds (SIGN-11)` };
  if (!/^[0-9a-f]{64}$/.test(v1)) {
    return { ok: false, reason: `v1 is not 64 lowercase hex digits (got ${v1.length} characters) (SIGN-12)` };
  }
  if (fields.size !== 2 || !HMAC_HEADER_PATTERN.test(value)) {
    return {
      ok: false,
      reason: 'header is not exactly t=<unix_seconds>,v1=<hex> (t first, v1 second, nothing else) (SIGN-11)',
    };
  }
  return { ok: true, tText, t, v1 };
}

/** The prefix `${t}.` as bytes; a callback's t repeats for a whole second, so the last one is kept. */
let lastPrefixT = '';
let lastPrefix: Buffer = Buffer.from('.', 'utf8');
function prefixBytes(tText: string): Buffer {
  if (tText !== lastPrefixT) {
    lastPrefix = Buffer.from(`${tText}.`, 'utf8');
    lastPrefixT = tText;
  }
  return lastPrefix;
}

const DIGEST = Buffer.alloc(32);

/**
 * The raw HMAC-SHA256 digest over `${t}.` + payload bytes (the bytes that hmacHex writes in hex).
 * Read it before the next call: with a text secret it is one reused buffer.
 */
function hmacDigest(secret: string | Uint8Array, tText: string, payload: Uint8Array | string): Buffer {
  const prefix = prefixBytes(tText);
  const bytes = toBytes(payload);
  // text secrets (every verifier's) take the one-shot form; bytes may change between calls, so not those
  if (typeof secret === 'string' && hmacSha256Into(secret, prefix, bytes, DIGEST)) return DIGEST;
  const mac = createHmac('sha256', keyOf(secret));
  mac.update(prefix);
  mac.update(bytes);
  return mac.digest();
}

/**
 * The common header form (HMAC_HEADER_PATTERN, read by hmac-form.ts): when it matches and t is a safe
 * integer, parseHmacHeader would accept it too (same t and v1), so the per-field walk is only needed
 * to explain a bad header.
 */
function parseHmacHeaderFast(header: string): HmacHeaderParse {
  const value = header.trim();
  const end = exactHmacFormEnd(value);
  if (end > 0) {
    const tText = value.slice(2, end);
    const t = parseUnixSeconds(tText);
    if (t !== undefined) return { ok: true, tText, t, v1: value.slice(end + 4) };
  }
  return parseHmacHeader(header);
}

const RECEIVED = Buffer.alloc(32);

/**
 * Verifies an HMAC-mode signature against one or more secrets (rotation: either is accepted
 * during the overlap, HOST-9). Compares in constant time; a bad shape is 'malformed', a mismatch
 * is 'invalid', never a throw.
 */
export function verifyHmac(o: {
  header: string | undefined;
  payload: Uint8Array | string;
  secrets: ReadonlyArray<string | Uint8Array>;
  now?: number;
  windowSeconds?: number;
}): SignatureVerdict {
  const secrets = o.secrets;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw ccsError('PROTOCOL_NO_SECRETS');
  }
  for (let i = 0; i < secrets.length; i++) {
    if (!(i in secrets)) continue; // a hole in a sparse list is skipped, as forEach did
    const secret: unknown = secrets[i];
    if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) {
      throw ccsError('PROTOCOL_SECRET_INVALID', { index: i, type: typeof secret });
    }
  }
  const now = o.now ?? unixNow();
  const windowSeconds = o.windowSeconds ?? CONTRACT.replayWindowSeconds;
  if (o.header === undefined) {
    return {
      verdict: 'absent',
      mode: 'hmac',
      reason: 'no X-Service-Signature header although HMAC signing is enabled',
    };
  }
  if (typeof o.header !== 'string') {
    return {
      verdict: 'malformed',
      mode: 'hmac',
      reason: `X-Service-Signature must be one string, got ${Array.isArray(o.header) ? 'a list' : typeof o.header}`,
    };
  }
  const parsed = parseHmacHeaderFast(o.header);
  if (!parsed.ok) return { verdict: 'malformed', mode: 'hmac', reason: parsed.reason };
  // decoded into one reused buffer, not a new one per request (v1 is 64 hex digits here: all of it)
  const n = RECEIVED.write(parsed.v1, 'hex');
  const received = n === RECEIVED.length ? RECEIVED : RECEIVED.subarray(0, n);
  // the payload as bytes once, not once per secret
  const payload = toBytes(o.payload);
  let secretIndex = -1;
  // Check every secret (no early exit) so timing does not tell which one matched.
  for (let i = 0; i < secrets.length; i++) {
    if (!(i in secrets)) continue;
    const expected = hmacDigest(secrets[i]!, parsed.tText, payload);
    if (expected.length === received.length && timingSafeEqual(expected, received) && secretIndex < 0) secretIndex = i;
  }
  if (secretIndex < 0) {
    return {
      verdict: 'invalid',
      mode: 'hmac',
      t: parsed.t,
      skewSeconds: now - parsed.t,
      reason: `v1 matches none of the ${secrets.length} secret(s) over t.rawBody (wrong secret, or the body bytes differ from the signed ones) (SIGN-12)`,
    };
  }
  return windowVerdict({ mode: 'hmac', t: parsed.t, secretIndex }, now, windowSeconds);
}
