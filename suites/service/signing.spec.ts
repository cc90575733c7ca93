/**
 * Callback signing (5.2), checked from the contract's words: HMAC v1 recomputed with the secret
 * the test set, JWS verified against the service's own JWKS document; both modes, sandbox keys
 * and secrets, rotation, and the facts GET signed over its request line.
 */
import { randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { test } from './fixtures.ts';
import type { ServiceClient } from './fixtures.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { header } from './areas/journal.ts';
import {
  HMAC_HEADER_PATTERN,
  JWS_PATTERN,
  SEND_SKEW_SECONDS,
  checkHmac,
  checkJws,
  hmacSignerOf,
  jwsPayloadProblem,
  tNearArrival,
} from './areas/signatures.ts';
import { eventOf, runEveryEvent, threeEvents, uniqueHandle } from './areas/scenario.ts';
import { answered } from './areas/errors.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags, type ClauseId } from '../../spec/index.ts';

/** The event a callback is, for the words of a rule. */
const what = (e: JournalEntry): string => eventOf(e) ?? `callback #${e.seq}`;

/**
 * The service's JWKS document. Its shape is SIGN-9's rule: a check of SIGN-9 in the SIGN-9 test,
 * elsewhere a precondition (the key source the test needs before it can look at its own rule).
 */
async function serviceJwks(svc: ServiceClient, clause?: ClauseId): Promise<{ keys: JWK[] }> {
  const r = await svc.jwks();
  const doc = r.json as { keys?: JWK[] } | undefined;
  const served = r.status === 200;
  const hasKeys = Array.isArray(doc?.keys);
  if (clause !== undefined) {
    check(clause, 'GET /.well-known/service/jwks.json is answered 200', { id: 'sign.jwks-document' }).that(served, {
      expected: '200',
      seen: answered(r),
    });
    check(clause, 'the JWKS document has a keys array', { id: 'sign.jwks-document' }).that(hasKeys, {
      expected: 'a keys array',
      seen: r.text.slice(0, 200),
    });
  } else {
    precondition(served && hasKeys, 'the service serves its JWKS document with a keys array', {
      expected: '200 with a keys array',
      seen: answered(r),
    });
  }
  return { keys: doc!.keys! };
}

/** A JWS signature verified against the document (crypto only: which bytes it signs is SIGN-8's, SIGN-6's). */
function verifiedWords(v: { verified?: boolean; kid?: string; reason: string }): { expected: string; seen: string } {
  return {
    expected: "an ES256 signature that verifies with the key of its kid in the service's JWKS document",
    seen: v.verified ? `verifies with kid ${v.kid}` : v.reason,
  };
}

const newSecret = () => `test-only-hmac-${randomBytes(16).toString('hex')}`;

test.describe('signing off', () => {
  test(
    'with no signing mode configured, X-Service-Signature is absent (SIGN-1)',
    { tag: clauseTags('SIGN-1') },
    async ({ makeWorkspace, driver }) => {
      const ws = await makeWorkspace({ signing: { mode: 'none' } });
      for (const e of await threeEvents(ws, driver, 'sig')) {
        check
          .soft('SIGN-1', `with no signing mode, ${what(e)} carries no X-Service-Signature`, {
            id: 'sign.absent-when-off',
          })
          .absent(header(e, 'x-service-signature'), 'no X-Service-Signature header');
      }
    },
  );

  test(
    'X-Service-Signature is present exactly when signing is enabled (HDR-6)',
    { tag: clauseTags('HDR-6') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('signing-hmac');
      const off = await makeWorkspace({ signing: { mode: 'none' }, facts: false });
      const on = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
      for (const e of await threeEvents(off, driver, 'sig')) {
        check
          .soft('HDR-6', `signing off: ${what(e)} carries no X-Service-Signature`, {
            id: 'header.signature-exactly-when-on',
          })
          .absent(header(e, 'x-service-signature'));
      }
      for (const e of await threeEvents(on, driver, 'sig')) {
        check
          .soft('HDR-6', `signing on (hmac): ${what(e)} carries X-Service-Signature`, {
            id: 'header.signature-exactly-when-on',
          })
          .present(header(e, 'x-service-signature') || undefined, 'a non-empty X-Service-Signature');
      }
    },
  );
});

test.describe('HMAC mode', () => {
  test(
    'the HMAC header is t=<unix_seconds>,v1=<hex> (SIGN-11)',
    { tag: clauseTags('SIGN-11') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('signing-hmac');
      const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
      for (const e of await threeEvents(ws, driver, 'sig')) {
        check
          .soft('SIGN-11', `${what(e)}: X-Service-Signature is t=<unix_seconds>,v1=<hex>`, {
            id: 'sign.hmac-header-form',
          })
          .matches(header(e, 'x-service-signature'), HMAC_HEADER_PATTERN, 't=<unix_seconds>,v1=<hex>');
      }
    },
  );

  test(
    'v1 is the lowercase hex HMAC-SHA256 with the workspace secret of t, a dot and the raw body (SIGN-12)',
    { tag: clauseTags('SIGN-12') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('signing-hmac');
      const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
      for (const e of await threeEvents(ws, driver, 'sig')) {
        // The header's presence and form are HDR-6's and SIGN-11's: v1 can only be recomputed from t=<digits>,v1=<hex>.
        const h = header(e, 'x-service-signature');
        precondition(
          h !== undefined && HMAC_HEADER_PATTERN.test(h),
          `${what(e)} carries t=<unix_seconds>,v1=<hex> to recompute v1 from`,
          { expected: 't=<unix_seconds>,v1=<hex>', seen: show(h) },
        );
        const v = checkHmac(e, [ws.signing.secret!]);
        check
          .soft(
            'SIGN-12',
            `${what(e)}: v1 is the lowercase hex HMAC-SHA256, with the workspace's secret, of t, a dot and the raw body`,
            { id: 'sign.hmac-v1' },
          )
          .that(v.ok, { expected: 'v1 = lowercase hex HMAC-SHA256(secret, t + "." + raw body)', seen: v.reason });
      }
    },
  );

  // SIGN-3 reading: the rule is that every event kind is signed, over its own bytes with the
  // workspace's secret; how v1 is written (hex case, the dot) is SIGN-12's and is not decided here.
  test(
    'every lifecycle callback is signed, config.* events included (SIGN-3)',
    { tag: clauseTags('SIGN-3') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('signing-hmac');
      const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
      const run = await runEveryEvent(ws, driver);
      const kinds = [
        'config.saved',
        'config.deleted',
        'config.bulk_deleted',
        'onStart',
        'onComplete',
        'onSessionInterrupted',
        'onSessionTimeout',
      ];
      const missing = kinds.filter((ev) => (run.byEvent.get(ev) ?? []).length === 0);
      precondition(missing.length === 0, 'every event kind of section 6 arrived', {
        expected: kinds.join(', '),
        seen: `missing ${missing.join(', ')}`,
      });
      for (const e of run.all) {
        const present = check
          .soft('SIGN-3', `${what(e)} carries X-Service-Signature`, { id: 'sign.every-event' })
          .present(header(e, 'x-service-signature'), 'an X-Service-Signature header');
        if (!present) continue;
        const v = hmacSignerOf(e, [ws.signing.secret!]);
        check
          .soft(
            'SIGN-3',
            `${what(e)}'s X-Service-Signature is an HMAC of that callback's own raw body with the workspace's secret`,
            { id: 'sign.every-event' },
          )
          .that(v.secretIndex === 0, {
            expected: "v1 made with the workspace's secret over t and this callback's raw body",
            seen: v.reason,
          });
      }
    },
  );

  test(
    `the signature's t is the current unix time at sending, within ${SEND_SKEW_SECONDS} s of arrival (SIGN-4)`,
    { tag: clauseTags('SIGN-4') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('signing-hmac');
      const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
      for (const e of await threeEvents(ws, driver, 'sig')) {
        const { t } = hmacSignerOf(e, [ws.signing.secret!]);
        const arrival = e.arrival.wallMs / 1000;
        check
          .soft('SIGN-4', `${what(e)}: the signature's t is the unix time at sending`, { id: 'sign.t-now' })
          .that(tNearArrival(t, e), {
            expected: `t within ${SEND_SKEW_SECONDS} s of the arrival at ${arrival.toFixed(1)}`,
            seen:
              t === undefined
                ? `no t in ${show(header(e, 'x-service-signature'))}`
                : `t=${t}, ${(t - arrival).toFixed(1)} s from the arrival`,
          });
      }
    },
  );

  // SIGN-13 is about which secret a sandbox signs with: the secret is told from v1 whatever its hex
  // case and t/body joiner (SIGN-12's), so only a wrong secret fails here.
  test(
    "a sandbox signs with its own HMAC secret, not its parent's (SIGN-13)",
    { tag: clauseTags('SIGN-13') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('signing-hmac', 'sandbox');
      const prod = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
      const sb = await makeWorkspace({ parent: prod, signing: { mode: 'hmac' } });
      for (const e of await threeEvents(sb, driver, 'sig')) {
        const v = hmacSignerOf(e, [sb.signing.secret!, prod.signing.secret!]);
        check
          .soft('SIGN-13', `the sandbox's ${what(e)} is signed with the sandbox's own secret`, {
            id: 'sign.sandbox-own-secret',
          })
          .that(v.secretIndex === 0, {
            expected: "v1 made with the sandbox's secret (#0)",
            seen: v.secretIndex === 1 ? "v1 is made with the production parent's secret (#1)" : v.reason,
          });
      }
    },
  );

  // SIGN-14 reading: "either is accepted meanwhile", so a signature with the current or the
  // previous secret passes; anything else fails. The secret is told from v1 whatever its hex case
  // and t/body joiner (SIGN-12's).
  test(
    'after a rotation every signature verifies with the current or the previous secret (SIGN-14)',
    { tag: clauseTags('SIGN-14') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('signing-hmac', 'signing-hmac-rotation');
      const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
      const old = ws.signing.secret!;
      for (const e of await threeEvents(ws, driver, 'sig')) {
        const v = hmacSignerOf(e, [old]);
        precondition(v.secretIndex === 0, `before the rotation, ${what(e)} is signed with the workspace's secret`, {
          expected: 'v1 made with the secret set at creation',
          seen: v.reason,
        });
      }
      const current = newSecret();
      await driver.patchWorkspace(ws, { signing: { mode: 'hmac', secret: current, previousSecret: old } });
      for (const e of await threeEvents(ws, driver, 'sig')) {
        const v = hmacSignerOf(e, [current, old]);
        check
          .soft('SIGN-14', `after the rotation, ${what(e)} is signed with the current or the previous secret`, {
            id: 'sign.rotation',
          })
          .that(v.secretIndex !== undefined, {
            expected: 'v1 made with the current (#0) or the previous (#1) secret',
            seen: v.reason,
          });
      }
    },
  );
});

test.describe('JWKS mode', () => {
  test(
    'the service serves a standard JWKS document with a keys array holding every kid it signs with (SIGN-9)',
    { tag: clauseTags('SIGN-9') },
    async ({ makeWorkspace, driver, svc }) => {
      driver.requireCapability('signing-jwks');
      const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
      const events = await threeEvents(ws, driver, 'sig');
      const jwks = await serviceJwks(svc, 'SIGN-9');
      for (const k of jwks.keys) {
        check
          .soft('SIGN-9', `key ${show(k.kid)} of the document is a standard JWK with a kty`, {
            id: 'sign.jwks-document',
          })
          .present(k.kty, 'a kty member');
        check
          .soft('SIGN-9', `the public document carries no private key material for ${show(k.kid)}`, {
            id: 'sign.jwks-document',
          })
          .absent(k.d, 'no d member');
      }
      const kids = jwks.keys.map((k) => k.kid);
      for (const e of events) {
        const v = await checkJws(e, jwks);
        precondition(v.kid !== undefined, `${what(e)} carries a JWS with a kid`, {
          expected: 'a kid in the JWS header',
          seen: v.reason,
        });
        const listed = check
          .soft('SIGN-9', `the kid ${what(e)} is signed with is in the JWKS document`, { id: 'sign.jwks-document' })
          .oneOf(v.kid, kids);
        // "holding the key of every kid it signs with": the key under that kid is the one that signed.
        if (listed)
          check
            .soft('SIGN-9', `the document's key for kid ${v.kid} verifies ${what(e)}'s ES256 signature`, {
              id: 'sign.jwks-document',
            })
            .that(v.verified === true, verifiedWords(v));
      }
    },
  );

  test(
    'the JWKS header is a compact JWS with alg ES256 and a kid (SIGN-7)',
    { tag: clauseTags('SIGN-7') },
    async ({ makeWorkspace, driver, svc }) => {
      driver.requireCapability('signing-jwks');
      const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
      const events = await threeEvents(ws, driver, 'sig');
      const jwks = await serviceJwks(svc);
      for (const e of events) {
        const compact = check
          .soft('SIGN-7', `${what(e)}: X-Service-Signature is a compact JWS (three base64url parts)`, {
            id: 'sign.jws-form',
          })
          .matches(header(e, 'x-service-signature'), JWS_PATTERN, '<base64url>.<base64url>.<base64url>');
        if (!compact) continue;
        const v = await checkJws(e, jwks);
        check
          .soft('SIGN-7', `${what(e)}: the JWS header's alg is ES256`, { id: 'sign.jws-form' })
          .that(v.alg === 'ES256', { expected: 'ES256', seen: v.alg === undefined ? v.reason : show(v.alg) });
        check
          .soft('SIGN-7', `${what(e)}: the JWS header carries a kid`, { id: 'sign.jws-form' })
          .that(!!v.kid, { expected: 'a kid', seen: v.kid === undefined ? v.reason : show(v.kid) });
      }
    },
  );

  test(
    'the JWS payload is "<unix_seconds>." followed by the raw request body (SIGN-8)',
    { tag: clauseTags('SIGN-8') },
    async ({ makeWorkspace, driver, svc }) => {
      driver.requireCapability('signing-jwks');
      const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
      const events = await threeEvents(ws, driver, 'sig');
      const jwks = await serviceJwks(svc);
      for (const e of events) {
        const v = await checkJws(e, jwks);
        // What the payload holds is SIGN-8's; that it is an ES256 JWS verifying with a key of the document is SIGN-7's and SIGN-9's.
        precondition(
          v.verified === true,
          `${what(e)} carries an ES256 JWS that verifies with a key of the service's document`,
          verifiedWords(v),
        );
        const problem = jwsPayloadProblem(e, v.payload);
        check
          .soft('SIGN-8', `${what(e)}: the JWS payload is "<unix_seconds>." followed by the raw request body`, {
            id: 'sign.jws-payload',
          })
          .that(problem === undefined, { expected: '"<t>." + the raw body bytes received', seen: problem ?? '' });
      }
    },
  );

  // SIGN-10 is about the keys: different kids, both verifying with keys of the one document. What
  // the payload holds is SIGN-8's.
  test(
    'sandbox and production sign with different kids served from the same document (SIGN-10)',
    { tag: clauseTags('SIGN-10') },
    async ({ makeWorkspace, driver, svc }) => {
      driver.requireCapability('signing-jwks', 'sandbox');
      const prod = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
      const sb = await makeWorkspace({ parent: prod, signing: { mode: 'jwks' } });
      const [p] = await threeEvents(prod, driver, 'sig');
      const [s] = await threeEvents(sb, driver, 'sig');
      const jwks = await serviceJwks(svc);
      const pv = await checkJws(p!, jwks);
      const sv = await checkJws(s!, jwks);
      check
        .soft('SIGN-10', `production's ${what(p!)} is signed with a key served in the document`, {
          id: 'sign.sandbox-own-kid',
        })
        .that(pv.verified === true, verifiedWords(pv));
      check
        .soft('SIGN-10', `the sandbox's ${what(s!)} is signed with a key served in the same document`, {
          id: 'sign.sandbox-own-kid',
        })
        .that(sv.verified === true, verifiedWords(sv));
      check
        .soft('SIGN-10', "the sandbox signs with a kid other than production's", { id: 'sign.sandbox-own-kid' })
        .that(sv.kid !== undefined && sv.kid !== pv.kid, {
          expected: `a kid other than production's ${show(pv.kid)}`,
          seen: show(sv.kid),
        });
    },
  );
});

test(
  'a workspace signs in exactly the one mode configured, and a mode change switches every later callback (SIGN-2)',
  { tag: clauseTags('SIGN-2') },
  async ({ makeWorkspace, driver, svc }) => {
    driver.requireCapability('signing-hmac', 'signing-jwks');
    const ws = await makeWorkspace({ signing: { mode: 'hmac' }, facts: false });
    for (const e of await threeEvents(ws, driver, 'sig')) {
      check
        .soft('SIGN-2', `HMAC mode: ${what(e)} carries an HMAC signature t=<unix_seconds>,v1=<hex>`, {
          id: 'sign.one-mode',
        })
        .matches(header(e, 'x-service-signature'), HMAC_HEADER_PATTERN, 't=<unix_seconds>,v1=<hex>');
    }
    await driver.patchWorkspace(ws, { signing: { mode: 'jwks' } });
    const after = await threeEvents(ws, driver, 'sig');
    const jwks = await serviceJwks(svc);
    for (const e of after) {
      const jws = check
        .soft('SIGN-2', `JWKS mode after the change: ${what(e)} carries a compact JWS`, { id: 'sign.one-mode' })
        .matches(header(e, 'x-service-signature'), JWS_PATTERN, 'a compact JWS');
      if (!jws) continue;
      const v = await checkJws(e, jwks);
      check
        .soft('SIGN-2', `JWKS mode after the change: ${what(e)}'s JWS verifies with a key of the service's document`, {
          id: 'sign.one-mode',
        })
        .that(v.verified === true, verifiedWords(v));
    }
  },
);

test.describe('user-facts GET', () => {
  for (const mode of ['hmac', 'jwks'] as const) {
    test(
      `in ${mode} mode the facts GET is signed over "GET " + path and query (SIGN-6)`,
      { tag: clauseTags('SIGN-6') },
      async ({ makeWorkspace, driver, svc }) => {
        driver.requireCapability(mode === 'hmac' ? 'signing-hmac' : 'signing-jwks', 'facts');
        const ws = await makeWorkspace({ signing: { mode } });
        await driver.open(ws, { endUserHandle: uniqueHandle('facts sig'), configEnd: '/profile' });
        const [e] = await ws.waitForFactsRequests();
        const h = header(e!, 'x-service-signature');
        if (mode === 'hmac') {
          check('SIGN-6', 'in hmac mode the facts GET carries an HMAC signature t=<unix_seconds>,v1=<hex>', {
            id: 'sign.facts-request-line',
          }).matches(h, HMAC_HEADER_PATTERN, 't=<unix_seconds>,v1=<hex>');
          // The payload and the secret are SIGN-6's; the hex case and the dot of v1 are SIGN-12's.
          const v = hmacSignerOf(e!, [ws.signing.secret!]);
          check(
            'SIGN-6',
            'the facts GET\'s v1 is an HMAC with the workspace\'s secret over t and "GET " + path and query',
            { id: 'sign.facts-request-line' },
          ).that(v.secretIndex === 0, { expected: `v1 over t and ${JSON.stringify(`GET ${e!.url}`)}`, seen: v.reason });
        } else {
          check('SIGN-6', 'in jwks mode the facts GET carries a compact JWS', {
            id: 'sign.facts-request-line',
          }).matches(h, JWS_PATTERN, 'a compact JWS');
          const v = await checkJws(e!, await serviceJwks(svc));
          precondition(
            v.verified === true,
            "the facts GET's JWS verifies with a key of the service's document",
            verifiedWords(v),
          );
          const problem = jwsPayloadProblem(e!, v.payload);
          check('SIGN-6', 'the facts GET\'s JWS payload is "<t>." followed by "GET " + path and query', {
            id: 'sign.facts-request-line',
          }).that(problem === undefined, {
            expected: `"<t>." + ${JSON.stringify(`GET ${e!.url}`)}`,
            seen: problem ?? '',
          });
        }
      },
    );
  }
});
