import { test, expect } from '@playwright/test';
import Fastify from 'fastify';
import { generateSigningKey, signHmac, signJws, type JWK } from '../../../protocol/index.ts';
import { MockHost, type SigningConfig } from '../../../mock-host/index.ts';
import { TEST_ONLY_SECRET, TEST_ONLY_SECRET_2, hmacHeader, lcBody, lcHeaders, nowSeconds, send } from './helpers.ts';
import { clauseTags } from '../../../spec/index.ts';

const body = lcBody('onStart');

async function hostWith(signing: SigningConfig, enforce = false): Promise<MockHost> {
  return MockHost.start({
    routes: [
      { kind: 'lifecycle', path: '/hooks', signing, enforce },
      { kind: 'facts', path: '/facts', signing },
    ],
  });
}

async function verdictOf(host: MockHost, signature: string | undefined, payload = body, sentBody = body) {
  const headers = lcHeaders(payload, signature === undefined ? {} : { signature });
  const r = await send(host.url, { path: '/hooks', headers, body: sentBody });
  const [e] = await host.journal.waitFor(
    { completed: true, predicate: (x) => x.seq === host.journal.entries().at(-1)!.seq },
    { timeoutMs: 5000 },
  );
  return { status: r.status, entry: e! };
}

test.describe('HMAC mode', () => {
  let host: MockHost;
  test.beforeEach(async () => {
    host = await hostWith({ mode: 'hmac', secrets: [TEST_ONLY_SECRET] });
  });
  test.afterEach(async () => host.close());

  test(
    'each HMAC verdict is recorded with its reason: valid, invalid, stale, future, malformed, absent (SIGN-11, SIGN-12, HOST-5, HOST-6, HOST-10)',
    { tag: clauseTags('SIGN-11', 'SIGN-12', 'HOST-5', 'HOST-6', 'HOST-10') },
    async () => {
      const now = nowSeconds();
      const cases: Array<[string | undefined, string]> = [
        [hmacHeader(body), 'valid'],
        [hmacHeader(body, 'test-only-wrong-secret'), 'invalid'],
        [hmacHeader(body, TEST_ONLY_SECRET, now - 400), 'stale'],
        [hmacHeader(body, TEST_ONLY_SECRET, now + 400), 'future'],
        ['v1=abc,t=x', 'malformed'],
        [undefined, 'absent'],
      ];
      for (const [sig, want] of cases) {
        const { status, entry } = await verdictOf(host, sig);
        expect(status, `default mode records and answers 200 (${want})`).toBe(200);
        expect(entry.signature.verdict).toBe(want);
        expect(entry.signature.mode).toBe('hmac');
        expect(entry.signature.reason.length).toBeGreaterThan(5);
        expect(JSON.stringify(entry)).not.toContain(TEST_ONLY_SECRET);
      }
      const stale = host.journal.entries()[2]!;
      expect(stale.signature.t).toBe(now - 400);
      expect(stale.signature.skewSeconds).toBeGreaterThanOrEqual(399);
    },
  );

  test(
    'a body changed after signing is invalid: verification uses the raw bytes (HOST-4)',
    { tag: clauseTags('HOST-4') },
    async () => {
      const sig = hmacHeader(body);
      const reserialized = JSON.stringify(JSON.parse(body), null, 1);
      const { entry } = await verdictOf(host, sig, body, reserialized);
      expect(entry.signature.verdict).toBe('invalid');
    },
  );

  test(
    'with enforce, a failed verification is answered 401 before any script (HOST-3)',
    { tag: clauseTags('HOST-3') },
    async () => {
      const h = await hostWith({ mode: 'hmac', secrets: [TEST_ONLY_SECRET] }, true);
      try {
        h.script({ id: 'ok', match: {}, steps: [{ action: 'respond', status: 202 }], then: 'repeat-last' });
        expect((await verdictOf(h, hmacHeader(body, 'test-only-wrong-secret'))).status).toBe(401);
        expect((await verdictOf(h, undefined)).status).toBe(401);
        const good = await verdictOf(h, hmacHeader(body));
        expect(good.status).toBe(202);
        expect(h.journal.entries()[0]!.unmatched).toContain("enforce: signature verdict 'invalid'");
      } finally {
        await h.close();
      }
    },
  );

  test(
    'the facts GET is verified over "GET " + the request target (SIGN-6)',
    { tag: clauseTags('SIGN-6') },
    async () => {
      const target = '/facts?endUserHandle=user%201';
      const sig = signHmac({ secret: TEST_ONLY_SECRET, t: nowSeconds(), payload: `GET ${target}` });
      await send(host.url, {
        method: 'GET',
        path: target,
        headers: { accept: 'application/json', 'x-service-signature': sig },
      });
      const [e] = await host.journal.waitFor({ kind: 'facts', completed: true }, { timeoutMs: 5000 });
      expect(e!.signature.verdict).toBe('valid');
      expect(e!.endUserHandle).toBe('user 1');
    },
  );
});

test(
  'during a rotation either secret verifies, and the entry says which one matched (HOST-9, SIGN-14)',
  { tag: clauseTags('HOST-9', 'SIGN-14') },
  async () => {
    const host = await hostWith({ mode: 'hmac', secrets: [TEST_ONLY_SECRET, TEST_ONLY_SECRET_2] });
    try {
      const a = await verdictOf(host, hmacHeader(body, TEST_ONLY_SECRET));
      const b = await verdictOf(host, hmacHeader(body, TEST_ONLY_SECRET_2));
      expect([a.entry.signature.verdict, b.entry.signature.verdict]).toEqual(['valid', 'valid']);
      expect([a.entry.signature.secretIndex, b.entry.signature.secretIndex]).toEqual([0, 1]);
    } finally {
      await host.close();
    }
  },
);

test.describe('JWKS mode', () => {
  test(
    'each JWS verdict is recorded: valid, invalid, stale, future, unknown-kid, malformed, absent (SIGN-7, SIGN-8, HOST-7, HOST-8)',
    { tag: clauseTags('SIGN-7', 'SIGN-8', 'HOST-7', 'HOST-8') },
    async () => {
      const key = await generateSigningKey('test-only-kid-1');
      const other = await generateSigningKey('test-only-kid-1'); // same kid, different key: forged
      const stranger = await generateSigningKey('test-only-kid-9');
      const host = await hostWith({ mode: 'jwks', jwks: { keys: [key.publicJwk] } });
      try {
        const now = nowSeconds();
        const jws = (k: typeof key, t = now) => signJws({ privateKey: k.privateKey, kid: k.kid, t, payload: body });
        const cases: Array<[string | undefined, string]> = [
          [await jws(key), 'valid'],
          [await jws(other), 'invalid'],
          [await jws(key, now - 400), 'stale'],
          [await jws(key, now + 400), 'future'],
          [await jws(stranger), 'unknown-kid'],
          ['not-a-jws', 'malformed'],
          [undefined, 'absent'],
        ];
        for (const [sig, want] of cases) {
          const { entry } = await verdictOf(host, sig);
          expect(entry.signature.verdict, `case ${want}`).toBe(want);
          expect(entry.signature.mode).toBe('jwks');
        }
        expect(host.journal.entries()[0]!.signature.kid).toBe('test-only-kid-1');
      } finally {
        await host.close();
      }
    },
  );

  test(
    'an unknown kid makes the host refetch the JWKS document, so a rotated key verifies (HOST-8, SIGN-9)',
    { tag: clauseTags('HOST-8', 'SIGN-9') },
    async () => {
      const k1 = await generateSigningKey('test-only-rot-1');
      const k2 = await generateSigningKey('test-only-rot-2');
      let keys: JWK[] = [k1.publicJwk];
      let served = 0;
      const jwksServer = Fastify();
      jwksServer.get('/.well-known/service/jwks.json', async () => {
        served++;
        return { keys };
      });
      await jwksServer.listen({ port: 0, host: '127.0.0.1' });
      const addr = jwksServer.server.address() as { port: number };
      const jwksUrl = `http://127.0.0.1:${addr.port}/.well-known/service/jwks.json`;
      const host = await hostWith({ mode: 'jwks', jwksUrl });
      try {
        const t = nowSeconds();
        expect(
          (await verdictOf(host, await signJws({ privateKey: k1.privateKey, kid: k1.kid, t, payload: body }))).entry
            .signature.verdict,
        ).toBe('valid');
        expect(
          (await verdictOf(host, await signJws({ privateKey: k1.privateKey, kid: k1.kid, t, payload: body }))).entry
            .signature.verdict,
        ).toBe('valid');
        expect(served).toBe(1); // cached
        keys = [k1.publicJwk, k2.publicJwk]; // the service rotates
        expect(
          (await verdictOf(host, await signJws({ privateKey: k2.privateKey, kid: k2.kid, t, payload: body }))).entry
            .signature.verdict,
        ).toBe('valid');
        expect(served).toBe(2);
        expect(host.jwksCache(jwksUrl)!.fetchCount).toBe(2);
      } finally {
        await host.close();
        await jwksServer.close();
      }
    },
  );

  test(
    'a JWS header over a full 500-key bulk page (far over 16 KB) is accepted and verified (PITFALLS, SIGN-8)',
    { tag: clauseTags('SIGN-8') },
    async () => {
      const key = await generateSigningKey('test-only-big');
      const host = await hostWith({ mode: 'jwks', jwks: { keys: [key.publicJwk] } });
      try {
        const keys = Array.from({ length: 500 }, (_, i) => `key-${String(i).padStart(5, '0')}-${'x'.repeat(40)}`);
        const big = lcBody('config.bulk_deleted', 9, { count: 500, page: 1, totalPages: 1, keys });
        const sig = await signJws({ privateKey: key.privateKey, kid: key.kid, t: nowSeconds(), payload: big });
        expect(sig.length).toBeGreaterThan(16 * 1024);
        const { status, entry } = await verdictOf(host, sig, big, big);
        expect(status).toBe(200);
        expect(entry.signature.verdict).toBe('valid');
      } finally {
        await host.close();
      }
    },
  );
});
