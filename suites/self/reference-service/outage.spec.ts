/**
 * The driver's outage switch (capability outage): what the ERR-4 and ERR-5 checks rely on. Only the
 * switched workspace's contract routes fail, before any credential check, until cleared.
 */
import { test, expect } from '@playwright/test';
import { stage, type Stage } from './host.ts';
import { clauseTags } from '../../../spec/index.ts';

let s: Stage;
test.beforeEach(async () => {
  s = await stage();
});
test.afterEach(async () => {
  await s.close();
});

const ERROR_KEYS = ['error', 'path', 'status', 'timestamp'];

test(
  'an outage answers every contract route of its workspace with the framework default body, even without credentials, until cleared (ERR-4 ERR-5 ERR-1)',
  { tag: clauseTags('ERR-4', 'ERR-5', 'ERR-1') },
  async () => {
    const key = s.ws.workspaceKey;
    const bearer = { authorization: `Bearer ${s.ws.bearerToken}` };
    const routes: Array<[string, string, unknown?]> = [
      ['POST', `/api/${key}/embed-tokens`, { endUserHandle: 'u-1' }],
      ['GET', `/api/${key}/endpoints/profile/data/u-1`],
      ['PUT', `/api/${key}/endpoints/profile/data/u-1`, { data: {} }],
      ['GET', `/api/${key}/upload/status/nope`],
    ];
    for (const status of [500, 503] as const) {
      expect((await s.driver('POST', `/workspaces/${key}/outage`, { status })).json).toEqual({ status });
      for (const [method, path, body] of routes) {
        const r = await s.api(method, path, body, bearer);
        expect(r.status, `${method} ${path}`).toBe(status);
        expect(Object.keys(r.json).sort()).toEqual(ERROR_KEYS);
        expect(r.json).toMatchObject({ status, path });
      }
      // Before any credential check: the status is the outage's, not a 401.
      expect((await s.api('GET', `/api/${key}/endpoints/profile/data/u-1`)).status).toBe(status);
    }
    expect((await s.driver('POST', `/workspaces/${key}/outage`, { status: null })).json).toEqual({ status: null });
    expect((await s.api('GET', `/api/${key}/endpoints/profile/data/u-1`, undefined, bearer)).status).toBe(404);
  },
);

test('an outage leaves other workspaces, the JWKS route and the driver alone', async () => {
  const other = await s.driver('POST', '/workspaces', {});
  await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/outage`, { status: 503 });
  expect(
    (
      await s.api('GET', `/api/${other.json.workspaceKey}/endpoints/profile/data/u-1`, undefined, {
        authorization: `Bearer ${other.json.bearerToken}`,
      })
    ).status,
  ).toBe(404);
  expect((await s.api('GET', '/.well-known/service/jwks.json')).status).toBe(200);
  expect((await s.driver('GET', '/capabilities')).json.capabilities).toContain('outage');
});

test('the outage switch takes 500, 503 or null only, on a known workspace', async () => {
  for (const status of [200, 502, '503', undefined]) {
    const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/outage`, status === undefined ? {} : { status });
    expect(r.status, String(status)).toBe(400);
    expect(r.json).toMatchObject({ error: 'bad-request', field: 'status' });
  }
  expect((await s.driver('POST', '/workspaces/no-such-ws/outage', { status: 500 })).status).toBe(404);
});
