/** The reference service's data API (4.2, 7): reads and writes, error statuses, records that do not bind, keys. */
import { test, expect } from '@playwright/test';
import { loadSpec, clauseTags } from '../../../spec/index.ts';
import { expectDefaultError, s, stagePerTest } from './routes-stage.ts';

stagePerTest();

test(
  'data API: Setting and List reads, writes stored PENDING with no event, identity conflict (DATA-1 DATA-2 DATA-3 DATA-4 DATA-12 DATA-13 DATA-14 STATE-2 STATE-3 ENV-1 ENV-3)',
  {
    tag: clauseTags(
      'DATA-1',
      'DATA-2',
      'DATA-3',
      'DATA-4',
      'DATA-12',
      'DATA-13',
      'DATA-14',
      'STATE-2',
      'STATE-3',
      'ENV-1',
      'ENV-3',
    ),
  },
  async () => {
    const auth = { authorization: `Bearer ${s.ws.bearerToken}` };
    const base = `/api/${s.ws.workspaceKey}/endpoints`;
    const w1 = await s.api('POST', `${base}/profile/data/u-1`, { data: { email: 'a@x.io' } }, auth);
    expect(w1.status).toBeLessThan(300);
    const w2 = await s.api('POST', `${base}/profile/data/u-1`, { data: { age: 30 } }, auth);
    expect(w2.json.serviceKey).toBe(w1.json.serviceKey);
    const setting = await s.api('GET', `${base}/profile/data/u-1`, undefined, auth);
    expect(setting.status).toBe(200);
    expect(Object.keys(setting.json).sort()).toEqual(['callbackStatus', 'completedAt', 'data', 'errors', 'warnings']);
    expect(setting.json.callbackStatus).toBe('PENDING');
    expect(setting.json.completedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    expect(setting.json.data.email).toBe('a@x.io');
    const c1 = await s.api('POST', `${base}/contacts/data/u-1`, { data: { email: 'c1@x.io' } }, auth);
    const c2 = await s.api('POST', `${base}/%2Fcontacts/data/u-1`, { data: { email: 'c2@x.io' } }, auth);
    expect(c1.json.serviceKey).not.toBe(c2.json.serviceKey);
    const list = await s.api('GET', `${base}/contacts/data/u-1`, undefined, auth);
    expect(list.json).toHaveLength(2);
    const one = await s.api('GET', `${base}/contacts/data/u-1/${c2.json.serviceKey}`, undefined, auth);
    const spec = loadSpec();
    expect(spec.validateResponse('getRecord', 200, one.json).errors).toEqual([]);
    expect(spec.validateResponse('listRecords', 200, list.json).errors).toEqual([]);
    expect(spec.validateResponse('listRecords', 200, setting.json).errors).toEqual([]);
    expect(one.json.data.email).toBe('c2@x.io');
    const keyed = await s.api(
      'POST',
      `${base}/contacts/data/u-1/${c2.json.serviceKey}`,
      { data: { name: 'Bo' } },
      auth,
    );
    expect(keyed.json.serviceKey).toBe(c2.json.serviceKey);
    const conflict = await s.api('POST', `${base}/contacts/data/u-1`, { data: { email: 'c1@x.io' } }, auth);
    expect(conflict.status).toBe(409);
    expect(conflict.json).toEqual({
      code: 'IDENTITY_CONFLICT',
      identityField: 'email',
      existingKey: c1.json.serviceKey,
    });
    await s.host.expectNone((r) => r.method === 'POST', 300, 'callback after REST writes');
  },
);

test(
  'data API error statuses: 405, 400, 404, 401, 403 and the migration hold (DATA-5 DATA-6 DATA-7 DATA-8 DATA-9 DATA-10 DATA-11 AUTH-1 AUTH-2 FACTS-13 ERR-1 ERR-2)',
  {
    tag: clauseTags(
      'DATA-5',
      'DATA-6',
      'DATA-7',
      'DATA-8',
      'DATA-9',
      'DATA-10',
      'DATA-11',
      'AUTH-1',
      'AUTH-2',
      'FACTS-13',
      'ERR-1',
      'ERR-2',
    ),
  },
  async () => {
    const auth = { authorization: `Bearer ${s.ws.bearerToken}` };
    const base = `/api/${s.ws.workspaceKey}/endpoints`;
    expectDefaultError(
      await s.api('PUT', `${base}/profile/data/u-1`, { data: {} }, auth),
      405,
      `${base}/profile/data/u-1`,
    );
    expectDefaultError(
      await s.api('GET', `${base}/profile/data/org-acme`, undefined, auth),
      400,
      `${base}/profile/data/org-acme`,
    );
    expectDefaultError(
      await s.api('POST', `${base}/profile/data/u-1`, { nodata: 1 }, auth),
      400,
      `${base}/profile/data/u-1`,
    );
    expectDefaultError(
      await s.api('POST', `${base}/profile/data/u-1`, '{"data":', auth),
      400,
      `${base}/profile/data/u-1`,
    );
    expectDefaultError(
      await s.api('GET', `${base}/profile/data/u-9`, undefined, auth),
      404,
      `${base}/profile/data/u-9`,
    );
    expectDefaultError(
      await s.api('GET', `${base}/contacts/data/u-1/sk-nope`, undefined, auth),
      404,
      `${base}/contacts/data/u-1/sk-nope`,
    );
    expectDefaultError(
      await s.api('POST', `${base}/contacts/data/u-1/sk-nope`, { data: {} }, auth),
      404,
      `${base}/contacts/data/u-1/sk-nope`,
    );
    expectDefaultError(
      await s.api('GET', `${base}/nothing/data/u-1`, undefined, auth),
      404,
      `${base}/nothing/data/u-1`,
    );
    expectDefaultError(await s.api('GET', `${base}/facts/data/u-1`, undefined, auth), 404, `${base}/facts/data/u-1`);
    expectDefaultError(await s.api('GET', `${base}/profile/data/u-1`), 401, `${base}/profile/data/u-1`);
    expectDefaultError(
      await s.api('GET', `${base}/profile/data/u-1`, undefined, { authorization: 'Bearer wrong' }),
      401,
      `${base}/profile/data/u-1`,
    );
    expectDefaultError(await s.api('GET', '/no/such/route'), 404, '/no/such/route');
    const other = await s.driver('POST', '/workspaces', {});
    expectDefaultError(
      await s.api('GET', `${base}/profile/data/u-1`, undefined, { authorization: `Bearer ${other.json.bearerToken}` }),
      403,
      `${base}/profile/data/u-1`,
    );
    // A 403/401 is decided before the route's own 404.
    expect((await s.api('GET', `/api/nope/endpoints/profile/data/u-1`, undefined, auth)).status).toBe(403);
    const c = await s.api('POST', `${base}/contacts/data/u-1`, { data: { email: 'h@x.io' } }, auth);
    const c2 = await s.api('POST', `${base}/contacts/data/u-1`, { data: { email: 'i@x.io' } }, auth);
    await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/records/${c.json.serviceKey}/migration-hold`, {
      held: true,
    });
    const held = await s.api('GET', `${base}/contacts/data/u-1/${c.json.serviceKey}`, undefined, auth);
    expect(held.status).toBe(409);
    expect(held.json.status).toBe('migrating');
    expect(typeof held.json.message).toBe('string');
    const list = await s.api('GET', `${base}/contacts/data/u-1`, undefined, auth);
    expect(list.json).toHaveLength(1);
    expect(list.json[0].data.email).toBe('i@x.io');
    expect(c2.status).toBe(201);
  },
);

test(
  'a record that does not bind is read with errors filled, never dropped (ENV-2 ENV-4 ENV-5)',
  { tag: clauseTags('ENV-2', 'ENV-4', 'ENV-5') },
  async () => {
    const auth = { authorization: `Bearer ${s.ws.bearerToken}` };
    const base = `/api/${s.ws.workspaceKey}/endpoints`;
    await s.api('POST', `${base}/contacts/data/u-1`, { data: { email: 42, extra: 'x' } }, auth);
    const list = await s.api('GET', `${base}/contacts/data/u-1`, undefined, auth);
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(1);
    expect(list.json[0].data.email).toBeNull();
    expect(list.json[0].errors.email).toBeTruthy();
    expect(list.json[0].errors.extra).toBeTruthy();
  },
);

test(
  'a production key covers its sandbox and a sandbox key never covers production (AUTH-3 AUTH-4)',
  { tag: clauseTags('AUTH-3', 'AUTH-4') },
  async () => {
    const sb = await s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey });
    expect(sb.json.workspaceKey.startsWith('sb-')).toBe(true);
    const prodAuth = { authorization: `Bearer ${s.ws.bearerToken}` };
    const sbAuth = { authorization: `Bearer ${sb.json.bearerToken}` };
    expect(
      (
        await s.api(
          'POST',
          `/api/${sb.json.workspaceKey}/endpoints/profile/data/u-1`,
          { data: { email: 'x@y.z' } },
          prodAuth,
        )
      ).status,
    ).toBe(201);
    expect((await s.api('GET', `/api/${s.ws.workspaceKey}/endpoints/profile/data/u-1`, undefined, sbAuth)).status).toBe(
      403,
    );
    expect(
      (
        await s.api(
          'POST',
          `/api/${s.ws.workspaceKey}/embed-tokens`,
          { endUserHandle: 'u' },
          { authorization: sb.json.embedAuthorization },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await s.api(
          'POST',
          `/api/${sb.json.workspaceKey}/embed-tokens`,
          { endUserHandle: 'u' },
          { authorization: s.ws.embedAuthorization },
        )
      ).status,
    ).toBe(200);
  },
);
