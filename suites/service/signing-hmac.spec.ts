/**
 * HMAC signing of callbacks (5.2): the header's form, v1 over t and the raw body, every event signed, t the
 * sending time, a sandbox's own secret and a rotation.
 * Checked from the contract's words: HMAC v1 recomputed with the secret the test set, JWS verified against the
 * service's own JWKS document.
 */
import { randomBytes } from 'node:crypto';
import { test } from './fixtures.ts';
import { header } from '../../judge/service/journal.ts';
import { HMAC_HEADER_PATTERN, SEND_SKEW_SECONDS, checkHmac, hmacSignerOf, tNearArrival } from './areas/signatures.ts';
import { runEveryEvent, threeEvents } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { callbackName as what } from './areas/event-names.ts';

const newSecret = () => `test-only-hmac-${randomBytes(16).toString('hex')}`;

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
