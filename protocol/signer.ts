/**
 * One entry point for the signing side (the service, or the harness playing the service towards
 * a host): the X-Service-Signature value for a payload in the workspace's one mode (SIGN-2).
 */
import type { CryptoKey, JWK, KeyObject } from 'jose';
import { factsSigningPayload } from './facts.ts';
import { signHmac } from './hmac.ts';
import { signJws } from './jws.ts';
import { unixNow } from './verdict.ts';

export type SignerConfig =
  | { mode: 'hmac'; secret: string | Uint8Array }
  | { mode: 'jwks'; privateKey: CryptoKey | KeyObject | JWK; kid: string }
  | { mode: 'none' };

/** The header value for a callback body, or undefined when signing is off (SIGN-1). t defaults to now (SIGN-4). */
export async function signatureFor(o: {
  config: SignerConfig;
  payload: Uint8Array | string;
  t?: number;
}): Promise<string | undefined> {
  const t = o.t ?? unixNow();
  if (o.config.mode === 'hmac') return signHmac({ secret: o.config.secret, t, payload: o.payload });
  if (o.config.mode === 'jwks')
    return signJws({ privateKey: o.config.privateKey, kid: o.config.kid, t, payload: o.payload });
  return undefined;
}

/** The header value for a user-facts GET (SIGN-6), or undefined when signing is off. */
export function factsSignatureFor(o: {
  config: SignerConfig;
  requestTarget: string;
  t?: number;
}): Promise<string | undefined> {
  return signatureFor({
    config: o.config,
    payload: factsSigningPayload(o.requestTarget),
    ...(o.t === undefined ? {} : { t: o.t }),
  });
}
