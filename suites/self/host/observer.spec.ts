/**
 * The service side as an observer (suites/host/harness/observer.ts): every data API request is
 * judged, on the test that announced its handle; a request of another test's handle only on what
 * needs no attribution (its Bearer token, its path).
 */
import { test, expect } from '@playwright/test';
import { connectServiceSide, observe, startServiceSide, type Violation } from '../../host/index.ts';

const ids = (vs: readonly Violation[]): string[] => vs.map((v) => v.id).sort();

const JUDGED =
  'the observer judges every data API read of a test: the token, the path, the keys named, ' + 'no repeat of a 401';
test(JUDGED, async () => {
  const s = await startServiceSide({ workspaceKey: 'ws-1', bearerToken: 'tok-test-only' });
  try {
    const observer = observe(s);
    const me = test.info().testId;
    const auth = { authorization: 'Bearer tok-test-only' };
    const read = (handle: string, key: string, headers: Record<string, string> = auth) =>
      fetch(`${s.url}/api/ws-1/endpoints/settings/data/${handle}/${key}`, { headers });
    await s.announce('u-1', ['k1', 'k2', 'k3']);
    expect((await read('u-1', 'k1')).status).toBe(200);
    expect(await observer.collect(me)).toEqual([]);

    await read('u-1', 'k9'); // a key no callback named
    await read('u-1', 'k2', {}); // no token
    await read('u-1', 'k%%26'); // a '%' left raw: the segment does not decode
    expect(ids(await observer.collect(me))).toEqual([
      'observe.read-announced-key',
      'observe.read-path-well-formed',
      'observe.read-with-token',
    ]);

    await s.script('u-1', 'k1', [409]);
    expect((await read('u-1', 'k1')).status).toBe(409);
    expect((await read('u-1', 'k1', { authorization: 'Bearer wrong' })).status).toBe(401);
    const retry = await observer.collect(me);
    expect(ids(retry)).toEqual(['observe.retry-with-token']);
    expect(retry[0]!.clause).toBe('HOST-21');
    // Evidence names the request, never the token.
    expect(JSON.stringify(retry)).not.toContain('tok-test-only');

    await s.script('u-1', 'k3', [401]);
    expect((await read('u-1', 'k3')).status).toBe(401);
    expect((await read('u-1', 'k3')).status).toBe(200);
    expect(ids(await observer.collect(me))).toEqual(['observe.no-retry-4xx']);
    // A later callback naming the key again (HOST-20) makes the next read no retry.
    await s.script('u-1', 'k3', [401]);
    expect((await read('u-1', 'k3')).status).toBe(401);
    await s.announce('u-1', ['k3']);
    expect((await read('u-1', 'k3')).status).toBe(200);
    expect(await observer.collect(me)).toEqual([]);
  } finally {
    await s.close();
  }
});

const OTHERS =
  "a read of another test's handle is judged only on its token and its path, " + "never on that test's keys or retries";
test(OTHERS, async () => {
  const s = await startServiceSide({ workspaceKey: 'ws-1', bearerToken: 'tok-test-only' });
  try {
    const observer = observe(s);
    const auth = { authorization: 'Bearer tok-test-only' };
    await s.announce('u-2', ['k1']);
    await s.script('u-2', 'k1', [401]);
    await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-2/k1`, { headers: auth });
    await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-2/k1`, { headers: auth });
    await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-2/other`, { headers: auth });
    await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-unknown/k1`);
    const seen = await observer.collect('another-test');
    expect(ids(seen)).toEqual(['observe.read-with-token']);
    expect(seen[0]!.note).toContain('not attributable');
  } finally {
    await s.close();
  }
});

const SHARED =
  'through a service side shared by workers, each worker judges the reads of its own tests, ' +
  "ordered by the server's journal";
test(SHARED, async () => {
  const shared = { workspaceKey: 'ws-1', bearerToken: 'tok-test-only', controlToken: 'ctl-test-only' };
  const s = await startServiceSide(shared);
  try {
    const [a, b] = await Promise.all([connectServiceSide(s.controlUrl ?? ''), connectServiceSide(s.controlUrl ?? '')]);
    const [oa, ob] = [observe(a), observe(b)];
    const me = test.info().testId;
    const url = (h: string, k: string) => `${s.url}/api/ws-1/endpoints/settings/data/${h}/${k}`;
    const auth = { authorization: 'Bearer tok-test-only' };
    await a.script('u-a', 'k1', [409]);
    await a.announce('u-a', ['k1']);
    await b.announce('u-b', ['k2']);
    expect((await fetch(url('u-a', 'k1'), { headers: auth })).status).toBe(409);
    expect((await fetch(url('u-a', 'k1'))).status).toBe(401); // the retry without its token
    expect((await fetch(url('u-b', 'k2'), { headers: auth })).status).toBe(200);
    expect((await fetch(url('u-b', 'k9'), { headers: auth })).status).toBe(404);
    const seenByA = await oa.collect(me);
    expect(ids(seenByA)).toEqual(['observe.retry-with-token']);
    // Worker b announced u-b: the key no callback named is its test's; u-a's retry's token needs no owner.
    const seenByB = await ob.collect(me);
    expect(ids(seenByB)).toEqual(['observe.read-announced-key', 'observe.retry-with-token']);
  } finally {
    await s.close();
  }
});

const SAME_HANDLE =
  'a handle two workers both use (a generated value such as "NaN") may be read for a key either named: ' +
  'a record the shared service side serves was named by a callback of the run (HOST-13)';
test(SAME_HANDLE, async () => {
  const s = await startServiceSide({
    workspaceKey: 'ws-1',
    bearerToken: 'tok-test-only',
    controlToken: 'ctl-test-only',
  });
  try {
    const [a, b] = await Promise.all([connectServiceSide(s.controlUrl ?? ''), connectServiceSide(s.controlUrl ?? '')]);
    const [oa, ob] = [observe(a), observe(b)];
    const me = test.info().testId;
    await a.announce('NaN', ['k-a']);
    await b.announce('NaN', ['k-b']);
    const read = (k: string) =>
      fetch(`${s.url}/api/ws-1/endpoints/settings/data/NaN/${k}`, {
        headers: { authorization: 'Bearer tok-test-only' },
      });
    expect((await read('k-b')).status).toBe(200);
    expect((await read('k-a')).status).toBe(200);
    expect((await read('made-up')).status).toBe(404);
    // Each worker's judge sees all three reads of its user; only the key nobody named fails.
    expect(ids(await oa.collect(me))).toEqual(['observe.read-announced-key']);
    expect(ids(await ob.collect(me))).toEqual(['observe.read-announced-key']);
  } finally {
    await s.close();
  }
});

const LOOP = 'retries of a read answered 409 in a loop (8 within 1 s) fail HOST-21 once, a single retry does not';
test(LOOP, async () => {
  const s = await startServiceSide({ workspaceKey: 'ws-1', bearerToken: 'tok-test-only' });
  try {
    const observer = observe(s);
    const me = test.info().testId;
    const read = (key: string) =>
      fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-3/${key}`, {
        headers: { authorization: 'Bearer tok-test-only' },
      });
    await s.announce('u-3', ['k1', 'k2']);
    await s.script(
      'u-3',
      'k1',
      Array.from({ length: 12 }, () => 409),
    );
    for (let i = 0; i < 12; i++) await read('k1');
    await s.script('u-3', 'k2', [503]);
    await read('k2');
    await read('k2');
    const seen = await observer.collect(me);
    expect(ids(seen)).toEqual(['observe.retry-backoff']);
    expect(seen[0]!.clause).toBe('HOST-21');
  } finally {
    await s.close();
  }
});

const KEY_SOURCE =
  'the observer fails HOST-8 on a request under /.well-known/ other than a GET of the key source, and a rotation ' +
  'waits only for a fetch of the key source';
test(KEY_SOURCE, async () => {
  const s = await startServiceSide({ workspaceKey: 'ws-1', bearerToken: 'tok-test-only' });
  try {
    const observer = observe(s);
    expect((await fetch(s.jwksUrl)).status).toBe(200);
    expect(await observer.collect('a-test')).toEqual([]);
    const before = s.jwksFetches.at(-1)!.seq;
    expect((await fetch(`${s.url}/.well-known/jwks.json`)).status).toBe(404);
    expect((await fetch(s.jwksUrl, { method: 'POST' })).status).toBe(405);
    const seen = await observer.collect('a-test');
    expect(seen.map((v) => `${v.clause} ${v.id}`)).toEqual([
      'HOST-8 observe.jwks-key-source',
      'HOST-8 observe.jwks-key-source',
    ]);
    expect(seen[0]!.request).toContain('GET /.well-known/jwks.json, answered 404');
    expect(await s.waitForJwksFetch(before, 0)).toBeUndefined();
  } finally {
    await s.close();
  }
});
