/**
 * The driver's optional JWKS key rotation (capability signing-jwks-rotation, spec/driver.openapi.yaml):
 * a wrapper beside the driver client, which stays as it is. Absent from a target's capabilities,
 * the caller's test is skipped with the reason (reported not exercised).
 */
import { sendRaw } from '../../../target/clients/http.ts';
import type { DriverClient, TestWorkspace } from '../fixtures.ts';
import { ccsError, redactText } from '../../../spec/index.ts';

export const JWKS_ROTATION = 'signing-jwks-rotation';

/** POST /workspaces/{workspaceKey}/jwks/rotate: the new kid (and the one it replaced, when told). */
export async function rotateJwks(
  driver: DriverClient,
  ws: TestWorkspace,
): Promise<{ kid?: string; previousKid?: string }> {
  if (!driver.driverUrl) throw ccsError('TARGET_NO_DRIVER', { problem: '(service.driverUrl)' });
  const path = `/workspaces/${encodeURIComponent(ws.workspaceKey)}/jwks/rotate`;
  const res = await sendRaw({
    method: 'POST',
    url: driver.driverUrl.replace(/\/$/, '') + path,
    timeoutMs: driver.timeoutMs,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
  });
  if (res.status !== 200 && res.status !== 201) {
    const said = redactText(res.text.slice(0, 300));
    throw ccsError('TARGET_DRIVER_ERROR', { method: 'POST', path, status: res.status, said });
  }
  const j = (res.json ?? {}) as { kid?: unknown; previousKid?: unknown };
  return {
    ...(typeof j.kid === 'string' ? { kid: j.kid } : {}),
    ...(typeof j.previousKid === 'string' ? { previousKid: j.previousKid } : {}),
  };
}
