import { test, expect } from '@playwright/test';
import Fastify, { type FastifyInstance } from 'fastify';
import { isCcsError } from '../../../spec/index.ts';
import { JwksCache, signJws, verifyJws, type JWK } from '../../../protocol/index.ts';
import { testPrivateJwk, testPublicJwk } from '../../../fixtures/keys/index.ts';
import { tags } from './vectors.ts';

/** A real JWKS server on loopback whose document (or answer) the test changes between requests. */
async function jwksServer(): Promise<{
  url: string;
  app: FastifyInstance;
  state: { keys: JWK[]; status: number; raw?: string; requests: number };
}> {
  const state: { keys: JWK[]; status: number; raw?: string; requests: number } = { keys: [], status: 200, requests: 0 };
  const app = Fastify();
  app.get('/.well-known/service/jwks.json', async (_req, reply) => {
    state.requests += 1;
    reply.code(state.status).header('content-type', 'application/json');
    return state.raw ?? JSON.stringify({ keys: state.keys });
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${address}/.well-known/service/jwks.json`, app, state };
}

const T = 1700000000;
const BODY = '{"event":"onStart","serviceKeys":[]}';

test.describe('JwksCache against a real local JWKS server', () => {
  let server: Awaited<ReturnType<typeof jwksServer>>;
  test.beforeEach(async () => {
    server = await jwksServer();
  });
  test.afterEach(async () => {
    await server.app.close();
  });

  test('the document is fetched once and cached for known kids (HOST-8)', tags('HOST-8'), async () => {
    server.state.keys = [testPublicJwk('production')];
    const cache = new JwksCache({ url: server.url });
    expect(cache.fetchCount).toBe(0);
    expect(await cache.keyFor('ccs-test-only-prod-1')).toBeDefined();
    expect(await cache.keyFor('ccs-test-only-prod-1')).toBeDefined();
    expect(cache.fetchCount).toBe(1);
    expect(server.state.requests).toBe(1);
  });

  test('an unknown kid refetches at once and sees a rotated key (HOST-8)', tags('HOST-8'), async () => {
    server.state.keys = [testPublicJwk('production')];
    const cache = new JwksCache({ url: server.url });
    const prod = testPrivateJwk('production');
    const first = await signJws({ privateKey: prod, kid: prod.kid, t: T, payload: BODY });
    expect((await verifyJws({ header: first, payload: BODY, keys: cache, now: T })).verdict).toBe('valid');
    expect(cache.fetchCount).toBe(1);

    // Rotation: the service now signs with a new kid and publishes it.
    server.state.keys = [testPublicJwk('production'), testPublicJwk('rotated')];
    const rotated = testPrivateJwk('rotated');
    const second = await signJws({ privateKey: rotated, kid: rotated.kid, t: T, payload: BODY });
    expect((await verifyJws({ header: second, payload: BODY, keys: cache, now: T })).verdict).toBe('valid');
    expect(cache.fetchCount).toBe(2);
    // Known again: no further fetch.
    expect((await verifyJws({ header: second, payload: BODY, keys: cache, now: T })).verdict).toBe('valid');
    expect(cache.fetchCount).toBe(2);
  });

  test(
    'a kid absent from the refetched document is unknown-kid, and each miss refetches (HOST-8)',
    tags('HOST-8'),
    async () => {
      server.state.keys = [testPublicJwk('production')];
      const cache = new JwksCache({ url: server.url });
      const rotated = testPrivateJwk('rotated');
      const jws = await signJws({ privateKey: rotated, kid: rotated.kid, t: T, payload: BODY });
      expect((await verifyJws({ header: jws, payload: BODY, keys: cache, now: T })).verdict).toBe('unknown-kid');
      expect(cache.fetchCount).toBe(1); // first lookup fetched the document: no second fetch in the same call
      expect((await verifyJws({ header: jws, payload: BODY, keys: cache, now: T })).verdict).toBe('unknown-kid');
      expect(cache.fetchCount).toBe(2);
    },
  );

  test('minRefetchIntervalMs holds back refetches on unknown kids (HOST-8)', tags('HOST-8'), async () => {
    server.state.keys = [testPublicJwk('production')];
    const cache = new JwksCache({ url: server.url, minRefetchIntervalMs: 60_000 });
    await cache.keyFor('ccs-test-only-prod-1');
    server.state.keys = [testPublicJwk('rotated')];
    expect(await cache.keyFor('ccs-test-only-prod-2')).toBeUndefined();
    expect(cache.fetchCount).toBe(1);
    cache.invalidate();
    expect(await cache.keyFor('ccs-test-only-prod-2')).toBeDefined();
    expect(cache.fetchCount).toBe(2);
  });

  test('concurrent lookups share one fetch (HOST-8)', tags('HOST-8'), async () => {
    server.state.keys = [testPublicJwk('production')];
    const cache = new JwksCache({ url: server.url });
    const keys = await Promise.all(Array.from({ length: 8 }, () => cache.keyFor('ccs-test-only-prod-1')));
    expect(keys.every((k) => k !== undefined)).toBe(true);
    expect(cache.fetchCount).toBe(1);
  });

  test('a document older than maxAgeMs is refetched on the next lookup (HOST-8)', tags('HOST-8'), async () => {
    server.state.keys = [testPublicJwk('production')];
    const cache = new JwksCache({ url: server.url, maxAgeMs: 0 });
    await cache.keyFor('ccs-test-only-prod-1');
    // maxAgeMs 0: any elapsed time makes the document old. Wait (with a deadline) until the clock moves.
    const start = performance.now();
    while (performance.now() === start) await new Promise((r) => setImmediate(r));
    await cache.keyFor('ccs-test-only-prod-1');
    expect(cache.fetchCount).toBe(2);
  });

  test(
    'a failed refresh keeps serving the cached document; with none, the failure is a clear error (HOST-8)',
    tags('HOST-8'),
    async () => {
      server.state.keys = [testPublicJwk('production')];
      const cache = new JwksCache({ url: server.url, maxAgeMs: 0 });
      await cache.keyFor('ccs-test-only-prod-1');
      server.state.status = 503;
      const start = performance.now();
      while (performance.now() === start) await new Promise((r) => setImmediate(r));
      expect(await cache.keyFor('ccs-test-only-prod-1')).toBeDefined();

      const fresh = new JwksCache({ url: server.url });
      const err = await fresh.keyFor('ccs-test-only-prod-1').catch((e: unknown) => e);
      expect(isCcsError(err, 'PROTOCOL_JWKS_FETCH_FAILED')).toBe(true);
      expect(String((err as Error).message)).toContain('503');
    },
  );

  test('a document without a keys array is a clear error (SIGN-9)', tags('SIGN-9'), async () => {
    server.state.raw = JSON.stringify({ kids: [] });
    const err = await new JwksCache({ url: server.url }).keyFor('x').catch((e: unknown) => e);
    expect(isCcsError(err, 'PROTOCOL_JWKS_INVALID')).toBe(true);
    server.state.raw = 'not json';
    const err2 = await new JwksCache({ url: server.url }).keyFor('x').catch((e: unknown) => e);
    expect(isCcsError(err2, 'PROTOCOL_JWKS_INVALID')).toBe(true);
  });

  test('a non-http url is refused at construction', () => {
    expect(() => new JwksCache({ url: 'file:///etc/passwd' })).toThrow(/absolute http\(s\) url/);
  });
});
