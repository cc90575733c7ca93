/**
 * The reference service's JWKS rotation (driver capability signing-jwks-rotation, SIGN-9): a new
 * kid published in the same document, every later callback signed with it, the old key still served.
 */
import { test, expect } from '@playwright/test';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { stage } from './host.ts';
import { clauseTags } from '../../../spec/index.ts';

const PUBLISHED = 'a JWKS rotation publishes a new kid beside the old one and every later callback is signed with it';

test(`${PUBLISHED} (SIGN-9)`, { tag: clauseTags('SIGN-9') }, async () => {
  const s = await stage({ workspace: { signing: { mode: 'jwks' } } });
  try {
    const caps = (await s.driver('GET', '/capabilities')).json.capabilities as string[];
    expect(caps).toContain('signing-jwks-rotation');
    const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/jwks/rotate`, {});
    expect(r.status).toBe(200);
    expect(r.json.previousKid).toBe(s.ws.signing.kid);
    expect(r.json.kid).not.toBe(s.ws.signing.kid);
    await s.open();
    await s.host.waitFor(() => s.host.callbacks('onStart').length > 0, 5_000, 'onStart');
    const header = s.host.callbacks('onStart')[0]!.headers['x-service-signature']!;
    const doc = (await s.api('GET', '/.well-known/service/jwks.json')).json.keys as JWK[];
    expect(doc.map((k) => k.kid)).toEqual(expect.arrayContaining([r.json.kid, r.json.previousKid]));
    expect(decodeProtectedHeader(header).kid).toBe(r.json.kid);
    await compactVerify(
      header,
      await importJWK(
        doc.find((k) => k.kid === r.json.kid)!,
        'ES256',
      ),
    );
    const view = await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, {});
    expect(view.json.signing.kid).toBe(r.json.kid);
  } finally {
    await s.close();
  }
});

test('a JWKS rotation of a workspace not in jwks mode is refused with 400', async () => {
  const s = await stage({ workspace: { signing: { mode: 'none' } } });
  try {
    expect((await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/jwks/rotate`, {})).status).toBe(400);
  } finally {
    await s.close();
  }
});
