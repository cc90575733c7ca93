/**
 * JWKS mode of callback signing (5.2, SIGN-7, SIGN-8, HOST-7, HOST-8): a compact JWS, ES256, kid
 * in the header, payload "<unix_seconds>." followed by the raw body. Not a JWT: compactSign and
 * compactVerify only.
 */
import {
  CompactSign,
  compactVerify,
  generateKeyPair,
  exportJWK,
  base64url,
  type CryptoKey,
  type JWK,
  type KeyObject,
} from 'jose';
import { ccsError } from '../spec/index.ts';
import { CONTRACT } from './constants.ts';
import { JwksCache, findJwk, importEs256PublicJwk } from './jwks-cache.ts';
import { parseUnixSeconds, toBytes, unixNow, windowVerdict, type SignatureVerdict } from './verdict.ts';

export type JwksSource = { keys: JWK[] } | JwksCache;

const DOT = 0x2e;

/** The JWS payload bytes: "<t>." followed by the payload (SIGN-8). */
export function jwsPayloadBytes(t: number, payload: Uint8Array | string): Uint8Array {
  const prefix = new TextEncoder().encode(`${t}.`);
  const body = toBytes(payload);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

/** Builds the X-Service-Signature value for JWKS mode. */
export async function signJws(o: {
  privateKey: CryptoKey | KeyObject | JWK;
  kid: string;
  t: number;
  payload: Uint8Array | string;
}): Promise<string> {
  if (!Number.isSafeInteger(o.t) || o.t < 0) {
    throw ccsError('PROTOCOL_T_INVALID', { t: String(o.t) });
  }
  if (typeof o.kid !== 'string' || o.kid === '') {
    throw ccsError('PROTOCOL_KID_INVALID');
  }
  return new CompactSign(jwsPayloadBytes(o.t, o.payload))
    .setProtectedHeader({ alg: 'ES256', kid: o.kid })
    .sign(o.privateKey);
}

/** A fresh ES256 key pair; publicJwk carries kid, alg and use, ready for a JWKS document. */
export async function generateSigningKey(
  kid: string,
): Promise<{ kid: string; privateKey: CryptoKey | KeyObject; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

export type JwsParse =
  | { ok: true; kid: string; alg: unknown; header: Record<string, unknown>; t: number; signedBody: Uint8Array }
  | { ok: false; reason: string };

const B64URL = /^[A-Za-z0-9_-]+$/;

/** Reads a compact JWS without verifying it, or says in words what is wrong with it (SIGN-7, SIGN-8). */
export function parseJws(header: string): JwsParse {
  const parts = header.trim().split('.');
  if (parts.length !== 3)
    return { ok: false, reason: `compact JWS must have three dot-separated parts, got ${parts.length} (SIGN-7)` };
  const [h, p, s] = parts as [string, string, string];
  if (!B64URL.test(h) || !B64URL.test(p) || !B64URL.test(s)) {
    return { ok: false, reason: 'a part of the compact JWS is empty or not base64url (SIGN-7)' };
  }
  let protectedHeader: unknown;
  try {
    protectedHeader = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(h)));
  } catch {
    return { ok: false, reason: 'the JWS protected header is not base64url-encoded JSON (SIGN-7)' };
  }
  if (typeof protectedHeader !== 'object' || protectedHeader === null || Array.isArray(protectedHeader)) {
    return { ok: false, reason: 'the JWS protected header is not a JSON object (SIGN-7)' };
  }
  const hdr = protectedHeader as Record<string, unknown>;
  if (typeof hdr.kid !== 'string' || hdr.kid === '')
    return { ok: false, reason: 'the JWS header carries no kid (SIGN-7)' };
  let payload: Uint8Array;
  try {
    payload = base64url.decode(p);
  } catch {
    return { ok: false, reason: 'the JWS payload is not base64url (SIGN-7)' };
  }
  // HOST-7 step 4: split at the FIRST dot; the body itself may contain dots.
  const dot = payload.indexOf(DOT);
  if (dot < 0)
    return {
      ok: false,
      reason: 'the JWS payload has no dot; expected "<unix_seconds>." followed by the body (SIGN-8)',
    };
  const tText = new TextDecoder().decode(payload.subarray(0, dot));
  const t = parseUnixSeconds(tText);
  if (t === undefined)
    return {
      ok: false,
      reason: `the JWS payload starts with "${tText.slice(0, 20)}", not an integer of unix seconds (SIGN-8)`,
    };
  return { ok: true, kid: hdr.kid, alg: hdr.alg, header: hdr, t, signedBody: payload.subarray(dot + 1) };
}

/**
 * Imported keys of static JWKS documents, per JWK object (importing costs more than verifying).
 * The JWK's JSON is kept with it so an object changed in place is imported again.
 */
const importedStatic = new WeakMap<JWK, { json: string; key: Promise<CryptoKey | KeyObject | undefined> }>();

function importCached(jwk: JWK): Promise<CryptoKey | KeyObject | undefined> {
  const json = JSON.stringify(jwk);
  const hit = importedStatic.get(jwk);
  if (hit !== undefined && hit.json === json) return hit.key;
  const key = importEs256PublicJwk(jwk);
  importedStatic.set(jwk, { json, key });
  return key;
}

async function resolveKey(
  keys: JwksSource,
  kid: string,
): Promise<{ key: CryptoKey | KeyObject | undefined; known: boolean }> {
  if (keys instanceof JwksCache) {
    const key = await keys.keyFor(kid);
    return { key, known: key !== undefined || keys.cachedJwk(kid) !== undefined };
  }
  if (!keys || !Array.isArray(keys.keys)) {
    throw ccsError('PROTOCOL_KEYS_INVALID');
  }
  const jwk = findJwk(keys, kid);
  if (jwk === undefined) return { key: undefined, known: false };
  return { key: await importCached(jwk), known: true };
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.length === b.length &&
    Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0
  );
}

/**
 * Verifies a JWKS-mode signature in the order of 5.2: read kid, pick the key, verify ES256, split
 * the payload at the first dot, check the window, require the signed body to equal the received
 * one. Verdict order: absent, malformed, unknown-kid, invalid (signature or body), stale/future.
 */
export async function verifyJws(o: {
  header: string | undefined;
  payload: Uint8Array | string;
  keys: JwksSource;
  now?: number;
  windowSeconds?: number;
}): Promise<SignatureVerdict> {
  const now = o.now ?? unixNow();
  const windowSeconds = o.windowSeconds ?? CONTRACT.replayWindowSeconds;
  if (o.header === undefined) {
    return {
      verdict: 'absent',
      mode: 'jwks',
      reason: 'no X-Service-Signature header although JWKS signing is enabled',
    };
  }
  if (typeof o.header !== 'string') {
    return {
      verdict: 'malformed',
      mode: 'jwks',
      reason: `X-Service-Signature must be one string, got ${Array.isArray(o.header) ? 'a list' : typeof o.header}`,
    };
  }
  const parsed = parseJws(o.header);
  if (!parsed.ok) return { verdict: 'malformed', mode: 'jwks', reason: parsed.reason };
  const { kid, t } = parsed;
  const base = { mode: 'jwks' as const, kid, t, skewSeconds: now - t };
  if (parsed.alg !== 'ES256') {
    return {
      ...base,
      verdict: 'invalid',
      reason: `JWS alg ${JSON.stringify(parsed.alg)} refused; only ES256 is accepted (SIGN-7)`,
    };
  }
  if (parsed.header.b64 !== undefined) {
    return {
      ...base,
      verdict: 'invalid',
      reason: 'JWS header carries b64; the contract signs a base64url-encoded payload (SIGN-7)',
    };
  }
  const { key, known } = await resolveKey(o.keys, kid);
  if (!known)
    return {
      ...base,
      verdict: 'unknown-kid',
      reason: `no key with kid ${JSON.stringify(kid)} in the JWKS document (HOST-8)`,
    };
  if (key === undefined) {
    return {
      ...base,
      verdict: 'invalid',
      reason: `the key of kid ${JSON.stringify(kid)} is not an ES256 (EC P-256) public key`,
    };
  }
  try {
    await compactVerify(o.header.trim(), key, { algorithms: ['ES256'] });
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'ERR_JWS_INVALID';
    return {
      ...base,
      verdict: 'invalid',
      reason: `ES256 signature does not verify with the key of kid ${JSON.stringify(kid)} (${code}) (HOST-7)`,
    };
  }
  if (!bytesEqual(parsed.signedBody, toBytes(o.payload))) {
    return {
      ...base,
      verdict: 'invalid',
      reason: 'the signed body in the JWS payload differs from the received body bytes (HOST-7, HOST-4)',
    };
  }
  return windowVerdict({ mode: 'jwks', kid, t }, now, windowSeconds);
}
