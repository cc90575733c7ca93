/** The reference service's upload route (4.2): a manifest with its files, the size limits, a FACTS class pushed. */
import { test, expect } from '@playwright/test';
import { clauseTags } from '../../../spec/index.ts';
import { expectDefaultError, multipart, s, stagePerTest, upload } from './routes-stage.ts';

stagePerTest();

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
