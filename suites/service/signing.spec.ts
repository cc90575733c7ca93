/**
 * Callback signing (5.2): signing off, exactly one mode at a time, and the facts GET signed over its request line.
 * Checked from the contract's words: HMAC v1 recomputed with the secret the test set, JWS verified against the
 * service's own JWKS document.
 */
import { test } from './fixtures.ts';
import { header } from '../../judge/service/journal.ts';
import { HMAC_HEADER_PATTERN, JWS_PATTERN, checkJws, hmacSignerOf, jwsPayloadProblem } from './areas/signatures.ts';
import { threeEvents, uniqueHandle } from './areas/scenario.ts';
import { check, precondition } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { callbackName as what } from './areas/event-names.ts';
import { serviceJwks, verifiedWords } from './areas/service-jwks.ts';

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
