/**
 * JWKS mode with jose (5.2): compactVerify (the payload "<t>." + body is not a JWT, so not
 * jwtVerify), ES256 only, and createRemoteJWKSet with the options the contract needs:
 *   cooldownDuration  jose refetches on an unknown kid only when its last fetch is older than this
 *                     (30 s by default): a key rotated seconds after a fetch would be refused
 *                     (HOST-8, "refetch when kid is unknown"). 0: every unknown kid may refetch;
 *                     jose shares one fetch among the requests that wait for it.
 *   cacheMaxAge       how long the document is trusted without a fetch (10 min by default): keep a
 *                     bound, so a removed key stops verifying.
 * jose does steps 1 to 3 (kid, its key, the signature); steps 4 to 6 are the contract's own.
 */
import { compactVerify, createRemoteJWKSet, decodeProtectedHeader } from 'jose';

const WINDOW_SECONDS = 300;

/** The options of createRemoteJWKSet; bare: jose's defaults, which fail HOST-8 (see node-jose.md). */
export function jwksOptions(bare) {
  return bare ? {} : { cooldownDuration: 0, cacheMaxAge: 10 * 60_000, timeoutDuration: 5_000 };
}

export async function verifyJws(header, payload, jwks) {
  if (typeof header !== 'string') return false;
  // Three parts of base64url (RFC 7515 2, 7.1): compactVerify takes a signature part padded with =.
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(header)) return false;
  let signed;
  try {
    // 1) read kid: a JWS without one is refused, whatever the document holds.
    if (typeof decodeProtectedHeader(header).kid !== 'string') return false;
    // 2) the key of that kid (refetched when unknown), 3) the ES256 signature, and no other alg.
    ({ payload: signed } = await compactVerify(header, jwks, { algorithms: ['ES256'] }));
  } catch {
    return false; // an unknown kid, a bad signature, a malformed JWS: all refused with 401
  }
  const bytes = Buffer.from(signed);
  const dot = bytes.indexOf(0x2e); // 4) split at the first dot
  const tText = bytes.subarray(0, Math.max(dot, 0)).toString('latin1');
  if (!/^\d{1,12}$/.test(tText)) return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(tText)) > WINDOW_SECONDS) return false; // 5) both sides
  const body = bytes.subarray(dot + 1);
  return body.equals(payload); // 6) the signed body is the received bytes
}

/** The verifier of ../node/server.mjs. */
export function joseVerifier(settings) {
  const jwks = createRemoteJWKSet(new URL(settings.jwksUrl), jwksOptions(settings.bare));
  const signature = (headers) => headers['x-service-signature'];
  return {
    callback: (headers, rawBody) => verifyJws(signature(headers), rawBody, jwks),
    facts: (requestTarget, headers) => verifyJws(signature(headers), Buffer.from(`GET ${requestTarget}`), jwks),
  };
}
