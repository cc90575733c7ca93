import { test, expect } from '@playwright/test';
import { startServiceSide } from '../../host/index.ts';

test('the harness data API answers envelopes for announced keys, 401 without the Bearer token, and journals every read', async () => {
  const s = await startServiceSide({ workspaceKey: 'ws-1', bearerToken: 'tok-test-only' });
  try {
    s.announce('u-1', ['k1']);
    const auth = { authorization: 'Bearer tok-test-only' };
    const ok = await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-1/k1`, { headers: auth });
    expect(ok.status).toBe(200);
    expect(Object.keys((await ok.json()) as object).sort()).toEqual([
      'callbackStatus',
      'completedAt',
      'data',
      'errors',
      'warnings',
    ]);
    // UNSPEC-9: configEnd with its slash (encoded) is accepted too.
    expect((await fetch(`${s.url}/api/ws-1/endpoints/%2Fsettings/data/u-1/k1`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-1/k1`)).status).toBe(401);
    expect((await fetch(`${s.url}/api/ws-2/endpoints/settings/data/u-1/k1`, { headers: auth })).status).toBe(403);
    expect((await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-1/nope`, { headers: auth })).status).toBe(404);
    s.script('u-1', 'k1', [409]);
    const held = await fetch(`${s.url}/api/ws-1/endpoints/settings/data/u-1/k1`, { headers: auth });
    expect(held.status).toBe(409);
    expect(((await held.json()) as { status: string }).status).toBe('migrating');
    expect(s.reads.map((r) => r.status)).toEqual([200, 200, 401, 403, 404, 409]);
    expect(s.reads[1]?.configEnd).toBe('/settings');
    const later = await s.waitForRead((r) => r.serviceKey === 'never', 50);
    expect(later).toBeUndefined();
  } finally {
    await s.close();
  }
});

test('the harness JWKS endpoint serves the keys it is given and counts fetches', async () => {
  const s = await startServiceSide({ workspaceKey: 'ws-1', bearerToken: 'tok-test-only' });
  try {
    s.setJwks([{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k' }]);
    const doc = (await (await fetch(s.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    expect(doc.keys.map((k) => k.kid)).toEqual(['k']);
    expect(await s.waitForJwksFetch(0, 1_000)).toBeDefined();
    expect(s.jwksFetches.length).toBe(1);
  } finally {
    await s.close();
  }
});
