/**
 * The host-team verifier: verify a lifecycle callback or a facts GET from the raw
 * body (or request target) and the headers, in the workspace's one mode (SIGN-2).
 */
import { CcsError } from '../spec/index.ts';
import { SIGNATURE_HEADER } from './constants.ts';
import { factsSigningPayload } from './facts.ts';
import { readHeader, type HeaderBag } from './headers.ts';
import { verifyHmac } from './hmac.ts';
import { verifyJws, type JwksSource } from './jws.ts';
import type { SignatureVerdict } from './verdict.ts';

export type VerifierConfig =
  | { mode: 'hmac'; secrets: ReadonlyArray<string | Uint8Array> }
  | { mode: 'jwks'; keys: JwksSource }
  | { mode: 'none' };

async function verifyPayload(headers: HeaderBag, payload: Uint8Array | string, config: VerifierConfig, now: number | undefined): Promise<SignatureVerdict> {
  const read = readHeader(headers, SIGNATURE_HEADER);
  const mode = config?.mode;
  if (mode !== 'hmac' && mode !== 'jwks' && mode !== 'none') {
    throw new CcsError('PROTOCOL_VERIFIER_CONFIG_INVALID', `config.mode must be 'hmac', 'jwks' or 'none', got ${JSON.stringify(mode)}`);
  }
  if (read.kind === 'many') {
    return { verdict: 'malformed', mode, reason: `X-Service-Signature appears ${read.count} times; expected one header` };
  }
  const header = read.kind === 'one' ? read.value : undefined;
  if (config.mode === 'none') {
    // SIGN-1: with no signing mode configured the header is absent.
    return header === undefined
      ? { verdict: 'absent', mode: 'none', reason: 'no X-Service-Signature header; signing is off for this workspace' }
      : { verdict: 'malformed', mode: 'none', reason: 'X-Service-Signature is present although signing is off for this workspace (SIGN-1)' };
  }
  if (config.mode === 'hmac') return verifyHmac({ header, payload, secrets: config.secrets, ...(now === undefined ? {} : { now }) });
  return verifyJws({ header, payload, keys: config.keys, ...(now === undefined ? {} : { now }) });
}

/** Verifies a lifecycle callback over its raw body bytes (HOST-4: never a re-serialized body). */
export async function verifyCallback(o: { headers: HeaderBag; rawBody: Uint8Array; config: VerifierConfig; now?: number }): Promise<SignatureVerdict> {
  if (!(o.rawBody instanceof Uint8Array)) {
    throw new CcsError('PROTOCOL_RAW_BODY_REQUIRED', 'verifyCallback needs rawBody as the raw body bytes (a Buffer or Uint8Array), never parsed JSON (HOST-4)');
  }
  return verifyPayload(o.headers, o.rawBody, o.config, o.now);
}

/** Verifies a user-facts GET: the signed payload is "GET " + the request target (SIGN-6). */
export async function verifyFactsRequest(o: { requestTarget: string; headers: HeaderBag; config: VerifierConfig; now?: number }): Promise<SignatureVerdict> {
  return verifyPayload(o.headers, factsSigningPayload(o.requestTarget), o.config, o.now);
}
