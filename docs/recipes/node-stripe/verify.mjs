/**
 * HMAC mode with stripe-node's webhook verifier: its scheme (t=<unix seconds>,v1=<hex> over
 * "<t>." + the payload, 300 s tolerance) is the contract's HMAC mode under another header name.
 * What the contract asks beyond it:
 *   - the future side of the window: signature.verifyHeader rejects only a t older than the
 *     tolerance; the contract rejects abs(now - t) > 300 (HOST-6, HOST-18);
 *   - the facts GET: it has no body, the payload is "GET " + the request target (5.2 item 6).
 *     constructEvent parses the payload as JSON, so it refuses every facts GET; verifyHeader
 *     checks the bytes only;
 *   - rotation: verifyHeader takes one secret, so try the previous one too (HOST-9);
 *   - any throw is a refusal: an empty v1 makes verifyHeader throw a plain Error, not a
 *     StripeSignatureVerificationError (answer 401, never 500: HOST-3).
 */
import Stripe from 'stripe';

const WINDOW_SECONDS = 300;
const { signature } = Stripe.webhooks;

export function verifyHmac(header, payload, secrets, bare = false) {
  if (typeof header !== 'string') return false;
  const valid = secrets.some((secret) => {
    try {
      return signature.verifyHeader(payload, header, secret, WINDOW_SECONDS);
    } catch {
      return false;
    }
  });
  if (!valid || bare) return valid;
  // The side stripe-node does not check: t more than 300 s in the future.
  const t = Number(/(?:^|,)t=(\d+)(?:,|$)/.exec(header)?.[1]);
  return Number.isSafeInteger(t) && t - Math.floor(Date.now() / 1000) <= WINDOW_SECONDS;
}

/** The verifier of ../node/server.mjs; bare: stripe-node alone, which fails HOST-6 (see node-stripe.md). */
export function stripeVerifier(settings) {
  const signatureOf = (headers) => headers['x-service-signature'];
  return {
    // The raw body bytes, never a parsed and re-serialized object (HOST-4).
    callback: async (headers, rawBody) => verifyHmac(signatureOf(headers), rawBody, settings.secrets, settings.bare),
    facts: async (requestTarget, headers) =>
      verifyHmac(signatureOf(headers), `GET ${requestTarget}`, settings.secrets, settings.bare),
  };
}
