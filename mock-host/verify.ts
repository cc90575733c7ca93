/**
 * Signature verdicts of the mock host, all from protocol/'s one verifier (verifySignature), so a
 * request gets here the verdict a host team's verifier gives it: HMAC over a list of secrets
 * (rotation, HOST-9), or ES256 JWS with keys inline or from a cached JWKS URL that is refetched on
 * an unknown kid, or no mode (SIGN-1). The payload is the raw body bytes, or for the facts GET the
 * request line (SIGN-6). Never throws: a verifier failure is a verdict with a reason.
 */
import {
  JwksCache,
  SIGNATURE_HEADER,
  factsSigningPayload,
  verifySignature,
  type HeaderRead,
  type VerifierConfig,
} from '../protocol/index.ts';
import type { SignatureRecord, SigningConfig } from './types.ts';

export interface Verifier {
  readonly mode: 'none' | 'hmac' | 'jwks';
  readonly config: VerifierConfig;
}

const ABSENT: HeaderRead = Object.freeze({ kind: 'absent' });

/** The signature header as the raw header lines carry it: absent, one value, or repeated. */
export function signatureRead(rawHeaders: string[]): HeaderRead {
  let value: string | undefined;
  let count = 0;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== SIGNATURE_HEADER.length || name.toLowerCase() !== SIGNATURE_HEADER) continue;
    count++;
    value = rawHeaders[i + 1]!;
  }
  if (count === 0) return ABSENT;
  return count === 1 ? { kind: 'one', value: value! } : { kind: 'many', count };
}

/** The journal's record of a verdict: the same values, keys always in one order. */
function record(r: SignatureRecord): SignatureRecord {
  if (
    r.t !== undefined &&
    r.skewSeconds !== undefined &&
    r.kid === undefined &&
    r.secretIndex !== undefined &&
    r.secretIndex >= 0
  ) {
    // the usual HMAC verdict in one literal: an object built whole stays compact in a journal that keeps it
    return {
      verdict: r.verdict,
      mode: r.mode,
      reason: r.reason,
      t: r.t,
      skewSeconds: r.skewSeconds,
      secretIndex: r.secretIndex,
    };
  }
  const out: SignatureRecord = { verdict: r.verdict, mode: r.mode, reason: r.reason };
  if (r.t !== undefined) out.t = r.t;
  if (r.skewSeconds !== undefined) out.skewSeconds = r.skewSeconds;
  if (r.kid !== undefined) out.kid = r.kid;
  if (r.secretIndex !== undefined && r.secretIndex >= 0) out.secretIndex = r.secretIndex;
  return out;
}

function failed(error: unknown): SignatureRecord {
  return {
    verdict: 'unknown-kid',
    mode: 'jwks',
    reason: `could not obtain the JWKS to verify with: ${(error as Error).message}`,
  };
}

/** Builds a verifier for a route's signing config. JWKS caches are shared per URL within one mock host. */
export function makeVerifier(signing: SigningConfig | undefined, jwksCaches: Map<string, JwksCache>): Verifier {
  if (!signing || signing.mode === 'none') return { mode: 'none', config: { mode: 'none' } };
  if (signing.mode === 'hmac') return { mode: 'hmac', config: { mode: 'hmac', secrets: [...signing.secrets] } };
  let keys: { keys: object[] } | JwksCache;
  if (signing.jwks) keys = signing.jwks;
  else if (signing.jwksUrl) {
    let cache = jwksCaches.get(signing.jwksUrl);
    if (!cache) {
      cache = new JwksCache({ url: signing.jwksUrl });
      jwksCaches.set(signing.jwksUrl, cache);
    }
    keys = cache;
  } else keys = { keys: [] };
  return { mode: 'jwks', config: { mode: 'jwks', keys: keys as never } };
}

/** The verdict of one request: synchronous except in JWKS mode. */
export function verifyRequest(
  v: Verifier,
  rawHeaders: string[],
  payload: Uint8Array | string,
  nowSeconds: number,
): SignatureRecord | Promise<SignatureRecord> {
  let r: ReturnType<typeof verifySignature>;
  try {
    r = verifySignature({ header: signatureRead(rawHeaders), payload, config: v.config, now: nowSeconds });
  } catch (error) {
    if (v.mode !== 'jwks') throw error;
    return failed(error);
  }
  if (typeof (r as Promise<SignatureRecord>).then === 'function')
    return (r as Promise<SignatureRecord>).then((s) => seenAgain(v, record(s)), failed);
  return record(r as SignatureRecord);
}

/**
 * A JWS its kid's cached key does not verify: the document is fetched again in the background, so the
 * journal holds what the key source serves now (a key the service signs with under another kid, SIGN-9).
 * The verdict and the answer do not wait for it.
 */
function seenAgain(v: Verifier, s: SignatureRecord): SignatureRecord {
  const source = v.config.mode === 'jwks' ? v.config.keys : undefined;
  if (s.verdict === 'invalid' && s.kid !== undefined && source instanceof JwksCache) source.lookAgain();
  return s;
}

/** A request at a path with no route: nothing is configured there, so it is judged as signing off. */
export function unroutedVerdict(rawHeaders: string[]): SignatureRecord {
  const r = verifySignature({
    header: signatureRead(rawHeaders),
    payload: '',
    config: { mode: 'none' },
  }) as SignatureRecord;
  return { verdict: r.verdict, mode: r.mode, reason: `${r.reason}; no route at this path` };
}

/** SIGN-6: the facts GET signs "GET " + the request target as sent (path and query, as on the wire). */
export function factsPayload(rawUrl: string): string {
  return factsSigningPayload(rawUrl);
}
