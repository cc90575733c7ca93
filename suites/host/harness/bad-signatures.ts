/**
 * The bad signatures of HOST-25 / HOST-18, for one kind of signed request in one signing mode.
 * Each case breaks exactly one thing of an otherwise correct request (PITFALLS: a refusal proves
 * nothing if two things are wrong) and names the clause it proves.
 */
import { unixNow } from '../../../protocol/index.ts';
import type { HostHarness, ModeEndpoint } from './harness.ts';
import type { DeliverOptions, FactsOptions } from './deliver.ts';
import { oddlySpaced } from './payloads.ts';
import type { Payload } from '../../../judge/host/index.ts';
import { WRONG_SECRET, oneByteChanged } from './signature-case-kit.ts';

export { oneByteChanged };

export interface BadCase<O> {
  /** What is wrong, in words, for the assertion message. */
  name: string;
  /** The clause this case proves, beyond HOST-3 (a 401) and HOST-25 / HOST-18 (every request). */
  clause: string;
  options: O;
}

/**
 * HOST-6: a t that stays more than 300 s ahead of the receiver's whole-second now (HOST-5 reading:
 * floor) even when the request lands in the next second: floor(now) + 302 is 301 s and a fraction
 * ahead of the real now.
 */
export function farFuture(): number {
  return unixNow() + 302;
}

function malformed(ep: ModeEndpoint): string[] {
  const now = unixNow();
  return ep.mode === 'hmac'
    ? [`t=${now}`, `t=abc,v1=${'0'.repeat(64)}`, `v1=${'a'.repeat(64)}`, 'garbage']
    : ['not-a-jws', 'a.b', 'e30.e30.e30', '...'];
}

/** The per-mode clause of a refused header or key: HMAC's HOST-10, JWKS's HOST-7. */
export function headerClause(ep: ModeEndpoint): string {
  return ep.mode === 'hmac' ? 'HOST-10' : 'HOST-7';
}

async function wrongSigner(h: HostHarness, ep: ModeEndpoint): Promise<DeliverOptions['signer']> {
  if (ep.mode === 'hmac') return { mode: 'hmac', secret: WRONG_SECRET };
  // Same kid as the served key, another private key: the signature check itself must fail.
  const wrong = await h.newKey();
  return { mode: 'jwks', privateKey: wrong.privateKey, kid: ep.key?.kid ?? '' };
}

export interface BadCallback extends BadCase<DeliverOptions> {
  payload: Payload;
}

/**
 * Each case on its own fresh payload: a receiver that wrongly accepts one case must not dedupe
 * (and so hide) the next.
 */
export async function badCallbackCases(h: HostHarness, ep: ModeEndpoint, fresh: () => Payload): Promise<BadCallback[]> {
  const hc = headerClause(ep);
  const on = (name: string, clause: string, options: (p: Payload) => DeliverOptions): BadCallback => {
    const payload = fresh();
    return { name, clause, payload, options: options(payload) };
  };
  const wrong = await wrongSigner(h, ep);
  const cases: BadCallback[] = [
    on(`signed with the wrong ${ep.mode === 'hmac' ? 'secret' : 'key'}`, hc, () => ({ signer: wrong })),
    on('one byte of the body changed after signing', ep.mode === 'hmac' ? 'HOST-4' : 'HOST-7', (p) => {
      const signed = JSON.stringify(p);
      return { signedBody: signed, body: oneByteChanged(signed) };
    }),
    on('the body re-serialized after signing', 'HOST-4', (p) => ({
      signedBody: oddlySpaced(p),
      body: JSON.stringify(p),
    })),
    on('no X-Service-Signature header', hc, () => ({ signature: null })),
    ...malformed(ep).map((bad) =>
      on(`malformed X-Service-Signature ${JSON.stringify(bad)}`, hc, () => ({ signature: bad })),
    ),
    on('t at now - 301 s', 'HOST-5', () => ({ t: unixNow() - 301 })),
    on('t at now + 301 s', 'HOST-6', () => ({ t: farFuture() })),
  ];
  if (ep.mode === 'jwks') {
    const stranger = await h.newKey();
    cases.push(
      on('a kid absent from the JWKS document', 'HOST-8', () => ({
        signer: { mode: 'jwks', privateKey: stranger.privateKey, kid: stranger.kid },
      })),
    );
  }
  return cases;
}

/** The same cases on the facts GET, whose signed payload is the request line (5.2 item 6). */
export async function badFactsCases(
  h: HostHarness,
  ep: ModeEndpoint,
  endUserHandle: string,
): Promise<Array<BadCase<FactsOptions>>> {
  const hc = headerClause(ep);
  const other = `${endUserHandle}x`;
  const cases: Array<BadCase<FactsOptions>> = [
    {
      name: `signed with the wrong ${ep.mode === 'hmac' ? 'secret' : 'key'}`,
      clause: hc,
      options: { endUserHandle, signer: await wrongSigner(h, ep) },
    },
    // One byte of the request line changed after signing: signed for another handle.
    {
      name: 'a request line other than the one signed',
      clause: hc,
      options: {
        endUserHandle,
        signedTarget: `${new URL(ep.factsUrl ?? 'http://x/').pathname}?endUserHandle=${encodeURIComponent(other)}`,
      },
    },
    { name: 'no X-Service-Signature header', clause: hc, options: { endUserHandle, signature: null } },
    ...malformed(ep).map((bad) => ({
      name: `malformed X-Service-Signature ${JSON.stringify(bad)}`,
      clause: hc,
      options: { endUserHandle, signature: bad },
    })),
    { name: 't at now - 301 s', clause: 'HOST-5', options: { endUserHandle, t: unixNow() - 301 } },
    { name: 't at now + 301 s', clause: 'HOST-6', options: { endUserHandle, t: farFuture() } },
  ];
  if (ep.mode === 'jwks') {
    const stranger = await h.newKey();
    cases.push({
      name: 'a kid absent from the JWKS document',
      clause: 'HOST-8',
      options: { endUserHandle, signer: { mode: 'jwks', privateKey: stranger.privateKey, kid: stranger.kid } },
    });
  }
  return cases;
}
