import { test, expect } from '@playwright/test';
import { connectServiceSide, startServiceSide } from '../../host/index.ts';
import type { CcsErrorCode } from '../../../spec/index.ts';

/**
 * The service side of a target run is served once and shared by every worker over its control
 * path: what one worker announces the data API serves, every worker sees the journal, every worker
 * signs with the same keys, published before the first callback, and a key a test adds (a rotation)
 * joins them.
 */
const auth = { authorization: 'Bearer tok-test-only' };

test('workers sharing one service side announce keys, see every read, sign with the keys published at its start and add a rotated key', async () => {
  const s = await startServiceSide({
    workspaceKey: 'ws-1',
    bearerToken: 'tok-test-only',
    controlToken: 'ctl-test-only',
  });
  try {
    expect(s.controlUrl).toBe(`${s.url}/__ccs/control/ctl-test-only`);
    const [a, b] = await Promise.all([connectServiceSide(s.controlUrl ?? ''), connectServiceSide(s.controlUrl ?? '')]);
    expect(a.url).toBe(s.url);
    await a.announce('u-a', ['k1']);
    await b.script('u-b', 'k2', [409]);
    await b.announce('u-b', ['k2']);
    // A read that arrives while the worker waits (long poll), and one already journalled.
    const waiting = a.waitForRead((r) => r.endUserHandle === 'u-a' && r.serviceKey === 'k1', 5_000);
    expect((await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-a/k1`, { headers: auth })).status).toBe(200);
    expect((await waiting)?.status).toBe(200);
    expect((await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-b/k2`, { headers: auth })).status).toBe(409);
    expect((await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-b/k2`, { headers: auth })).status).toBe(200);
    const second = await b.waitForRead((r) => r.endUserHandle === 'u-b' && r.status === 200, 5_000);
    expect(second?.serviceKey).toBe('k2');
    expect(b.reads.map((r) => [r.endUserHandle, r.status])).toEqual([
      ['u-a', 200],
      ['u-b', 409],
      ['u-b', 200],
    ]);
    expect(await a.waitForRead((r) => r.endUserHandle === 'nobody', 50)).toBeUndefined();

    // One set of keys for every worker (a restarted one too): the key and the decoy published, the stranger not.
    const [ka, kb] = await Promise.all([a.runKeys(), b.runKeys()]);
    expect(ka?.key.kid).toBe(kb?.key.kid);
    expect(ka?.stranger.kid).toBe(kb?.stranger.kid);
    // The position the server journalled at publication: a fetch after it, by whoever, served the key (HOST-8).
    const published = await a.addJwk({ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'rotated-a' });
    const doc = (await (await fetch(s.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    expect(doc.keys.map((k) => k.kid)).toEqual([ka?.key.kid, ka?.decoy.kid, 'rotated-a']);
    expect((await a.waitForJwksFetch(published, 5_000))?.seq).toBeGreaterThan(published);
    // Another worker sees the same fetch against the same position, and a later publication's position is later.
    expect(await b.waitForJwksFetch(published, 5_000)).toBeDefined();
    expect(await b.addJwk({ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'rotated-b' })).toBeGreaterThan(published);
    expect(await a.waitForJwksFetch(b.jwksFetches.at(-1)?.seq ?? 0, 50)).toBeUndefined();

    // A worker's view closing leaves the shared server serving the others.
    await a.close();
    expect((await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-a/k1`, { headers: auth })).status).toBe(200);
  } finally {
    await s.close();
  }
});

test('the control path needs its token, and a service side without one has no control path', async () => {
  const shared = await startServiceSide({
    workspaceKey: 'ws-1',
    bearerToken: 'tok-test-only',
    controlToken: 'ctl-test-only',
  });
  const plain = await startServiceSide({ workspaceKey: 'ws-1', bearerToken: 'tok-test-only' });
  try {
    expect((await fetch(`${shared.url}/__ccs/control/wrong/journal`)).status).toBe(404);
    expect((await fetch(`${plain.url}/__ccs/control/ctl-test-only/journal`)).status).toBe(404);
    expect(plain.controlUrl).toBeUndefined();
    await expect(connectServiceSide(`${plain.url}/__ccs/control/ctl-test-only`)).rejects.toMatchObject({
      code: 'HOST_SERVICE_SIDE_UNREACHABLE' satisfies CcsErrorCode,
    });
  } finally {
    await Promise.all([shared.close(), plain.close()]);
  }
});

test('a read hold scripted over the control path holds that many reads of the key, journalled on arrival', async () => {
  const options = { workspaceKey: 'ws-1', bearerToken: 'tok-test-only', controlToken: 'ctl-test-only' };
  const s = await startServiceSide(options);
  try {
    const a = await connectServiceSide(s.controlUrl ?? '');
    await a.announce('u-h', ['k']);
    await a.script('u-h', 'k', [409], { ms: 1_500, reads: 1 });
    const url = `${s.url}/api/ws-1/endpoints/settings/data/u-h/k`;
    const started = performance.now();
    const first = fetch(url, { headers: auth });
    // Journalled when it arrives, before its answer (PITFALLS: record on arrival).
    expect((await a.waitForRead((r) => r.endUserHandle === 'u-h', 5_000))?.status).toBe(409);
    expect((await first).status).toBe(409);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_490);
    const again = performance.now();
    expect((await fetch(url, { headers: auth })).status).toBe(200);
    expect(performance.now() - again).toBeLessThan(1_490);
  } finally {
    await s.close();
  }
});

test("a shared service side with a sandbox serves its records under the sandbox's own workspaceKey, and its own kid in the one document, to every worker", async () => {
  const s = await startServiceSide({
    workspaceKey: 'ws-1',
    sandboxWorkspaceKey: 'sb-1',
    bearerToken: 'tok-test-only',
    controlToken: 'ctl-test-only',
  });
  try {
    const [a, b] = await Promise.all([connectServiceSide(s.controlUrl ?? ''), connectServiceSide(s.controlUrl ?? '')]);
    // One sandbox key for every worker, under a kid of its own, served beside production's (5.2 "Environments").
    const [ka, kb] = await Promise.all([a.runKeys(), b.runKeys()]);
    expect(ka?.sandbox?.kid).toBeDefined();
    expect(kb?.sandbox?.kid).toBe(ka?.sandbox?.kid);
    expect(ka?.sandbox?.kid).not.toBe(ka?.key.kid);
    const doc = (await (await fetch(s.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    expect(doc.keys.map((k) => k.kid)).toContain(ka?.sandbox?.kid);
    // A key one worker announced for the sandbox is read over the sandbox's path, and only there (section 7).
    await a.announce('u-s', ['k-s'], 'sb-1');
    expect((await fetch(`${s.url}/api/sb-1/endpoints/settings/data/u-s/k-s`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-s/k-s`, { headers: auth })).status).toBe(404);
    const read = await b.waitForRead((r) => r.endUserHandle === 'u-s' && r.status === 200, 5_000);
    expect(read?.serviceKey).toBe('k-s');
  } finally {
    await s.close();
  }
});
