/**
 * The mock host's signature verdicts: the protocol verifier's for every mode, signing off included, and with
 * enforce the verdict that decides the 401 reached on the request path.
 */
import { test, expect } from '@playwright/test';
import {
  SIGNATURE_HEADER,
  generateSigningKey,
  signJws,
  verifyCallback,
  type VerifierConfig,
} from '../../../protocol/index.ts';
import { MockHost, type SigningConfig } from '../../../mock-host/index.ts';
import { TEST_ONLY_SECRET, hmacHeader, lcBody, lcHeaders, nowSeconds, send } from './helpers.ts';
import { clauseTags } from '../../../spec/index.ts';

const body = lcBody('onComplete', 70);

test(
  'the mock host gives every signature the verdict of the protocol verifier, signing off included (SIGN-1, HOST-5, HOST-7)',
  { tag: clauseTags('SIGN-1', 'HOST-5', 'HOST-7') },
  async () => {
    const key = await generateSigningKey('test-only-one-verifier');
    const configs: Array<[SigningConfig, VerifierConfig]> = [
      [{ mode: 'none' }, { mode: 'none' }],
      [
        { mode: 'hmac', secrets: [TEST_ONLY_SECRET] },
        { mode: 'hmac', secrets: [TEST_ONLY_SECRET] },
      ],
      [
        { mode: 'jwks', jwks: { keys: [key.publicJwk] } },
        { mode: 'jwks', keys: { keys: [key.publicJwk] } },
      ],
    ];
    const t = nowSeconds();
    const headers: Array<string | undefined> = [
      undefined,
      hmacHeader(body, TEST_ONLY_SECRET, t),
      hmacHeader(body, 'test-only-wrong-secret', t),
      hmacHeader(body, TEST_ONLY_SECRET, t - 400),
      await signJws({ privateKey: key.privateKey, kid: key.kid, t, payload: body }),
      't=1,v1=00',
      'not-a-signature',
    ];
    for (const [signing, config] of configs) {
      const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks', signing }] });
      try {
        for (const sig of headers) {
          await send(host.url, {
            path: '/hooks',
            headers: lcHeaders(body, sig === undefined ? {} : { signature: sig }),
            body,
          });
          const e = host.journal.entries().at(-1)!;
          const expected = await verifyCallback({
            headers: sig === undefined ? {} : { [SIGNATURE_HEADER]: sig },
            rawBody: Buffer.from(body),
            config,
            now: Math.floor(e.arrival.wallMs / 1000),
          });
          expect(
            e.signature,
            `${signing.mode} mode, header ${sig === undefined ? 'absent' : sig.slice(0, 20)}`,
          ).toEqual(expected);
        }
      } finally {
        await host.close();
      }
    }
  },
);

test(
  'a signature header sent while the route has signing off is malformed, not an unknown kid (SIGN-1)',
  { tag: clauseTags('SIGN-1') },
  async () => {
    const host = await MockHost.start({
      routes: [
        { kind: 'lifecycle', path: '/off', signing: { mode: 'none' } },
        { kind: 'lifecycle', path: '/unset' },
      ],
    });
    try {
      for (const path of ['/off', '/unset', '/nowhere'])
        await send(host.url, { path, headers: lcHeaders(body, { signature: 't=1,v1=00' }), body });
      expect(host.journal.entries().map((e) => e.signature.verdict)).toEqual(['malformed', 'malformed', 'malformed']);
      expect(host.journal.entries()[0]!.signature.reason).toContain('signing is off');
    } finally {
      await host.close();
    }
  },
);

test(
  'with enforce, the verdict that decides the 401 is reached on the request path and recorded (HOST-3)',
  { tag: clauseTags('HOST-3') },
  async () => {
    const host = await MockHost.start({
      routes: [
        { kind: 'lifecycle', path: '/hooks', signing: { mode: 'hmac', secrets: [TEST_ONLY_SECRET] }, enforce: true },
      ],
    });
    try {
      expect(
        (
          await send(host.url, {
            path: '/hooks',
            headers: lcHeaders(body, { signature: hmacHeader(body, 'test-only-wrong-secret') }),
            body,
          })
        ).status,
      ).toBe(401);
      expect(
        (await send(host.url, { path: '/hooks', headers: lcHeaders(body, { signature: hmacHeader(body) }), body }))
          .status,
      ).toBe(200);
      expect(host.journal.entries().map((e) => e.signature.verdict)).toEqual(['invalid', 'valid']);
    } finally {
      await host.close();
    }
  },
);
