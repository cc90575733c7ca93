/**
 * The one signature verifier: verify a lifecycle callback or a facts GET from the
 * raw body (or request target) and the headers, in the workspace's one mode (SIGN-2). Every other
 * verifier of this project (the mock host's included) asks verifySignature, so an input gets the
 * same verdict everywhere.
 */
import { ccsError, isCcsError } from '../spec/index.ts';
import { SIGNATURE_HEADER } from './constants.ts';
import { factsSigningPayload } from './facts.ts';
import { readHeader, type HeaderBag, type HeaderRead } from './headers.ts';
import { verifyHmac } from './hmac.ts';
import { verifyJws, type JwksSource } from './jws.ts';
import type { SignatureVerdict } from './verdict.ts';

export type VerifierConfig =
  { mode: 'hmac'; secrets: ReadonlyArray<string | Uint8Array> } | { mode: 'jwks'; keys: JwksSource } | { mode: 'none' };

const ABSENT_READ: HeaderRead = { kind: 'absent' };
const NONE_ABSENT: SignatureVerdict = Object.freeze({
  verdict: 'absent',
  mode: 'none',
  reason: 'no X-Service-Signature header; signing is off (no mode configured), nothing to verify (SIGN-1)',
});
const NONE_PRESENT: SignatureVerdict = Object.freeze({
  verdict: 'malformed',
  mode: 'none',
  reason:
    'X-Service-Signature is present although signing is off (no mode configured); with no mode configured the header is absent (SIGN-1)',
});

/** JWKS documents that cannot be had or read leave the kid without a key: a verdict, not a throw. */
function unobtainable(error: unknown): SignatureVerdict {
  if (isCcsError(error) && (error.code === 'PROTOCOL_JWKS_FETCH_FAILED' || error.code === 'PROTOCOL_JWKS_INVALID')) {
    return {
      verdict: 'unknown-kid',
      mode: 'jwks',
      reason: `could not obtain the JWKS to verify with: ${error.message}`,
    };
  }
  throw error;
}

/**
 * The verdict for one signature header as read (absent, one value, repeated) over the signed
 * payload: the raw body bytes, or for the facts GET the request line (SIGN-6). Synchronous in
 * HMAC mode and with signing off; a promise in JWKS mode (keys may have to be fetched).
 *
 * Reading (SIGN-1): 5.2 item 1 says that with no mode configured the header is absent, so a
 * header that is present then does not have the contract's form: 'malformed', never 'unknown-kid'
 * (which says a kid was read and no key has it).
 */
export function verifySignature(o: {
  header: HeaderRead;
  payload: Uint8Array | string;
  config: VerifierConfig;
  now?: number;
}): SignatureVerdict | Promise<SignatureVerdict> {
  const { config } = o;
  const mode = config?.mode;
  if (mode !== 'hmac' && mode !== 'jwks' && mode !== 'none') {
    throw ccsError('PROTOCOL_VERIFIER_CONFIG_INVALID', { mode: JSON.stringify(mode) });
  }
  const read = o.header ?? ABSENT_READ;
  if (read.kind === 'many') {
    return {
      verdict: 'malformed',
      mode,
      reason: `X-Service-Signature appears ${read.count} times; expected one header`,
    };
  }
  const header = read.kind === 'one' ? read.value : undefined;
  if (config.mode === 'none') return header === undefined ? { ...NONE_ABSENT } : { ...NONE_PRESENT };
  if (config.mode === 'hmac')
    // now given as it came (verifyHmac reads an undefined now as absent): a spread per request costs more
    return verifyHmac({ header, payload: o.payload, secrets: config.secrets, now: o.now });
  return verifyJws({
    header,
    payload: o.payload,
    keys: config.keys,
    ...(o.now === undefined ? {} : { now: o.now }),
  }).catch(unobtainable);
}

async function verifyPayload(
  headers: HeaderBag,
  payload: Uint8Array | string,
  config: VerifierConfig,
  now: number | undefined,
): Promise<SignatureVerdict> {
  return verifySignature({
    header: readHeader(headers, SIGNATURE_HEADER),
    payload,
    config,
    ...(now === undefined ? {} : { now }),
  });
}

/** Verifies a lifecycle callback over its raw body bytes (HOST-4: never a re-serialized body). */
export async function verifyCallback(o: {
  headers: HeaderBag;
  rawBody: Uint8Array;
  config: VerifierConfig;
  now?: number;
}): Promise<SignatureVerdict> {
  if (!(o.rawBody instanceof Uint8Array)) {
    throw ccsError('PROTOCOL_RAW_BODY_REQUIRED');
  }
  return verifyPayload(o.headers, o.rawBody, o.config, o.now);
}

/** Verifies a user-facts GET: the signed payload is "GET " + the request target (SIGN-6). */
export async function verifyFactsRequest(o: {
  requestTarget: string;
  headers: HeaderBag;
  config: VerifierConfig;
  now?: number;
}): Promise<SignatureVerdict> {
  return verifyPayload(o.headers, factsSigningPayload(o.requestTarget), o.config, o.now);
}
