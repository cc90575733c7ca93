/**
 * Signature verification of one request with protocol/ (5.2): HMAC over a list of secrets
 * (rotation, HOST-9), or ES256 JWS with keys inline or from a cached JWKS URL that is refetched
 * on an unknown kid. The payload is the raw body bytes, or for the facts GET the request line
 * (SIGN-6). Never throws: a verifier failure is a verdict with a reason.
 */
import { JwksCache, SIGNATURE_HEADER, factsSigningPayload, verifyHmac, verifyJws } from '../protocol/index.ts';
import type { SignatureRecord, SigningConfig } from './types.ts';

export interface Verifier {
  readonly mode: 'none' | 'hmac' | 'jwks';
  verify(o: { header: string | undefined; payload: Uint8Array | string; nowSeconds: number }): Promise<SignatureRecord> | SignatureRecord;
}

function normalize(v: unknown, mode: string): SignatureRecord {
  if (typeof v === 'string') return { verdict: v as SignatureRecord['verdict'], mode, reason: v };
  const r = v as SignatureRecord;
  if (r.t !== undefined && r.skewSeconds !== undefined && r.kid === undefined && r.secretIndex !== undefined && r.secretIndex >= 0) {
    // the usual HMAC verdict in one literal, keys in the order the general path below adds them:
    // an object built whole stays compact in a journal that keeps it
    return { verdict: r.verdict, mode: r.mode ?? mode, reason: r.reason ?? r.verdict, t: r.t, skewSeconds: r.skewSeconds, secretIndex: r.secretIndex };
  }
  const out: SignatureRecord = { verdict: r.verdict, mode: r.mode ?? mode, reason: r.reason ?? r.verdict };
  if (r.t !== undefined) out.t = r.t;
  if (r.skewSeconds !== undefined) out.skewSeconds = r.skewSeconds;
  if (r.kid !== undefined) out.kid = r.kid;
  if (r.secretIndex !== undefined && r.secretIndex >= 0) out.secretIndex = r.secretIndex;
  return out;
}

/** Builds a verifier for a route's signing config. JWKS caches are shared per URL within one mock host. */
export function makeVerifier(signing: SigningConfig | undefined, jwksCaches: Map<string, JwksCache>): Verifier {
  if (!signing || signing.mode === 'none') {
    return {
      mode: 'none',
      verify: ({ header }) =>
        header === undefined
          ? { verdict: 'absent', mode: 'none', reason: 'no X-Service-Signature header; no signing configured for this route, nothing verified' }
          : { verdict: 'unknown-kid', mode: 'none', reason: 'X-Service-Signature present but no secret or key is configured for this route: not verified' },
    };
  }
  if (signing.mode === 'hmac') {
    const secrets = [...signing.secrets];
    return {
      mode: 'hmac',
      verify: ({ header, payload, nowSeconds }) => normalize(verifyHmac({ header, payload, secrets, now: nowSeconds }), 'hmac'),
    };
  }
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
  return {
    mode: 'jwks',
    verify: async ({ header, payload, nowSeconds }) => {
      try {
        const v = await verifyJws({ header, payload, keys: keys as never, now: nowSeconds });
        return normalize(v, 'jwks');
      } catch (error) {
        return { verdict: 'unknown-kid', mode: 'jwks', reason: `could not obtain the JWKS to verify with: ${(error as Error).message}` };
      }
    },
  };
}

export function signatureHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const h = headers[SIGNATURE_HEADER];
  return Array.isArray(h) ? h.join(',') : h;
}

/** SIGN-6: the facts GET signs "GET " + the request target as sent (path and query, as on the wire). */
export function factsPayload(rawUrl: string): string {
  return factsSigningPayload(rawUrl);
}
