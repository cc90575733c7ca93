/**
 * JWKS signing of callbacks (5.2): the service's JWKS document, the compact JWS header, its payload over the raw
 * body, and a sandbox's own kid.
 * Checked from the contract's words: HMAC v1 recomputed with the secret the test set, JWS verified against the
 * service's own JWKS document.
 */
import type { JWK } from 'jose';
import { test, type ServiceFixtures } from './fixtures.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { header } from '../../judge/service/journal.ts';
import { JWS_PATTERN, checkJws, jwsPayloadProblem } from './areas/signatures.ts';
import { threeEvents } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags, type ClauseId } from '../../spec/index.ts';
import { callbackName as what } from './areas/event-names.ts';
import { serviceJwks, verifiedWords } from './areas/service-jwks.ts';

/**
 * The three events of one conversation of a workspace in JWKS mode, and the service's JWKS document; `clause`
 * judges the document's serving (serviceJwks), else it is a precondition.
 */
async function eventsInJwksMode(
  { makeWorkspace, driver, svc }: Pick<ServiceFixtures, 'makeWorkspace' | 'driver' | 'svc'>,
  clause?: ClauseId,
): Promise<{ events: JournalEntry[]; jwks: { keys: JWK[] } }> {
  driver.requireCapability('signing-jwks');
  const ws = await makeWorkspace({ signing: { mode: 'jwks' }, facts: false });
  const events = await threeEvents(ws, driver, 'sig');
  return { events, jwks: await serviceJwks(svc, clause) };
}

test.describe('JWKS mode', () => {
  test(
    'the service serves a standard JWKS document with a keys array holding every kid it signs with (SIGN-9)',
    { tag: clauseTags('SIGN-9') },
    async ({ makeWorkspace, driver, svc }) => {
      const { events, jwks } = await eventsInJwksMode({ makeWorkspace, driver, svc }, 'SIGN-9');
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
      const { events, jwks } = await eventsInJwksMode({ makeWorkspace, driver, svc });
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
      const { events, jwks } = await eventsInJwksMode({ makeWorkspace, driver, svc });
      for (const e of events) {
        const v = await checkJws(e, jwks);
        // What the payload holds is SIGN-8's; that it is an ES256 JWS verifying with a key of the document is SIGN-7's
        // and SIGN-9's.
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
