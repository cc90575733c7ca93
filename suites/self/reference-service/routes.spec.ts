import { test, expect } from '@playwright/test';
import { loadSpec, clauseTags } from '../../../spec/index.ts';
import { stage, type Stage } from './host.ts';

let s: Stage;
test.beforeEach(async () => {
  s = await stage();
});
test.afterEach(async () => {
  await s.close();
});

const ERROR_KEYS = ['error', 'path', 'status', 'timestamp'];
function expectDefaultError(r: { status: number; json: any }, status: number, path: string): void {
  expect(r.status).toBe(status);
  expect(Object.keys(r.json).sort()).toEqual(ERROR_KEYS);
  expect(r.json.status).toBe(status);
  expect(r.json.path).toBe(path);
  expect(typeof r.json.error).toBe('string');
}

test(
  'embed-tokens enforces its 400 rules and accepts the limits exactly (EMBED-1 EMBED-2 EMBED-3 EMBED-4 EMBED-6 EMBED-7 EMBED-8 EMBED-9 EMBED-11)',
  {
    tag: clauseTags('EMBED-1', 'EMBED-2', 'EMBED-3', 'EMBED-4', 'EMBED-6', 'EMBED-7', 'EMBED-8', 'EMBED-9', 'EMBED-11'),
  },
  async () => {
    const path = `/api/${s.ws.workspaceKey}/embed-tokens`;
    const auth = { authorization: s.ws.embedAuthorization };
    const post = (body: unknown) => s.api('POST', path, body, auth);
    const pad = (n: number) => ({ data: { note: 'x'.repeat(n - JSON.stringify({ data: { note: '' } }).length) } });
    expect(JSON.stringify(pad(16384)).length).toBe(16384);
    expect((await post({ endUserHandle: 'u-1' })).status).toBe(200);
    expect((await post({ endUserHandle: 'a'.repeat(255) })).status).toBe(200);
    expect((await post({ endUserHandle: 'u-1', openingContext: pad(16384) })).status).toBe(200);
    expect((await post({ endUserHandle: 'u-1', openingContext: { toolClass: 'no-such-tool' } })).status).toBe(200);
    expect((await post({ endUserHandle: 'u-1', organizationId: 'org_42' })).status).toBe(200);
    for (const bad of [
      {},
      { endUserHandle: 'a'.repeat(256) },
      { endUserHandle: 'org-acme' },
      { endUserHandle: 'u-1', organizationId: 42 },
      { endUserHandle: 'u-1', openingContext: pad(16385) },
      { endUserHandle: 'u-1', openingContext: { data: { nested: { a: 1 } } } },
      { endUserHandle: 'u-1', openingContext: { referentKeys: ['sk-unknown'] } },
      { endUserHandle: 'u-1', configEnd: '/profile' },
    ]) {
      expectDefaultError(await post(bad), 400, path);
    }
  },
);

test(
  'embed-tokens answers 401 without a valid Authorization and 403 for another workspace (EMBED-10 AUTH-2)',
  { tag: clauseTags('EMBED-10', 'AUTH-2') },
  async () => {
    const path = `/api/${s.ws.workspaceKey}/embed-tokens`;
    expectDefaultError(await s.api('POST', path, { endUserHandle: 'u-1' }), 401, path);
    expectDefaultError(
      await s.api('POST', path, { endUserHandle: 'u-1' }, { authorization: 'Bearer nope' }),
      401,
      path,
    );
    const other = await s.driver('POST', '/workspaces', {});
    expectDefaultError(
      await s.api('POST', path, { endUserHandle: 'u-1' }, { authorization: other.json.embedAuthorization }),
      403,
      path,
    );
  },
);

test(
  'embed-tokens accepts referentKeys owned by the caller only (EMBED-5)',
  { tag: clauseTags('EMBED-5') },
  async () => {
    const seeded = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
      configEnd: '/contacts',
      endUserHandle: 'u-1',
      count: 1,
    });
    const key = seeded.json.serviceKeys[0];
    const path = `/api/${s.ws.workspaceKey}/embed-tokens`;
    const auth = { authorization: s.ws.embedAuthorization };
    expect(
      (await s.api('POST', path, { endUserHandle: 'u-1', openingContext: { referentKeys: [key] } }, auth)).status,
    ).toBe(200);
    expect(
      (await s.api('POST', path, { endUserHandle: 'u-2', openingContext: { referentKeys: [key] } }, auth)).status,
    ).toBe(400);
  },
);

function multipart(parts: Array<{ name: string; filename?: string; body: string | Buffer }>): {
  body: Buffer;
  type: string;
} {
  const boundary = '----ccsboundary7f3a';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(
  body: Buffer,
  type: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
    method: 'POST',
    body: body as unknown as BodyInit,
    headers: { 'content-type': type, ...headers },
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

test(
  'upload accepts a manifest with its files and status answers only this workspace (UPLOAD-1 UPLOAD-2 UPLOAD-5 UPLOAD-6 UPLOAD-7 UPLOAD-8 UPLOAD-9)',
  { tag: clauseTags('UPLOAD-1', 'UPLOAD-2', 'UPLOAD-5', 'UPLOAD-6', 'UPLOAD-7', 'UPLOAD-8', 'UPLOAD-9') },
  async () => {
    const key = { 'x-api-key': s.ws.apiKey };
    const good = multipart([
      { name: 'manifest', body: JSON.stringify({ sources: ['a.ts'] }) },
      { name: 'a.ts', filename: 'a.ts', body: 'export const a = 1;' },
    ]);
    const ok = await upload(good.body, good.type, key);
    expect(ok.status).toBe(202);
    const statusPath = `/api/${s.ws.workspaceKey}/upload/status/${ok.json.id}`;
    expect((await s.api('GET', statusPath, undefined, { authorization: `Bearer ${s.ws.apiKey}` })).status).toBe(200);
    expect((await s.api('GET', statusPath)).status).toBe(401);
    expectDefaultError(
      await s.api('GET', `/api/${s.ws.workspaceKey}/upload/status/nope`, undefined, key),
      404,
      `/api/${s.ws.workspaceKey}/upload/status/nope`,
    );
    const other = await s.driver('POST', '/workspaces', {});
    expect(
      (
        await s.api('GET', `/api/${other.json.workspaceKey}/upload/status/${ok.json.id}`, undefined, {
          'x-api-key': other.json.apiKey,
        })
      ).status,
    ).toBe(404);
    expect((await upload(good.body, good.type, {})).status).toBe(401);
    const noManifest = multipart([{ name: 'a.ts', filename: 'a.ts', body: 'x' }]);
    expect((await upload(noManifest.body, noManifest.type, key)).status).toBe(400);
    const badManifest = multipart([{ name: 'manifest', body: '{nope' }]);
    expect((await upload(badManifest.body, badManifest.type, key)).status).toBe(400);
    const missingFile = multipart([
      { name: 'manifest', body: JSON.stringify({ sources: ['a.ts', 'b.ts'] }) },
      { name: 'a.ts', filename: 'a.ts', body: 'x' },
    ]);
    expect((await upload(missingFile.body, missingFile.type, key)).status).toBe(400);
  },
);

test(
  'upload answers 413 over 25 MB a file and accepts exactly 25 MB (UPLOAD-3 UPLOAD-4)',
  { tag: clauseTags('UPLOAD-3', 'UPLOAD-4') },
  async () => {
    const key = { 'x-api-key': s.ws.apiKey };
    const manifest = { name: 'manifest', body: JSON.stringify({ sources: ['big.bin'] }) };
    const exact = multipart([manifest, { name: 'big.bin', filename: 'big.bin', body: Buffer.alloc(25_000_000, 97) }]);
    expect((await upload(exact.body, exact.type, key)).status).toBe(202);
    const over = multipart([manifest, { name: 'big.bin', filename: 'big.bin', body: Buffer.alloc(25_000_001, 97) }]);
    expect((await upload(over.body, over.type, key)).status).toBe(413);
    const two = multipart([
      { name: 'manifest', body: JSON.stringify({ sources: ['a', 'b'] }) },
      { name: 'a', filename: 'a', body: Buffer.alloc(15_000_000, 97) },
      { name: 'b', filename: 'b', body: Buffer.alloc(15_000_000, 97) },
    ]);
    expect(two.body.length).toBeGreaterThan(30_000_000);
    expect((await upload(two.body, two.type, key)).status).toBe(413);
  },
);

test('a FACTS class without callback is rejected at push (FACTS-12)', { tag: clauseTags('FACTS-12') }, async () => {
  const r = await s.driver('POST', '/workspaces', { classes: [{ configEnd: '/facts', kind: 'FACTS', fields: [] }] });
  expect(r.status).toBe(422);
  expect(r.json.error).toBe('push-rejected');
  const m = multipart([
    { name: 'manifest', body: JSON.stringify({ sources: [], classes: [{ configEnd: '/facts', kind: 'FACTS' }] }) },
  ]);
  const up = await upload(m.body, m.type, { 'x-api-key': s.ws.apiKey });
  const st = await s.api('GET', `/api/${s.ws.workspaceKey}/upload/status/${up.json.id}`, undefined, {
    'x-api-key': s.ws.apiKey,
  });
  expect(st.json.state).toBe('rejected');
});

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

test(
  'the JWKS document serves two ES256 keys with different kids (SIGN-9 SIGN-10)',
  { tag: clauseTags('SIGN-9', 'SIGN-10') },
  async () => {
    const r = await s.api('GET', '/.well-known/service/jwks.json');
    expect(r.status).toBe(200);
    expect(r.json.keys).toHaveLength(2);
    for (const k of r.json.keys) {
      expect(k.kty).toBe('EC');
      expect(k.crv).toBe('P-256');
      expect(k.d).toBeUndefined();
    }
    expect(r.json.keys[0].kid).not.toBe(r.json.keys[1].kid);
  },
);
