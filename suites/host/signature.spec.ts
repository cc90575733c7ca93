/**
 * HOST-8, HOST-9, HOST-24: what a correct verifier must accept (raw bytes whatever their
 * whitespace, the previous HMAC secret, a rotated JWKS key) and the JWKS rotation. The bad
 * signatures are tried on every kind of signed request in every-signed-request.spec.ts. onStart
 * is used here: it carries no keys, so no data API reads follow.
 */
import { test, expect, modeEndpoint } from './fixtures.ts';
import type { HostHarness, Mode, ModeEndpoint } from './harness/harness.ts';
import { deliver, type DeliverOptions } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload, oddlySpaced, type Payload } from './harness/payloads.ts';
import { describe, isAck, type SendOutcome } from './harness/send.ts';

test.describe.configure({ mode: 'parallel' });

function onStart(h: HostHarness, ep: ModeEndpoint): Payload {
  return lifecyclePayload('onStart', { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath });
}

async function expect401(h: HostHarness, ep: ModeEndpoint, testInfo: Parameters<Parameters<typeof test>[2]>[1], sentence: string, build: (p: Payload) => Promise<DeliverOptions> | DeliverOptions): Promise<void> {
  const p = onStart(h, ep);
  const o: SendOutcome = await deliver(h, ep, p, await build(p));
  await attachEvidence(testInfo, sentence, [o]);
  expect(o.status, `${sentence}: ${describe(o)}`).toBe(401);
}

async function expectAck(h: HostHarness, ep: ModeEndpoint, testInfo: Parameters<Parameters<typeof test>[2]>[1], sentence: string, o: DeliverOptions, p = onStart(h, ep)): Promise<void> {
  const out = await deliver(h, ep, p, o);
  await attachEvidence(testInfo, sentence, [out]);
  expect(isAck(out), `${sentence}: ${describe(out)}`).toBe(true);
}

const MODES: readonly Mode[] = ['hmac', 'jwks'];

for (const mode of MODES) {
  test.describe(`${mode} mode`, () => {
    test.beforeEach(() => test.setTimeout(40_000));

    test(`${mode}: a correctly signed body with unusual whitespace is acknowledged (HOST-4, HOST-24)`, { tag: ['@HOST-4', '@HOST-24'] }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      const p = onStart(host, ep);
      await expectAck(host, ep, testInfo, 'the raw bytes are what is signed, whatever their whitespace', { body: oddlySpaced(p) }, p);
    });
  });
}

test.describe('hmac rotation', () => {
  test('hmac: a callback signed with the previous secret is acknowledged during the overlap (HOST-9)', { tag: ['@HOST-9'] }, async ({ host }, testInfo) => {
    test.setTimeout(30_000);
    const ep = modeEndpoint(host, 'hmac');
    test.skip(ep.previousSecret === undefined, 'capability previous secret not offered by the target (signing.previousSecret not set)');
    await expectAck(host, ep, testInfo, 'either secret is accepted during a rotation', { signer: { mode: 'hmac', secret: ep.previousSecret ?? '' } });
  });
});

test.describe('jwks rotation', () => {
  // Serial: each test adds keys to the one JWKS document of this worker.
  test.describe.configure({ mode: 'serial' });

  test('jwks: a new kid makes the host refetch the JWKS document and accept the callback (HOST-8)', { tag: ['@HOST-8'] }, async ({ host }, testInfo) => {
    test.setTimeout(40_000);
    const ep = modeEndpoint(host, 'jwks');
    // Warm up: the host must have cached the document before the rotation for a refetch to mean anything.
    const warm = await deliver(host, ep, onStart(host, ep));
    expect(isAck(warm), `warm-up with the current key: ${describe(warm)}`).toBe(true);
    const rotated = await host.newKey();
    host.service.addJwk(rotated.publicJwk);
    const before = host.service.jwksFetches.at(-1)?.seq ?? 0;
    const out = await deliver(host, ep, onStart(host, ep), { signer: { mode: 'jwks', privateKey: rotated.privateKey, kid: rotated.kid } });
    const fetched = await host.service.waitForJwksFetch(before, 0);
    await attachEvidence(testInfo, 'a kid the host has not seen makes it refetch the JWKS document (a rotation)', [warm, out], [{ jwksFetchesAfterRotation: fetched ? 1 : 0 }]);
    expect(isAck(out), `callback signed with the rotated key: ${describe(out)}`).toBe(true);
    expect(fetched, 'no JWKS fetch was seen on the harness JWKS server after the rotation').toBeDefined();
  });

  test('jwks: a kid absent from the refetched JWKS document is answered 401 (HOST-3, HOST-8)', { tag: ['@HOST-3', '@HOST-8'] }, async ({ host }, testInfo) => {
    test.setTimeout(40_000);
    const ep = modeEndpoint(host, 'jwks');
    const stranger = await host.newKey();
    await expect401(host, ep, testInfo, 'a key not in the JWKS document must be refused', () => ({ signer: { mode: 'jwks', privateKey: stranger.privateKey, kid: stranger.kid } }));
  });
});
