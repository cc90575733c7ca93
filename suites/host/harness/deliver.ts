/**
 * Sending what the service sends: a signed lifecycle callback (4.1, 5.2) or a signed user-facts
 * GET (4.1, SIGN-6), with knobs to break exactly one thing (the signed bytes, t, the header).
 */
import { factsSigningPayload, unixNow, ufDeliveryId, type SignerConfig } from '../../../protocol/index.ts';
import type { HostHarness, ModeEndpoint } from './harness.ts';
import { callbackHeaders, type Payload } from './payloads.ts';
import { send, type SendOutcome } from './send.ts';

export interface DeliverOptions {
  /** Raw bytes sent (default: JSON.stringify(payload)). */
  body?: string | Buffer;
  /** Bytes signed (default: the bytes sent). */
  signedBody?: string | Buffer;
  /** The signature's t (default: now). */
  t?: number;
  /** An explicit X-Service-Signature value; null omits the header. */
  signature?: string | null;
  signer?: SignerConfig;
  attempt?: number;
  timeoutMs?: number;
}

export async function deliver(h: HostHarness, ep: ModeEndpoint, payload: Payload, o: DeliverOptions = {}): Promise<SendOutcome> {
  const body = Buffer.from(o.body ?? JSON.stringify(payload));
  const headers = callbackHeaders(payload, o.attempt);
  const signature = o.signature === undefined ? await h.sign(ep, o.signedBody ?? body, o.t ?? unixNow(), o.signer) : o.signature;
  if (signature !== null && signature !== undefined) headers['x-service-signature'] = signature;
  return send({ method: 'POST', url: ep.hookUrl, headers, body, timeoutMs: o.timeoutMs ?? h.target.timeouts.requestMs });
}

export interface FactsOptions {
  endUserHandle: string;
  /** The request target signed (default: the one sent). */
  signedTarget?: string;
  t?: number;
  signature?: string | null;
  signer?: SignerConfig;
  timeoutMs?: number;
}

export async function fetchFacts(h: HostHarness, ep: ModeEndpoint, o: FactsOptions): Promise<SendOutcome> {
  const factsUrl = ep.factsUrl ?? '';
  const url = new URL(factsUrl);
  url.searchParams.set('endUserHandle', o.endUserHandle);
  // SIGN-6: the signed payload is "GET " + path and query exactly as on the wire.
  const requestTarget = url.pathname + url.search;
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-service-event': 'user.facts.fetch',
    'x-service-workspace': h.target.workspaceKey,
    'x-service-end-user': o.endUserHandle,
    'x-service-delivery-id': ufDeliveryId(h.target.workspaceId, o.endUserHandle),
  };
  const signature = o.signature === undefined ? await h.sign(ep, factsSigningPayload(o.signedTarget ?? requestTarget), o.t ?? unixNow(), o.signer) : o.signature;
  if (signature !== null && signature !== undefined) headers['x-service-signature'] = signature;
  return send({ method: 'GET', url: url.toString(), headers, timeoutMs: o.timeoutMs ?? h.target.timeouts.requestMs });
}
