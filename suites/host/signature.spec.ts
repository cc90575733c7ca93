/**
 * HOST-8, HOST-9: what a correct verifier must accept during a rotation (the previous HMAC
 * secret, a rotated JWKS key) and how it keeps the JWKS document (cached, refetched when a kid is
 * unknown), watched on the harness's own JWKS server. The bad signatures are tried on every kind
 * of signed request in every-signed-request.spec.ts, whitespace in generated-payloads.spec.ts.
 * onStart is used here: it carries no keys, so no data API reads follow.
 */
import { test, modeEndpoint } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver, type DeliverOptions } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { judgeAcks } from './harness/ack.ts';
import { freshConversationId, freshHandle, lifecyclePayload, type Payload } from './harness/payloads.ts';
import { describe, isAck, type SendOutcome } from './harness/send.ts';
import { check, precondition } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

/**
 * HOST-8 reading of "Cache it": callbacks signed with a key the document already holds, sent one
 * after another, do not each cost a fetch of the document.
 */
const CACHE_BURST = 8;

function onStart(h: HostHarness, ep: ModeEndpoint): Payload {
  return lifecyclePayload('onStart', { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath });
}

async function warmUp(h: HostHarness, ep: ModeEndpoint): Promise<SendOutcome> {
  const warm = await deliver(h, ep, onStart(h, ep));
  precondition(isAck(warm), 'a callback signed with the current key is acknowledged first (HOST-1), so the document is cached', { expected: 'a 2xx', seen: describe(warm) });
  return warm;
}

test.describe('hmac rotation', () => {
  test('hmac: a callback signed with the previous secret is acknowledged during the overlap (HOST-9, HOST-1, HOST-2)', {
    tag: clauseTags('HOST-9', 'HOST-1', 'HOST-2'),
  }, async ({ host }, testInfo) => {
    test.setTimeout(30_000);
    const ep = modeEndpoint(host, 'hmac');
    test.skip(ep.previousSecret === undefined, 'capability previous secret not offered by the target (signing.previousSecret not set)');
    const o: DeliverOptions = { signer: { mode: 'hmac', secret: ep.previousSecret ?? '' } };
    const out = await deliver(host, ep, onStart(host, ep), o);
    await attachEvidence(testInfo, 'either secret is accepted during a rotation', [out]);
    // No answer (or a 404) is HOST-1's, never a refusal of the previous secret (harness/ack.ts).
    judgeAcks([{ mode: 'hmac', kind: 'onStart signed with the previous secret', o: out }], {
      deadlineMs: host.target.timeouts.requestMs, twoXx: {
        clause: 'HOST-9', id: 'hmac.previous-secret-accepted', ownsRefusal: true,
        rule: 'a callback signed with the previous secret is acknowledged during the overlap',
      },
    });
  });
});

test.describe('jwks', () => {
  test('jwks: a new kid makes the host refetch the JWKS document and accept the callback (HOST-8)', { tag: clauseTags('HOST-8') }, async ({ host }, testInfo) => {
    test.setTimeout(40_000);
    const ep = modeEndpoint(host, 'jwks');
    // Warm up: the host must have cached the document before the rotation for a refetch to mean anything.
    const warm = await warmUp(host, ep);
    const rotated = await host.newKey();
    await host.service.addJwk(rotated.publicJwk);
    await host.service.sync();
    const before = host.service.jwksFetches.at(-1)?.seq ?? 0;
    const out = await deliver(host, ep, onStart(host, ep), { signer: { mode: 'jwks', privateKey: rotated.privateKey, kid: rotated.kid } });
    const fetched = await host.service.waitForJwksFetch(before, 0);
    await attachEvidence(testInfo, 'a kid the host has not seen makes it refetch the JWKS document (a rotation)', [warm, out], [{ jwksFetchesAfterRotation: fetched ? 1 : 0 }]);
    check.soft('HOST-8', 'a callback signed with a rotated key (a kid the cached document lacks) is acknowledged seconds after the last fetch', { id: 'jwks.refetch-on-new-kid' })
      .that(isAck(out), { expected: 'a 2xx after a refetch of the JWKS document', seen: describe(out) });
    check.soft('HOST-8', 'the unknown kid made the host fetch the JWKS document again', { id: 'jwks.refetch-on-new-kid' })
      .that(fetched !== undefined, { expected: 'a fetch of the JWKS document after the rotation', seen: 'no fetch' });
  });

  test(`jwks: the JWKS document is cached, not fetched for every callback (HOST-8)`, { tag: clauseTags('HOST-8') }, async ({ host }, testInfo) => {
    test.setTimeout(60_000);
    const ep = modeEndpoint(host, 'jwks');
    await warmUp(host, ep);
    // One at a time: a fetch journalled between a callback's sending and its answer was made for it.
    // Other tests' unknown kids may cause a fetch now and then; only a fetch for every callback fails.
    const outcomes: SendOutcome[] = [];
    let fetchedFor = 0;
    for (let i = 0; i < CACHE_BURST; i++) {
      await host.service.sync();
      const before = host.service.jwksFetches.at(-1)?.seq ?? 0;
      const o = await deliver(host, ep, onStart(host, ep));
      outcomes.push(o);
      precondition(isAck(o), `a callback signed with a key the document holds is acknowledged (HOST-1)`, { expected: 'a 2xx', seen: describe(o) });
      if ((await host.service.waitForJwksFetch(before, 0)) !== undefined) fetchedFor++;
    }
    await attachEvidence(testInfo, `${CACHE_BURST} callbacks signed with a known kid, one after another: the document is fetched for ${fetchedFor} of them`, outcomes);
    check('HOST-8', `the JWKS document is cached: ${CACHE_BURST} callbacks under a known kid do not each fetch it`, { id: 'jwks.cached' })
      .that(fetchedFor < CACHE_BURST, { expected: `fewer than ${CACHE_BURST} fetches`, seen: `a fetch during each of the ${CACHE_BURST} callbacks` });
  });
});
