/**
 * What the delivery tests (6, 8) share: the contract's back-off, a completed conversation whose onComplete the
 * test then watches, and a request the mock host's 'refuse' step answers by closing its listener.
 */
import { request as httpRequest } from 'node:http';
import type { DriverClient, TestWorkspace } from '../fixtures.ts';
import { CONTRACT } from '../../../protocol/index.ts';

export const [BACKOFF_1, BACKOFF_2] = CONTRACT.backoffMs;

/** Opens a List conversation, drafts one record and completes it: the onComplete the test watches. */
export async function completeOne(
  ws: TestWorkspace,
  driver: DriverClient,
  endUserHandle: string,
): Promise<{ conversationId: number; key: string }> {
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const {
    serviceKeys: [key],
  } = await driver.turn(c.conversationId, [{ fields: { label: 'home', city: 'Paris' } }]);
  await driver.complete(c.conversationId);
  return { conversationId: c.conversationId, key: key! };
}

/** Fires a request at the mock host that its 'refuse' step answers by closing the listener. */
export function triggerRefusal(hostUrl: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(
      `${hostUrl}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', () => resolve()); // the refuse step resets this very request
    req.setTimeout(5_000, () => {
      req.destroy();
      resolve();
    });
    req.end('{}');
  });
}
