/**
 * HOST-3..10, HOST-24: signature verification in both modes. Each refusal case breaks exactly
 * one thing of an otherwise correct callback and requires the contract's answer, 401 (HOST-3,
 * section 7 "a host that fails signature verification answers 401"). onStart is used throughout:
 * it carries no keys, so no data API reads follow.
 */
import { unixNow } from '../../protocol/index.ts';
import { test, expect, modeEndpoint } from './fixtures.ts';
import type { HostHarness, Mode, ModeEndpoint } from './harness/harness.ts';
import { deliver, type DeliverOptions } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload, oddlySpaced, type Payload } from './harness/payloads.ts';
import { describe, isAck, type SendOutcome } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe.configure({ mode: 'parallel' });

function onStart(h: HostHarness, ep: ModeEndpoint): Payload {
  return lifecyclePayload('onStart', { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath });
}

/** One byte of the body changed after signing: a field value, so the JSON stays valid. */
function oneByteChanged(body: string): string {
  const i = body.indexOf('"u-') + 2;
  return body.slice(0, i) + (body[i] === 'v' ? 'w' : 'v') + body.slice(i + 1);
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
  // The clause of a refused header differs by mode: HOST-10 is HMAC's, HOST-7 JWKS's.
  const headerClause = mode === 'hmac' ? 'HOST-10' : 'HOST-7';
  test.describe(`${mode} mode`, () => {
    test.beforeEach(() => test.setTimeout(40_000));

    test(`${mode}: a callback signed with the wrong ${mode === 'hmac' ? 'secret' : 'key'} is answered 401 (HOST-3, ${headerClause})`, { tag: clauseTags('HOST-3', headerClause) }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      const wrongKey = await host.newKey();
      await expect401(host, ep, testInfo, 'a signature made with another secret or key must be refused', () => ({
        // JWKS: same kid as the served key, wrong private key: the signature check must fail.
        signer: mode === 'hmac' ? { mode: 'hmac', secret: 'not-the-secret-test-only' } : { mode: 'jwks', privateKey: wrongKey.privateKey, kid: ep.key?.kid ?? '' },
      }));
    });

    test(`${mode}: one changed byte of the body after signing is answered 401 (HOST-3, HOST-${mode === 'hmac' ? '4' : '7'})`, { tag: clauseTags('HOST-3', mode === 'hmac' ? 'HOST-4' : 'HOST-7') }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      await expect401(host, ep, testInfo, 'the signed bytes must equal the received bytes', (p) => {
        const signed = JSON.stringify(p);
        return { signedBody: signed, body: oneByteChanged(signed) };
      });
    });

    test(`${mode}: a body re-serialized after signing is answered 401 (HOST-3, HOST-4)`, { tag: clauseTags('HOST-3', 'HOST-4') }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      await expect401(host, ep, testInfo, 'a re-serialized body is not the signed body', (p) => ({ signedBody: oddlySpaced(p), body: JSON.stringify(p) }));
    });

    test(`${mode}: a callback without X-Service-Signature is answered 401 (HOST-3, ${headerClause})`, { tag: clauseTags('HOST-3', headerClause) }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      await expect401(host, ep, testInfo, 'a missing signature header must be refused when signing is enabled', () => ({ signature: null }));
    });

    test(`${mode}: a malformed X-Service-Signature is answered 401 (HOST-3, ${headerClause})`, { tag: clauseTags('HOST-3', headerClause) }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      for (const bad of mode === 'hmac' ? [`t=${unixNow()}`, `t=abc,v1=${'0'.repeat(64)}`, `v1=${'a'.repeat(64)},t=${unixNow()}`, 'garbage'] : ['not-a-jws', 'a.b', 'e30.e30.e30', '...']) {
        await expect401(host, ep, testInfo, `malformed signature header ${JSON.stringify(bad)} must be refused`, () => ({ signature: bad }));
      }
    });

    test(`${mode}: a signature whose t is now - 301 s is answered 401 (HOST-3, HOST-5)`, { tag: clauseTags('HOST-3', 'HOST-5') }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      await expect401(host, ep, testInfo, 'reject when abs(now - t) > 300 s (t in the past)', () => ({ t: unixNow() - 301 }));
    });

    test(`${mode}: a signature whose t is now + 301 s is answered 401 (HOST-3, HOST-6)`, { tag: clauseTags('HOST-3', 'HOST-6') }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      await expect401(host, ep, testInfo, 'reject when abs(now - t) > 300 s (t in the future)', () => ({ t: unixNow() + 301 }));
    });

    test(`${mode}: a correctly signed body with unusual whitespace is acknowledged (HOST-4, HOST-24)`, { tag: clauseTags('HOST-4', 'HOST-24') }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      const p = onStart(host, ep);
      await expectAck(host, ep, testInfo, 'the raw bytes are what is signed, whatever their whitespace', { body: oddlySpaced(p) }, p);
    });
  });
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
  // Serial: each test adds keys to the one JWKS document of this worker.
  test.describe.configure({ mode: 'serial' });

  test('jwks: a new kid makes the host refetch the JWKS document and accept the callback (HOST-8)', { tag: clauseTags('HOST-8') }, async ({ host }, testInfo) => {
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

  test('jwks: a kid absent from the refetched JWKS document is answered 401 (HOST-3, HOST-8)', { tag: clauseTags('HOST-3', 'HOST-8') }, async ({ host }, testInfo) => {
    test.setTimeout(40_000);
    const ep = modeEndpoint(host, 'jwks');
    const stranger = await host.newKey();
    await expect401(host, ep, testInfo, 'a key not in the JWKS document must be refused', () => ({ signer: { mode: 'jwks', privateKey: stranger.privateKey, kid: stranger.kid } }));
  });
});
