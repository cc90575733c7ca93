/**
 * Probes of the faults of a duty in a further state: signing after a JWKS rotation (SIGN-9), the
 * back-off after a timed-out attempt and after a refused connection (DELIV-8).
 */
import { expect } from '@playwright/test';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { startTestHost, type Stage } from '../host.ts';
import { byEvent, completeWith, first, waitMs, type Probe } from './helpers.ts';

/** Rotates the stage's workspace key, opens a conversation, and gives the onStart's kid with the rotation's answer. */
async function rotatedOnStart(s: Stage): Promise<{ kid: string; previousKid: string; header: string; doc: JWK[] }> {
  const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/jwks/rotate`, {});
  expect(r.status).toBe(200);
  await s.open();
  const header = (await first(s, 'onStart')).headers['x-service-signature']!;
  const doc = (await s.api('GET', '/.well-known/service/jwks.json')).json.keys as JWK[];
  return { kid: r.json.kid, previousKid: r.json.previousKid, header, doc };
}

/** Monotonic ms at which the service log first showed n failed attempts of the delivery. */
async function failedAt(s: Stage, deliveryId: string, n: number, ms: number): Promise<number> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    const lines = (await s.driver('GET', '/log')).json.lines as Array<{ event: string; deliveryId?: string }>;
    const failed = lines.filter((x) => x.event === 'delivery.failed' && x.deliveryId === deliveryId);
    if (failed.length >= n) return performance.now();
    await waitMs(10);
  }
  throw new Error(`no ${n} failed attempts of ${deliveryId} within ${ms} ms`);
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
      await compactVerify(
        header,
        await importJWK(
          doc.find((k) => k.kid === kid)!,
          'ES256',
        ),
      );
    },
  },
  // SIGN-10 after a rotation: sandbox and production keys differ before it, a sandbox shares the parent's new kid after.
  'sandbox-shares-rotated-kid': {
    workspace: { signing: { mode: 'jwks' } },
    run: async (s) => {
      const sandbox = () =>
        s.driver('POST', '/workspaces', { parentWorkspaceKey: s.ws.workspaceKey, signing: { mode: 'jwks' } });
      expect((await sandbox()).json.signing.kid).not.toBe(s.ws.signing.kid);
      const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/jwks/rotate`, {});
      expect((await sandbox()).json.signing.kid).toBe(r.json.kid);
    },
  },
  'backoff-from-attempt-start': {
    timeScale: 0.1,
    run: async (s) => {
      const attempt = (r: { headers: Record<string, string> }) => r.headers['x-service-delivery-attempt'];
      await completeWith(s, (r) => (attempt(r) === '1' ? { hang: true } : { status: 200 }));
      const a2 = await first(s, 'onComplete', 2);
      // Timed out at 1000 ms (10 s scaled); the start-based 500 ms back-off has already passed.
      expect(a2.at - byEvent(s, 'onComplete')[0]!.at).toBeLessThan((10_000 + 5_000) * 0.1 - 250);
    },
  },
  'backoff-refused-5s': {
    timeScale: 0.05,
    run: async (s) => {
      const dead = await startTestHost();
      await dead.close();
      await s.driver('PATCH', `/workspaces/${s.ws.workspaceKey}`, { hostBaseUrl: dead.url });
      const id = await s.open();
      await s.driver('POST', `/conversations/${id}/turns`, { saves: [{ fields: { email: 'a@x.io' } }] });
      await s.driver('POST', `/conversations/${id}/complete`, {});
      const second = await failedAt(s, `lc-${id}-onComplete`, 2, 3000);
      const third = await failedAt(s, `lc-${id}-onComplete`, 3, 3000);
      // 20 s scaled is 1000 ms after a refused attempt 2; the fault waits 250 ms.
      expect(third - second).toBeLessThan(600);
    },
  },
};
