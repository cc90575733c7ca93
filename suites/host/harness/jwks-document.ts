/**
 * HOST-8 ("Cache it; refetch when kid is unknown", 5.2) judged on evidence no concurrent test can
 * produce or hide. Every test of a run signs against one JWKS document and, with
 * `ccs-conformance host`, one receiver: another test's unknown kid may make the receiver fetch the
 * document at any moment. So a rotation is judged on "a fetch journalled after the new key was
 * published, by whichever request, and the callback under the new kid accepted", never on "this
 * callback caused that fetch"; and caching on "a callback verified with no fetch at all between its
 * sending and its answer", which other tests' fetches can only make rarer, never fake.
 */
import type { HostHarness, ModeEndpoint } from './harness.ts';
import { isAck, type JwksFetch, type Payload, type SendOutcome } from '../../../judge/host/index.ts';
import { deliver } from './deliver.ts';

export interface Rotation {
  kid: string;
  /** Journal position when the key was published: fetches after it served a document holding it. */
  publishedSeq: number;
  outcome: SendOutcome;
  /** The first fetch of the document after the publication, journalled by the answer, if any. */
  fetch?: JwksFetch;
}

/**
 * Publishes a new key and sends one callback signed with it. `between` runs after the publication
 * and before the callback (a self test puts another test's traffic there). The fetch is looked for
 * once the answer is in: a verifier fetches before it answers (a 401 needs the key first).
 */
export async function rotate(
  h: HostHarness,
  ep: ModeEndpoint,
  payload: Payload,
  between?: () => Promise<unknown>,
): Promise<Rotation> {
  const key = await h.newKey();
  const publishedSeq = await h.service.addJwk(key.publicJwk);
  await between?.();
  // Genuine: the key is published in the document before the callback is signed with it (a rotation).
  const signer = { mode: 'jwks' as const, privateKey: key.privateKey, kid: key.kid };
  const outcome = await deliver(h, ep, payload, { signer, genuine: true });
  const fetch = await h.service.waitForJwksFetch(publishedSeq, 0);
  return { kid: key.kid, publishedSeq, outcome, ...(fetch === undefined ? {} : { fetch }) };
}

export interface CacheProbe {
  outcomes: SendOutcome[];
  /** How many of the callbacks had a fetch of the document (anyone's) between sending and answer. */
  withFetch: number;
  /** The first callback not acknowledged, which ends the probe. */
  refused?: SendOutcome;
}

/**
 * Sends callbacks under a known kid one at a time, at most `max`, and stops at the first whose
 * window (from its sending to its answer) holds no fetch of the document: that one was verified
 * from a cache. A receiver that fetches for every callback fills every window; a caching one gets
 * a fetch in a window only when another test's unknown kid lands there, so it is judged on
 * "fewer windows with a fetch than callbacks", never on an absolute count of fetches.
 */
export async function probeCache(
  h: HostHarness,
  ep: ModeEndpoint,
  payload: () => Payload,
  max: number,
): Promise<CacheProbe> {
  const outcomes: SendOutcome[] = [];
  let withFetch = 0;
  for (let i = 0; i < max; i++) {
    await h.service.sync();
    const before = h.service.jwksFetches.at(-1)?.seq ?? 0;
    const o = await deliver(h, ep, payload());
    outcomes.push(o);
    if (!isAck(o)) return { outcomes, withFetch, refused: o };
    if ((await h.service.waitForJwksFetch(before, 0)) === undefined) break;
    withFetch++;
  }
  return { outcomes, withFetch };
}
