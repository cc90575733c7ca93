/**
 * Sending what the service sends: a signed lifecycle callback (4.1, 5.2) or a signed user-facts
 * GET (4.1, SIGN-6), with knobs to break exactly one thing (the signed bytes, t, the header). Every
 * request goes into the judge's ledger (judge/host/ledger.ts) with its answer, whichever test sends it:
 * the judge derives from it what must follow (judge/host/duties.ts).
 */
import { CONTRACT, factsSigningPayload, unixNow, ufDeliveryId, type SignerConfig } from '../../../protocol/index.ts';
import type { HostHarness, ModeEndpoint } from './harness.ts';
import type { Expectation, Payload, SendOutcome } from '../../../judge/host/index.ts';
import { callbackHeaders } from './payloads.ts';
import { send } from './send.ts';
import type { Keyring, SignatureCase } from './signature-cases.ts';
import { callbackJson, wireFor, type WireForm } from './wire/form.ts';

/** What the judge is told of a request: whether a correct verifier accepts it, and what must follow. */
export interface Judged {
  /**
   * Signed as the service signs, t inside the window. Default: true unless the signature, the bytes signed or
   * the signer were changed, or t is outside the window; a test that changes them and still sends a genuine
   * request (a rotated key, the previous secret, a window edge) says so.
   */
  genuine?: boolean;
  expect?: Expectation;
}

/** Whether a request with these knobs is one a correct verifier accepts (Judged.genuine). */
function genuineOf(
  o: { signature?: unknown; signer?: unknown; t?: number; genuine?: boolean },
  signed = true,
): boolean {
  if (o.genuine !== undefined) return o.genuine;
  const inWindow = o.t === undefined || Math.abs(unixNow() - o.t) < CONTRACT.replayWindowSeconds - 1;
  return signed && o.signature === undefined && o.signer === undefined && inWindow;
}

export interface DeliverOptions extends Judged {
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
  /** The wire form (HOST-27): parts given are kept, the rest drawn from the run's seed. */
  wire?: Partial<WireForm>;
}

export async function deliver(
  h: HostHarness,
  ep: ModeEndpoint,
  payload: Payload,
  o: DeliverOptions = {},
): Promise<SendOutcome> {
  // HOST-27: the members in a drawn order unless the test gives the bytes (RFC 8259 4: unordered).
  const body = Buffer.from(o.body ?? callbackJson(payload).text);
  const headers = callbackHeaders(payload, o.attempt);
  const signature =
    o.signature === undefined ? await h.sign(ep, o.signedBody ?? body, o.t ?? unixNow(), o.signer) : o.signature;
  if (signature !== null && signature !== undefined) headers['x-service-signature'] = signature;
  const at = await h.observer.ledger.serve(payload);
  const sentAtMs = performance.now();
  const outcome = await send({
    method: 'POST',
    url: ep.hookUrl,
    headers,
    body,
    timeoutMs: o.timeoutMs ?? h.target.timeouts.requestMs,
    wire: wireFor(headers, payload.event, o.wire),
  });
  h.observer.ledger.add({
    kind: 'callback',
    mode: ep.mode,
    genuine: genuineOf(o, o.signedBody === undefined),
    outcome,
    at,
    sentAtMs,
    endUserHandle: String(payload.endUserHandle),
    payload,
    body,
    attempt: o.attempt ?? 1,
    ...(o.expect ? { expect: o.expect } : {}),
  });
  return outcome;
}

export interface FactsOptions extends Judged {
  endUserHandle: string;
  /** The request target signed (default: the one sent). */
  signedTarget?: string;
  t?: number;
  signature?: string | null;
  signer?: SignerConfig;
  timeoutMs?: number;
  /** How the query value is percent-encoded (default: a form encoder's); the contract names none. */
  encode?: (value: string) => string;
  /** The wire form of the GET's header section (HOST-27); the rest drawn from the run's seed. */
  wire?: Partial<WireForm>;
}

/** The facts GET's URL for a user, and its request target (path and query as on the wire, SIGN-6). */
export function factsUrlFor(
  ep: ModeEndpoint,
  endUserHandle: string,
  encode?: (value: string) => string,
): { url: URL; requestTarget: string } {
  const url = new URL(ep.factsUrl ?? '');
  if (encode === undefined) url.searchParams.set('endUserHandle', endUserHandle);
  // The URL parser may escape further (a ' as %27): the request target is read back as it goes on the wire.
  else url.search = `?endUserHandle=${encode(endUserHandle)}`;
  return { url, requestTarget: url.pathname + url.search };
}

export async function fetchFacts(h: HostHarness, ep: ModeEndpoint, o: FactsOptions): Promise<SendOutcome> {
  // SIGN-6: the signed payload is "GET " + path and query exactly as on the wire.
  const { url, requestTarget } = factsUrlFor(ep, o.endUserHandle, o.encode);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-service-event': 'user.facts.fetch',
    'x-service-workspace': h.target.workspaceKey,
    'x-service-end-user': o.endUserHandle,
    'x-service-delivery-id': ufDeliveryId(h.target.workspaceId, o.endUserHandle),
  };
  const signature =
    o.signature === undefined
      ? await h.sign(ep, factsSigningPayload(o.signedTarget ?? requestTarget), o.t ?? unixNow(), o.signer)
      : o.signature;
  if (signature !== null && signature !== undefined) headers['x-service-signature'] = signature;
  const at = h.observer.ledger.localSeq();
  const sentAtMs = performance.now();
  const timeoutMs = o.timeoutMs ?? h.target.timeouts.requestMs;
  const wire = wireFor(headers, 'user.facts.fetch', o.wire);
  const outcome = await send({ method: 'GET', url: url.toString(), headers, timeoutMs, wire });
  const genuine = genuineOf(o, o.signedTarget === undefined);
  h.observer.ledger.add({
    kind: 'facts',
    mode: ep.mode,
    genuine,
    outcome,
    at,
    sentAtMs,
    endUserHandle: o.endUserHandle,
  });
  return outcome;
}

/** What an endpoint's signature cases sign with (signature-cases.ts). */
export function keyringOf(ep: ModeEndpoint): Keyring {
  return ep.mode === 'hmac'
    ? { ...(ep.secret !== undefined ? { secret: ep.secret } : {}) }
    : {
        ...(ep.key ? { key: ep.key } : {}),
        ...(ep.decoy ? { decoy: ep.decoy } : {}),
        ...(ep.stranger ? { stranger: ep.stranger } : {}),
      };
}

/** A callback of one signature case: the payload signed and sent as the case says, t from `now`. */
export async function deliverCase(
  h: HostHarness,
  ep: ModeEndpoint,
  payload: Payload,
  c: SignatureCase,
  now = unixNow(),
): Promise<SendOutcome> {
  const body = Buffer.from(JSON.stringify(payload));
  const t = c.t ? c.t(now) : now;
  const r = await c.build({ payload: body, t }, keyringOf(ep));
  return deliver(h, ep, payload, { body: r.body ?? body, signature: r.signature, genuine: c.accepted });
}

/** A facts GET of one signature case (the request line in place of a body, 5.2 item 6). */
export async function fetchFactsCase(
  h: HostHarness,
  ep: ModeEndpoint,
  endUserHandle: string,
  c: SignatureCase,
  now = unixNow(),
): Promise<SendOutcome> {
  const { requestTarget } = factsUrlFor(ep, endUserHandle);
  const t = c.t ? c.t(now) : now;
  const r = await c.build(
    { payload: Buffer.from(factsSigningPayload(requestTarget)), requestTarget, t },
    keyringOf(ep),
  );
  return fetchFacts(h, ep, { endUserHandle, signature: r.signature, genuine: c.accepted });
}
