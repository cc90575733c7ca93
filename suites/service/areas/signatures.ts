/**
 * Signature checks built from the contract's words (5.2), independent of protocol/'s verifiers
 * so a shared bug cannot hide: HMAC v1 recomputed with node:crypto, JWS verified with jose
 * against the service's own JWKS document.
 */
import { createHmac } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { header, rawBody } from '../../../judge/service/journal.ts';

/** SIGN-11: t=<unix_seconds>,v1=<hex>. v1 is 64 hex digits (HMAC-SHA256). */
export const HMAC_HEADER_PATTERN = /^t=(\d+),v1=([0-9a-fA-F]+)$/;
/** SIGN-7: compact JWS, three base64url parts. */
export const JWS_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;

export interface HmacCheck {
  ok: boolean;
  t?: number;
  reason: string;
  secretIndex?: number;
}

/** The signed bytes of an entry: the raw body, or for the facts GET the request line (SIGN-6). */
export function signedBytes(e: JournalEntry): Buffer {
  if (e.method === 'GET') return Buffer.from(`GET ${e.url}`, 'utf8');
  return rawBody(e);
}

/** SIGN-11/SIGN-12: recompute v1 = lowercase hex HMAC-SHA256(secret, t + '.' + raw bytes). */
export function checkHmac(e: JournalEntry, secrets: string[]): HmacCheck {
  const h = header(e, 'x-service-signature');
  if (h === undefined) return { ok: false, reason: 'X-Service-Signature is absent' };
  const m = HMAC_HEADER_PATTERN.exec(h);
  if (!m || !m[1] || !m[2])
    return { ok: false, reason: `header ${JSON.stringify(h.slice(0, 120))} is not t=<unix_seconds>,v1=<hex>` };
  const t = Number(m[1]);
  const v1 = m[2];
  if (v1 !== v1.toLowerCase()) return { ok: false, t, reason: 'v1 is not lowercase hex' };
  const bytes = Buffer.concat([Buffer.from(`${m[1]}.`, 'utf8'), signedBytes(e)]);
  for (let i = 0; i < secrets.length; i++) {
    const expected = createHmac('sha256', secrets[i]!).update(bytes).digest('hex');
    if (expected === v1) return { ok: true, t, reason: `v1 verifies with secret #${i}`, secretIndex: i };
  }
  return {
    ok: false,
    t,
    reason: `v1 does not verify with any of the ${secrets.length} secret(s) given over t + "." + the raw bytes`,
  };
}

/**
 * Which secret signed a request over its own bytes (the raw body, or the facts GET's request line),
 * read past the details of SIGN-11's header form and SIGN-12's v1 encoding: t and v1 are found in
 * either order, v1 is compared without regard to hex case, and the t/bytes joiner may be the
 * contract's dot or nothing. For the clauses that are about WHICH secret signs WHAT (SIGN-3, SIGN-6,
 * SIGN-13, SIGN-14, SIGN-5): a v1 in uppercase hex, or over t and the body without the dot, breaks
 * SIGN-12 alone, and those clauses still see the secret and the bytes it was made with.
 */
export interface HmacSigner {
  t?: number;
  secretIndex?: number;
  reason: string;
}

export function hmacSignerOf(e: JournalEntry, secrets: string[]): HmacSigner {
  const h = header(e, 'x-service-signature');
  if (h === undefined) return { reason: 'X-Service-Signature is absent' };
  const tm = /(?:^|[,;\s])t=(\d+)(?=$|[,;\s])/.exec(h);
  const vm = /(?:^|[,;\s])v1=([0-9a-fA-F]+)(?=$|[,;\s])/.exec(h);
  const t = tm?.[1] === undefined ? undefined : Number(tm[1]);
  if (!tm || !vm || !tm[1] || !vm[1])
    return {
      ...(t === undefined ? {} : { t }),
      reason: `header ${JSON.stringify(h.slice(0, 120))} carries no t=<digits> and v1=<hex> to verify`,
    };
  const v1 = vm[1].toLowerCase();
  const bytes = signedBytes(e);
  for (const joiner of ['.', '']) {
    for (let i = 0; i < secrets.length; i++) {
      const mac = createHmac('sha256', secrets[i]!).update(`${tm[1]}${joiner}`, 'utf8').update(bytes).digest('hex');
      if (mac === v1)
        return {
          t: t!,
          secretIndex: i,
          reason: `v1 is made with secret #${i} over t and the request's own bytes${joiner === '.' ? '' : ' (joined without the dot: SIGN-12)'}${vm[1] === v1 ? '' : ' (in uppercase hex: SIGN-12)'}`,
        };
    }
  }
  return {
    t: t!,
    reason: `v1 is made with none of the ${secrets.length} secret(s) given over t and the request's own bytes (${e.method === 'GET' ? `"GET ${e.url}"` : 'the raw body'})`,
  };
}

export interface JwsCheck {
  ok: boolean;
  t?: number;
  kid?: string;
  alg?: string;
  reason: string;
  /** The ES256 signature verifies with the key of its kid in the JWKS document given. */
  verified?: boolean;
  /** The JWS payload, base64url-decoded (read whether or not the signature verifies). */
  payload?: Buffer;
}

/**
 * SIGN-8 / SIGN-6: what is wrong with a JWS payload against "<unix_seconds>." + the request's own bytes; undefined when
 * nothing is.
 */
export function jwsPayloadProblem(e: JournalEntry, payload: Buffer | undefined): string | undefined {
  if (payload === undefined) return 'the JWS payload does not decode';
  const dot = payload.indexOf(0x2e);
  if (dot <= 0) return 'the JWS payload has no "<t>." prefix';
  const tText = payload.subarray(0, dot).toString('utf8');
  if (!/^\d+$/.test(tText)) return `the JWS payload prefix ${JSON.stringify(tText.slice(0, 20))} is not unix seconds`;
  const signed = payload.subarray(dot + 1);
  const own = signedBytes(e);
  if (!signed.equals(own))
    return `the signed bytes in the JWS payload (${signed.length} bytes: ${JSON.stringify(signed.toString('utf8').slice(0, 120))}) differ from the ${own.length} bytes received (${JSON.stringify(own.toString('utf8').slice(0, 120))})`;
  return undefined;
}

function decodedPayload(h: string): Buffer | undefined {
  const part = h.split('.')[1];
  return part === undefined ? undefined : Buffer.from(part, 'base64url');
}

/** SIGN-7/SIGN-8: ES256 compact JWS with kid, payload "<t>." + raw body, key from the JWKS document. */
export async function checkJws(e: JournalEntry, jwks: { keys: JWK[] }): Promise<JwsCheck> {
  const h = header(e, 'x-service-signature');
  if (h === undefined) return { ok: false, reason: 'X-Service-Signature is absent' };
  if (!JWS_PATTERN.test(h)) return { ok: false, reason: 'header is not a compact JWS (three base64url parts)' };
  let prot: { alg?: string; kid?: string };
  try {
    prot = decodeProtectedHeader(h) as { alg?: string; kid?: string };
  } catch (err) {
    return { ok: false, reason: `JWS header does not decode: ${(err as Error).message}` };
  }
  const decoded = decodedPayload(h);
  const payload = decoded === undefined ? {} : { payload: decoded };
  if (prot.alg !== 'ES256')
    return { ok: false, alg: prot.alg, kid: prot.kid, reason: `alg is ${String(prot.alg)}, not ES256`, ...payload };
  if (!prot.kid) return { ok: false, alg: prot.alg, reason: 'the JWS header carries no kid', ...payload };
  const jwk = jwks.keys.find((k) => k.kid === prot.kid);
  if (!jwk)
    return {
      ok: false,
      alg: prot.alg,
      kid: prot.kid,
      reason: `kid ${prot.kid} is not in the service's JWKS document`,
      ...payload,
    };
  let payloadBytes: Uint8Array;
  try {
    const key = await importJWK(jwk, 'ES256');
    payloadBytes = (await compactVerify(h, key)).payload;
  } catch (err) {
    return {
      ok: false,
      alg: prot.alg,
      kid: prot.kid,
      reason: `ES256 signature does not verify with kid ${prot.kid}: ${(err as Error).message}`,
      verified: false,
      ...payload,
    };
  }
  const buf = Buffer.from(payloadBytes);
  const seen = { kid: prot.kid, alg: prot.alg, verified: true, payload: buf };
  const dot = buf.indexOf(0x2e);
  if (dot <= 0) return { ok: false, ...seen, reason: 'JWS payload has no "<t>." prefix' };
  const tText = buf.subarray(0, dot).toString('utf8');
  if (!/^\d+$/.test(tText))
    return {
      ok: false,
      ...seen,
      reason: `JWS payload prefix ${JSON.stringify(tText.slice(0, 20))} is not unix seconds`,
    };
  const signed = buf.subarray(dot + 1);
  if (!signed.equals(signedBytes(e)))
    return {
      ok: false,
      t: Number(tText),
      ...seen,
      reason: 'the signed body in the JWS payload differs from the raw bytes received',
    };
  return { ok: true, t: Number(tText), ...seen, reason: `ES256 JWS verifies with kid ${prot.kid}` };
}

/** SIGN-4: t is the current unix time at sending; allowed skew in seconds from the arrival. */
export const SEND_SKEW_SECONDS = 5;

export function tNearArrival(t: number | undefined, e: JournalEntry): boolean {
  if (t === undefined) return false;
  return Math.abs(t - e.arrival.wallMs / 1000) <= SEND_SKEW_SECONDS;
}
