/**
 * Signature verification with node:crypto alone (5.2), both modes:
 *   HMAC  X-Service-Signature: t=<unix seconds>,v1=<64 lowercase hex>; v1 = HMAC-SHA256(secret,
 *         "<t>." + raw bytes), compared in constant time against each secret of a rotation.
 *   JWKS  a compact JWS, ES256 with kid; its payload is "<t>." + raw bytes. The six steps of 5.2:
 *         read kid, pick its key, verify the signature, split at the first dot, check the
 *         window, compare the signed body with the received bytes.
 * The window has two sides: reject abs(now - t) > 300 (HOST-5, HOST-6). The facts GET is signed
 * over "GET " + the request target instead of a body (5.2 item 6).
 */
import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';

const WINDOW_SECONDS = 300;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const inWindow = (t) => Math.abs(nowSeconds() - t) <= WINDOW_SECONDS;
const headerOf = (headers) =>
  typeof headers['x-service-signature'] === 'string' ? headers['x-service-signature'] : undefined;

/** HMAC: true when v1 matches one of the secrets over "<t>." + payload and t is inside the window. */
export function verifyHmac(header, payload, secrets) {
  // Check the shape first: timingSafeEqual throws on buffers of different lengths (HOST-3 wants a 401).
  const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (m === null) return false;
  const [, tText, v1] = m;
  const given = Buffer.from(v1, 'hex');
  let match = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${tText}.`).update(payload).digest();
    if (timingSafeEqual(expected, given)) match = true; // every secret is tried: the timing tells nothing
  }
  return match && inWindow(Number(tText));
}

/** The JWKS document, cached; fetched again when a kid is unknown (a rotation, HOST-8). */
export function jwksKeys(url) {
  let keys = new Map();
  let fetching;
  const refetch = () => {
    fetching ??= (async () => {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        const doc = await res.json();
        const next = new Map();
        for (const jwk of Array.isArray(doc.keys) ? doc.keys : []) {
          if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.kid !== 'string') continue;
          next.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
        }
        keys = next;
      } finally {
        fetching = undefined;
      }
    })();
    return fetching;
  };
  return async (kid) => {
    if (keys.has(kid)) return keys.get(kid);
    // No cooldown: an unknown kid needs a document fetched after it was seen. A fetch already under
    // way may predate the rotation, so one more follows it (shared by every request waiting).
    if (fetching) await fetching.catch(() => undefined);
    if (!keys.has(kid)) await refetch().catch(() => undefined);
    return keys.get(kid);
  };
}

/** JWKS: the six steps of 5.2, each refusing with false. */
export async function verifyJws(header, payload, keyOf) {
  const parts = (header ?? '').split('.');
  // Three parts of base64url (RFC 7515 2, 7.1): Buffer.from(s, 'base64url') would also take =, + and /.
  if (parts.length !== 3 || !parts.every((x) => /^[A-Za-z0-9_-]+$/.test(x))) return false;
  const [h, p, s] = parts;
  let protectedHeader;
  try {
    protectedHeader = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  // ES256 and nothing else (no alg none, no HS256 keyed with the public key); 1) read kid.
  if (protectedHeader?.alg !== 'ES256' || typeof protectedHeader.kid !== 'string') return false;
  const key = await keyOf(protectedHeader.kid); // 2) the key of that kid, never another one
  if (key === undefined) return false;
  // 3) ES256 in JWS is the raw 64-byte r||s, not DER: node reads DER unless told 'ieee-p1363'.
  const signature = Buffer.from(s, 'base64url');
  if (
    signature.length !== 64 ||
    !verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, signature)
  )
    return false;
  const signed = Buffer.from(p, 'base64url');
  const dot = signed.indexOf(0x2e); // 4) the first dot: the body has dots of its own
  const tText = signed.subarray(0, Math.max(dot, 0)).toString('latin1');
  if (!/^\d{1,12}$/.test(tText) || !inWindow(Number(tText))) return false; // 5) both sides of the window
  const body = signed.subarray(dot + 1);
  return body.length === payload.length && timingSafeEqual(body, payload); // 6) the bytes received
}

/** The verifier of ../node/server.mjs for the mode the settings give. */
export function cryptoVerifier(settings) {
  if (settings.jwksUrl) {
    const keyOf = jwksKeys(settings.jwksUrl);
    return {
      callback: (headers, rawBody) => verifyJws(headerOf(headers), rawBody, keyOf),
      facts: (requestTarget, headers) => verifyJws(headerOf(headers), Buffer.from(`GET ${requestTarget}`), keyOf),
    };
  }
  return {
    callback: async (headers, rawBody) => verifyHmac(headerOf(headers), rawBody, settings.secrets),
    facts: async (requestTarget, headers) =>
      verifyHmac(headerOf(headers), Buffer.from(`GET ${requestTarget}`), settings.secrets),
  };
}
