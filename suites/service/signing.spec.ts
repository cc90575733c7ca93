/**
 * Callback signing (5.2), checked from the contract's words: HMAC v1 recomputed with the secret
 * the test set, JWS verified against the service's own JWKS document; both modes, sandbox keys
 * and secrets, rotation, and the facts GET signed over its request line.
 */
import { randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { test, expect } from './fixtures.ts';
import type { DriverClient, ServiceClient, TestWorkspace } from './fixtures.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, header } from './areas/journal.ts';
import { HMAC_HEADER_PATTERN, JWS_PATTERN, SEND_SKEW_SECONDS, checkHmac, checkJws, tNearArrival } from './areas/signatures.ts';
import { runEveryEvent, uniqueHandle, waitEvent } from './areas/scenario.ts';
import { clauseTags } from '../../spec/index.ts';

/** onStart, config.saved and onComplete of one fresh user. */
async function threeEvents(ws: TestWorkspace, driver: DriverClient): Promise<JournalEntry[]> {
  const h = uniqueHandle('sig');
  const c = await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
  await driver.turn(c.conversationId, [{ fields: { name: 'Ada' } }]);
  await driver.complete(c.conversationId);
  return [
    ...(await waitEvent(ws, 'onStart', h)),
    ...(await waitEvent(ws, 'config.saved', h)),
    ...(await waitEvent(ws, 'onComplete', h)),
  ];
}

async function serviceJwks(svc: ServiceClient): Promise<{ keys: JWK[] }> {
  const r = await svc.jwks();
  expect(r.status, `SIGN-9: GET /.well-known/service/jwks.json\n${r.curl}`).toBe(200);
  const doc = r.json as { keys?: JWK[] } | undefined;
  expect(Array.isArray(doc?.keys), `SIGN-9: the JWKS document has a keys array: ${r.text.slice(0, 200)}`).toBe(true);
  return { keys: doc!.keys! };
}

const newSecret = () => `test-only-hmac-${randomBytes(16).toString('hex')}`;

test.describe('signing off', () => {
  test('with no signing mode configured, X-Service-Signature is absent (SIGN-1)', { tag: clauseTags('SIGN-1') }, async ({ makeWorkspace, driver }) => {
    const ws = await makeWorkspace({ signing: { mode: 'none' } });
    for (const e of await threeEvents(ws, driver)) expect(header(e, 'x-service-signature'), `SIGN-1: ${describe(e)}`).toBeUndefined();
  });

  test('X-Service-Signature is present exactly when signing is enabled (HDR-6)', { tag: clauseTags('HDR-6') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('signing-hmac');
    const off = await makeWorkspace({ signing: { mode: 'none' }, facts: false });
    const on = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    for (const e of await threeEvents(off, driver)) expect(header(e, 'x-service-signature'), `HDR-6: signing off: ${describe(e)}`).toBeUndefined();
    for (const e of await threeEvents(on, driver)) expect(header(e, 'x-service-signature'), `HDR-6: signing on: ${describe(e)}`).toBeTruthy();
  });
});

test.describe('HMAC mode', () => {
  test('the HMAC header is t=<unix_seconds>,v1=<hex> (SIGN-11)', { tag: clauseTags('SIGN-11') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('signing-hmac');
    const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    for (const e of await threeEvents(ws, driver)) expect(header(e, 'x-service-signature') ?? '', `SIGN-11: ${describe(e)}`).toMatch(HMAC_HEADER_PATTERN);
  });

  test('v1 is the lowercase hex HMAC-SHA256 with the workspace secret of t, a dot and the raw body (SIGN-12)', { tag: clauseTags('SIGN-12') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('signing-hmac');
    const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    for (const e of await threeEvents(ws, driver)) {
      const v = checkHmac(e, [ws.signing.secret!]);
      expect(v.ok, `SIGN-12: ${describe(e)}: ${v.reason}`).toBe(true);
    }
  });

  test('every lifecycle callback is signed, config.* events included (SIGN-3)', { tag: clauseTags('SIGN-3') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('signing-hmac');
    const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    const run = await runEveryEvent(ws, driver);
    for (const ev of ['config.saved', 'config.deleted', 'config.bulk_deleted', 'onStart', 'onComplete', 'onSessionInterrupted', 'onSessionTimeout']) {
      expect((run.byEvent.get(ev) ?? []).length, `SIGN-3: a ${ev} arrived`).toBeGreaterThan(0);
    }
    for (const e of run.all) {
      const v = checkHmac(e, [ws.signing.secret!]);
      expect(v.ok, `SIGN-3: ${describe(e)}: ${v.reason}`).toBe(true);
    }
  });

  test(`the signature's t is the current unix time at sending, within ${SEND_SKEW_SECONDS} s of arrival (SIGN-4)`, { tag: clauseTags('SIGN-4') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('signing-hmac');
    const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    for (const e of await threeEvents(ws, driver)) {
      const v = checkHmac(e, [ws.signing.secret!]);
      expect(v.t, `SIGN-4: no t in ${describe(e)}`).toBeDefined();
      expect(tNearArrival(v.t, e), `SIGN-4: t=${v.t} vs arrival ${(e.arrival.wallMs / 1000).toFixed(1)} for ${describe(e)}`).toBe(true);
    }
  });

  test('a sandbox signs with its own HMAC secret, not its parent\'s (SIGN-13)', { tag: clauseTags('SIGN-13') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('signing-hmac', 'sandbox');
    const prod = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    const sb = await makeWorkspace({ parent: prod, signing: { mode: 'hmac' } });
    for (const e of await threeEvents(sb, driver)) {
      const v = checkHmac(e, [sb.signing.secret!, prod.signing.secret!]);
      expect(v.ok && v.secretIndex === 0, `SIGN-13: ${describe(e)}: ${v.reason} (#0 is the sandbox's secret, #1 the parent's)`).toBe(true);
    }
  });

  // SIGN-14 reading: "either is accepted meanwhile", so a signature with the current or the
  // previous secret passes; anything else fails.
  test('after a rotation every signature verifies with the current or the previous secret (SIGN-14)', { tag: clauseTags('SIGN-14') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('signing-hmac', 'signing-hmac-rotation');
    const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    const old = ws.signing.secret!;
    for (const e of await threeEvents(ws, driver)) expect(checkHmac(e, [old]).ok, `before the rotation: ${describe(e)}`).toBe(true);
    const current = newSecret();
    await driver.patchWorkspace(ws, { signing: { mode: 'hmac', secret: current, previousSecret: old } });
    for (const e of await threeEvents(ws, driver)) {
      const v = checkHmac(e, [current, old]);
      expect(v.ok, `SIGN-14: ${describe(e)}: ${v.reason} (checked with the current and the previous secret)`).toBe(true);
    }
  });
});

test.describe('JWKS mode', () => {
  test('the service serves a standard JWKS document with a keys array holding every kid it signs with (SIGN-9)', { tag: clauseTags('SIGN-9') }, async ({ makeWorkspace, driver, svc }) => {
    driver.requireCapability('signing-jwks');
    const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
    const events = await threeEvents(ws, driver);
    const jwks = await serviceJwks(svc);
    for (const k of jwks.keys) {
      expect(k.kty, `SIGN-9: key ${k.kid}`).toBeTruthy();
      expect(k.d, `SIGN-9: the public document carries private key material for ${k.kid}`).toBeUndefined();
    }
    for (const e of events) {
      const v = await checkJws(e, jwks);
      expect(jwks.keys.map((k) => k.kid), `SIGN-9: kid of ${describe(e)}`).toContain(v.kid);
    }
  });

  test('the JWKS header is a compact JWS with alg ES256 and a kid (SIGN-7)', { tag: clauseTags('SIGN-7') }, async ({ makeWorkspace, driver, svc }) => {
    driver.requireCapability('signing-jwks');
    const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
    const events = await threeEvents(ws, driver);
    const jwks = await serviceJwks(svc);
    for (const e of events) {
      expect(header(e, 'x-service-signature') ?? '', `SIGN-7: ${describe(e)}`).toMatch(JWS_PATTERN);
      const v = await checkJws(e, jwks);
      expect(v.alg, `SIGN-7: ${v.reason}`).toBe('ES256');
      expect(v.kid, `SIGN-7: ${v.reason}`).toBeTruthy();
    }
  });

  test('the JWS payload is "<unix_seconds>." followed by the raw request body (SIGN-8)', { tag: clauseTags('SIGN-8') }, async ({ makeWorkspace, driver, svc }) => {
    driver.requireCapability('signing-jwks');
    const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
    const events = await threeEvents(ws, driver);
    const jwks = await serviceJwks(svc);
    for (const e of events) {
      const v = await checkJws(e, jwks);
      expect(v.ok, `SIGN-8: ${describe(e)}: ${v.reason}`).toBe(true);
    }
  });

  test('sandbox and production sign with different kids served from the same document (SIGN-10)', { tag: clauseTags('SIGN-10') }, async ({ makeWorkspace, driver, svc }) => {
    driver.requireCapability('signing-jwks', 'sandbox');
    const prod = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
    const sb = await makeWorkspace({ parent: prod, signing: { mode: 'jwks' } });
    const [p] = await threeEvents(prod, driver);
    const [s] = await threeEvents(sb, driver);
    const jwks = await serviceJwks(svc);
    const pv = await checkJws(p!, jwks);
    const sv = await checkJws(s!, jwks);
    expect(pv.ok, `SIGN-10: production: ${pv.reason}`).toBe(true);
    expect(sv.ok, `SIGN-10: sandbox: ${sv.reason}`).toBe(true);
    expect(sv.kid, 'SIGN-10: the sandbox kid differs from production\'s').not.toBe(pv.kid);
  });
});

test('a workspace signs in exactly the one mode configured, and a mode change switches every later callback (SIGN-2)', { tag: clauseTags('SIGN-2') }, async ({ makeWorkspace, driver, svc }) => {
  driver.requireCapability('signing-hmac', 'signing-jwks');
  const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
  for (const e of await threeEvents(ws, driver)) expect(header(e, 'x-service-signature') ?? '', `SIGN-2: HMAC mode: ${describe(e)}`).toMatch(HMAC_HEADER_PATTERN);
  await driver.patchWorkspace(ws, { signing: { mode: 'jwks' } });
  const after = await threeEvents(ws, driver);
  const jwks = await serviceJwks(svc);
  for (const e of after) {
    expect(header(e, 'x-service-signature') ?? '', `SIGN-2: JWKS mode after the change: ${describe(e)}`).toMatch(JWS_PATTERN);
    expect((await checkJws(e, jwks)).ok, `SIGN-2: ${describe(e)}`).toBe(true);
  }
});

test.describe('user-facts GET', () => {
  for (const mode of ['hmac', 'jwks'] as const) {
    test(`in ${mode} mode the facts GET is signed over "GET " + path and query (SIGN-6)`, { tag: clauseTags('SIGN-6') }, async ({ makeWorkspace, driver, svc }) => {
      driver.requireCapability(mode === 'hmac' ? 'signing-hmac' : 'signing-jwks', 'facts');
      const ws = await makeWorkspace({ signing: { mode } });
      await driver.open(ws, { endUserHandle: uniqueHandle('facts sig'), configEnd: '/profile' });
      const [e] = await ws.waitForFactsRequests();
      if (mode === 'hmac') {
        const v = checkHmac(e!, [ws.signing.secret!]);
        expect(v.ok, `SIGN-6: ${describe(e!)}: ${v.reason}`).toBe(true);
      } else {
        const v = await checkJws(e!, await serviceJwks(svc));
        expect(v.ok, `SIGN-6: ${describe(e!)}: ${v.reason}`).toBe(true);
      }
    });
  }
});
