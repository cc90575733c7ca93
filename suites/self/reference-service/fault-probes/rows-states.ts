/**
 * Probes of the faults of a duty in a further state: signing after a JWKS rotation (SIGN-9).
 */
import { expect } from '@playwright/test';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import type { Stage } from '../host.ts';
import { first, type Probe } from './helpers.ts';

/** Rotates the stage's workspace key, opens a conversation, and gives the onStart's kid with the rotation's answer. */
async function rotatedOnStart(s: Stage): Promise<{ kid: string; previousKid: string; header: string; doc: JWK[] }> {
  const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/jwks/rotate`, {});
  expect(r.status).toBe(200);
  await s.open();
  const header = (await first(s, 'onStart')).headers['x-service-signature']!;
  const doc = (await s.api('GET', '/.well-known/service/jwks.json')).json.keys as JWK[];
  return { kid: r.json.kid, previousKid: r.json.previousKid, header, doc };
}

export const ROW_STATE_PROBES: Record<string, Probe> = {
  'jws-keeps-old-kid-after-rotation': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      const { kid, previousKid, header, doc } = await rotatedOnStart(s);
      expect(doc.map((k) => k.kid)).toContain(kid);
      expect(decodeProtectedHeader(header).kid).toBe(previousKid);
    },
  },
  'jws-old-kid-new-key': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      const { kid, previousKid, header, doc } = await rotatedOnStart(s);
      expect(decodeProtectedHeader(header).kid).toBe(previousKid);
      // Signed with the new key: it verifies with the key published under the new kid.
      await compactVerify(header, await importJWK(doc.find((k) => k.kid === kid)!, 'ES256'));
    },
  },
};
