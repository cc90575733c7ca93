/**
 * HOST-8, HOST-9: what a correct verifier must accept during a rotation (the previous HMAC
 * secret, a rotated JWKS key). The bad signatures are tried on every kind of signed request in
 * every-signed-request.spec.ts, whitespace in generated-payloads.spec.ts. onStart is used here:
 * it carries no keys, so no data API reads follow.
 */
import { test, expect, modeEndpoint } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver, type DeliverOptions } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload, type Payload } from './harness/payloads.ts';
import { describe, isAck } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe.configure({ mode: 'parallel' });

function onStart(h: HostHarness, ep: ModeEndpoint): Payload {
  return lifecyclePayload('onStart', { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath });
}

async function expectAck(h: HostHarness, ep: ModeEndpoint, testInfo: Parameters<Parameters<typeof test>[2]>[1], sentence: string, o: DeliverOptions, p = onStart(h, ep)): Promise<void> {
  const out = await deliver(h, ep, p, o);
  await attachEvidence(testInfo, sentence, [out]);
  expect(isAck(out), `${sentence}: ${describe(out)}`).toBe(true);
}

test.describe('hmac rotation', () => {
  test('hmac: a callback signed with the previous secret is acknowledged during the overlap (HOST-9)', { tag: clauseTags('HOST-9') }, async ({ host }, testInfo) => {
    test.setTimeout(30_000);
    const ep = modeEndpoint(host, 'hmac');
    test.skip(ep.previousSecret === undefined, 'capability previous secret not offered by the target (signing.previousSecret not set)');
    await expectAck(host, ep, testInfo, 'either secret is accepted during a rotation', { signer: { mode: 'hmac', secret: ep.previousSecret ?? '' } });
  });
});

test.describe('jwks rotation', () => {
  test('jwks: a new kid makes the host refetch the JWKS document and accept the callback (HOST-8)', { tag: clauseTags('HOST-8') }, async ({ host }, testInfo) => {
    test.setTimeout(40_000);
    const ep = modeEndpoint(host, 'jwks');
    // Warm up: the host must have cached the document before the rotation for a refetch to mean anything.
    const warm = await deliver(host, ep, onStart(host, ep));
    expect(isAck(warm), `warm-up with the current key: ${describe(warm)}`).toBe(true);
    const rotated = await host.newKey();
    await host.service.addJwk(rotated.publicJwk);
    const before = host.service.jwksFetches.at(-1)?.seq ?? 0;
    const out = await deliver(host, ep, onStart(host, ep), { signer: { mode: 'jwks', privateKey: rotated.privateKey, kid: rotated.kid } });
    const fetched = await host.service.waitForJwksFetch(before, 0);
    await attachEvidence(testInfo, 'a kid the host has not seen makes it refetch the JWKS document (a rotation)', [warm, out], [{ jwksFetchesAfterRotation: fetched ? 1 : 0 }]);
    expect(isAck(out), `callback signed with the rotated key: ${describe(out)}`).toBe(true);
    expect(fetched, 'no JWKS fetch was seen on the harness JWKS server after the rotation').toBeDefined();
  });
});
