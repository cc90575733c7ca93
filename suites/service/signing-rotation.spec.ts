/**
 * JWKS signing after a key rotation (5.2, key source: "refetch when kid is unknown (a rotation)"),
 * through the driver's optional capability signing-jwks-rotation: every JWS check of signing-jwks.spec.ts
 * runs again on the callbacks signed after the rotation, and on the later attempts of an onComplete
 * whose first attempt was signed before it. A target without the capability leaves them not exercised.
 */
import type { JWK } from 'jose';
import { test } from './fixtures.ts';
import type { ServiceClient } from './fixtures.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { header } from '../../judge/service/journal.ts';
import { SEND_SKEW_SECONDS, checkJws, jwsPayloadProblem, tNearArrival, type JwsCheck } from './areas/signatures.ts';
import { eventOf, threeEvents, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { JWKS_ROTATION, rotateJwks } from './areas/rotation.ts';
import { realTime } from './areas/waiting.ts';
import { answered } from './areas/errors.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

const what = (e: JournalEntry): string =>
  e.method === 'GET' ? 'the user-facts GET' : (eventOf(e) ?? `callback #${e.seq}`);

/** The document as served now; its shape is SIGN-9's rule, judged in signing-jwks.spec.ts, so a precondition here. */
async function documentNow(svc: ServiceClient): Promise<{ keys: JWK[] }> {
  const r = await svc.jwks();
  const keys = (r.json as { keys?: JWK[] } | undefined)?.keys;
  precondition(r.status === 200 && Array.isArray(keys), 'the service serves its JWKS document with a keys array', {
    expected: '200 with a keys array',
    seen: answered(r),
  });
  return { keys: keys! };
}

/** The unix seconds before the first dot of a JWS payload; undefined when it has none (SIGN-8's rule). */
function tOfPayload(payload: Buffer | undefined): number | undefined {
  const text = payload?.subarray(0, Math.max(0, payload.indexOf(0x2e))).toString('utf8') ?? '';
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** The kid in force before the rotation: a callback signed then verifies with it (the unrotated checks' rule). */
function kidBefore(v: JwsCheck, e: JournalEntry): string {
  const words = `before the rotation, ${what(e)} carries a JWS that verifies with its kid`;
  precondition(v.verified === true && !!v.kid, words, {
    expected: 'an ES256 JWS verifying with the key of its kid',
    seen: v.reason,
  });
  return v.kid!;
}

/**
 * SIGN-9 after a rotation: the callback names the new kid (not the one in force before), that kid
 * is in the document served after the rotation, and the document's key under it verifies the JWS.
 */
function judgeRotated(e: JournalEntry, v: JwsCheck, oldKid: string, doc: { keys: JWK[] }, told?: string): void {
  const kids = doc.keys.map((k) => k.kid);
  const attempt = header(e, 'x-service-delivery-attempt');
  const name = `after the rotation, ${what(e)}${attempt === undefined ? '' : ` (attempt ${attempt})`}`;
  const id = 'sign.jwks-rotation';
  check
    .soft('SIGN-9', `${name} names the new kid, not the one in force before the rotation`, { id })
    .that(v.kid !== undefined && v.kid !== oldKid && (told === undefined || v.kid === told), {
      expected: told === undefined ? `a kid other than ${show(oldKid)}` : `the new kid ${show(told)}`,
      seen: v.kid === undefined ? v.reason : `kid ${show(v.kid)}`,
    });
  check.soft('SIGN-9', `${name} names a kid the JWKS document serves`, { id }).oneOf(v.kid, kids);
  check
    .soft('SIGN-9', `${name} verifies with the document's key of its kid`, { id })
    .that(v.verified === true, { expected: 'an ES256 signature verifying with the key of its kid', seen: v.reason });
}

const EVERY_CHECK =
  'after a JWKS rotation each callback names the new kid, served in the document, and passes every ' + 'JWS check';
const EVERY_TAGS = clauseTags('SIGN-4', 'SIGN-7', 'SIGN-8', 'SIGN-9');

test(`${EVERY_CHECK} (SIGN-4, SIGN-7, SIGN-8, SIGN-9)`, { tag: EVERY_TAGS }, async ({ makeWorkspace, driver, svc }) => {
  driver.requireCapability('signing-jwks', JWKS_ROTATION);
  const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
  const before = await documentNow(svc);
  const [first] = await threeEvents(ws, driver, 'rot');
  const oldKid = kidBefore(await checkJws(first!, before), first!);
  const { kid: told } = await rotateJwks(driver, ws);
  const after = await threeEvents(ws, driver, 'rot');
  const doc = await documentNow(svc);
  for (const e of after) {
    const v = await checkJws(e, doc);
    check
      .soft('SIGN-7', `after the rotation, ${what(e)}'s JWS header has alg ES256 and a kid`, { id: 'sign.jws-form' })
      .that(v.alg === 'ES256' && !!v.kid, {
        expected: 'alg ES256 and a kid',
        seen: v.alg === undefined ? v.reason : `alg ${show(v.alg)}, kid ${show(v.kid)}`,
      });
    judgeRotated(e, v, oldKid, doc, told);
    const problem = jwsPayloadProblem(e, v.payload);
    const payloadRule = `after the rotation, ${what(e)}'s JWS payload is "<unix_seconds>." + the raw body`;
    check
      .soft('SIGN-8', payloadRule, { id: 'sign.jws-payload' })
      .that(problem === undefined, { expected: '"<t>." + the raw body bytes received', seen: problem ?? '' });
    // t is read from the payload whether or not the signature verifies (which key signs is SIGN-9's).
    const t = tOfPayload(v.payload);
    const arrival = e.arrival.wallMs / 1000;
    const tRule = `after the rotation, ${what(e)}: the signature's t is the unix time at sending`;
    if (t !== undefined)
      check.soft('SIGN-4', tRule, { id: 'sign.t-now' }).that(tNearArrival(t, e), {
        expected: `t within ${SEND_SKEW_SECONDS} s of the arrival at ${arrival.toFixed(1)}`,
        seen: `t=${t}`,
      });
  }
});

// SIGN-10 in the state after a rotation: a rotation of production gives it a new key; its sandbox
// must still sign with a kid of its own, served in the same document (the keys differ in every state).
const SANDBOX_AFTER =
  "after the production workspace's JWKS rotation its sandbox still signs with a kid other than production's, " +
  'both served in the one document';

test(`${SANDBOX_AFTER} (SIGN-10)`, { tag: clauseTags('SIGN-10') }, async ({ makeWorkspace, driver, svc }) => {
  driver.requireCapability('signing-jwks', 'sandbox', JWKS_ROTATION);
  const prod = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
  const sb = await makeWorkspace({ parent: prod, signing: { mode: 'jwks' } });
  const { kid: told } = await rotateJwks(driver, prod);
  const [p] = await threeEvents(prod, driver, 'rotsb');
  const [s] = await threeEvents(sb, driver, 'rotsb');
  const doc = await documentNow(svc);
  const pv = await checkJws(p!, doc);
  const sv = await checkJws(s!, doc);
  const id = 'sign.sandbox-own-kid-after-rotation';
  const verifies = { expected: 'an ES256 signature verifying with the key of its kid' };
  check
    .soft('SIGN-10', `after the rotation, production's ${what(p!)} is signed with a key served in the document`, { id })
    .that(pv.verified === true, { ...verifies, seen: pv.reason });
  check
    .soft('SIGN-10', `after the rotation, the sandbox's ${what(s!)} is signed with a key served in the same document`, {
      id,
    })
    .that(sv.verified === true, { ...verifies, seen: sv.reason });
  check
    .soft('SIGN-10', "after production's rotation the sandbox signs with a kid other than production's", { id })
    .that(sv.kid !== undefined && sv.kid !== pv.kid && (told === undefined || sv.kid !== told), {
      expected: `a kid other than production's ${show(told ?? pv.kid)}`,
      seen: show(sv.kid),
    });
});

const FACTS_GET =
  'after a JWKS rotation the user-facts GET names the new kid and is signed over "GET " + path and ' + 'query';

test(
  `${FACTS_GET} (SIGN-6, SIGN-9)`,
  { tag: clauseTags('SIGN-6', 'SIGN-9') },
  async ({ makeWorkspace, driver, svc }) => {
    driver.requireCapability('signing-jwks', JWKS_ROTATION, 'facts');
    const ws = await makeWorkspace({ signing: { mode: 'jwks' } });
    const before = await documentNow(svc);
    await driver.open(ws, { endUserHandle: uniqueHandle('rot facts'), configEnd: '/profile' });
    const [f1] = await ws.waitForFactsRequests();
    const oldKid = kidBefore(await checkJws(f1!, before), f1!);
    const { kid: told } = await rotateJwks(driver, ws);
    await driver.open(ws, { endUserHandle: uniqueHandle('rot facts'), configEnd: '/profile' });
    const f2 = (await ws.waitForFactsRequests({ count: 2 })).find((e) => e.seq !== f1!.seq)!;
    const doc = await documentNow(svc);
    const v = await checkJws(f2, doc);
    judgeRotated(f2, v, oldKid, doc, told);
    // The payload is SIGN-6's whichever key signed it (that is SIGN-9's, judged above).
    const problem = jwsPayloadProblem(f2, v.payload);
    check
      .soft('SIGN-6', 'after the rotation, the facts GET\'s JWS payload is "<t>." + "GET " + path and query', {
        id: 'sign.facts-request-line',
      })
      .that(problem === undefined, {
        expected: `"<t>." + ${JSON.stringify(`GET ${f2.url}`)}`,
        seen: problem ?? '',
      });
  },
);

const RETRIED =
  'an onComplete attempt 1 signed before a JWKS rotation is retried under the new kid, served in the ' + 'document';

realTime(() =>
  test(`${RETRIED} (SIGN-9)`, { tag: clauseTags('SIGN-9') }, async ({ makeWorkspace, driver, svc, host, timing }) => {
    driver.requireCapability('signing-jwks', JWKS_ROTATION);
    test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
    const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
    // Attempt 1 is held (half the 10 s timeout) then answered 503: the rotation lands while it is held.
    const holdMs = Math.round(timing.scaled(CONTRACT.requestTimeoutMs) / 2);
    host.script({
      id: uniqueId('hold-503-ok'),
      match: { path: ws.hookPath!, event: 'onComplete' },
      steps: [
        { action: 'hold', ms: holdMs, thenStatus: 503 },
        { action: 'respond', status: 200 },
      ],
    });
    const h = uniqueHandle('rotretry');
    const before = await documentNow(svc);
    const c = await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
    await driver.turn(c.conversationId, [{ fields: { name: 'Ada' } }]);
    await driver.complete(c.conversationId);
    const [a1] = await waitEvent(ws, 'onComplete', h, 1);
    const oldKid = kidBefore(await checkJws(a1!, before), a1!);
    const { kid: told } = await rotateJwks(driver, ws);
    const rotatedNs = process.hrtime.bigint();
    // Harness self-check: attempt 2 is signed after attempt 1 ended, so the rotation must come first.
    const a1now = host.journal.entries({ predicate: (e) => e.seq === a1!.seq })[0] ?? a1!;
    const heldThrough = a1now.finished === undefined || BigInt(a1now.finished.monoNs) > rotatedNs;
    precondition(heldThrough, 'the rotation answered while the host still held attempt 1', {
      expected: 'attempt 1 not ended before the rotation answered',
      seen: `ended (${a1now.finished?.outcome ?? ''})`,
    });
    // Whether attempt 2 comes is DELIV-4's rule: here a precondition.
    const attempts = await waitEvent(ws, 'onComplete', h, 2, timing.retryScheduleDeadlineMs());
    const doc = await documentNow(svc);
    for (const e of attempts.filter((x) => x.seq !== a1!.seq)) {
      judgeRotated(e, await checkJws(e, doc), oldKid, doc, told);
    }
  }),
);
