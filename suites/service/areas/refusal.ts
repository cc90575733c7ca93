/**
 * A refusal window of the mock host (its 'refuse' step stops listening: the service's connects
 * meet ECONNREFUSED), opened on demand and read back from the host's own record of it.
 */
import { request as httpRequest } from 'node:http';
import type { MockHost } from '../../../mock-host/index.ts';
import { uniqueId } from './scenario.ts';
import { monoMs } from './times.ts';

export interface RefusalWindow {
  startMs: number;
  endMs?: number;
}

/** Fires a request at a path whose 'refuse' step resets it and closes the listener for ms. */
function trigger(hostUrl: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const headers = { 'content-type': 'application/json' };
    const req = httpRequest(`${hostUrl}${path}`, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', () => resolve()); // the refuse step resets this very request
    req.setTimeout(5_000, () => {
      req.destroy();
      resolve();
    });
    req.end('{}');
  });
}

/** Opens a refusal window of ms now; resolves with a reader of that window (monotonic ms). */
export async function refuseFor(host: MockHost, ms: number): Promise<() => RefusalWindow | undefined> {
  const known = host.refusals().length;
  const path = `/refuse-${uniqueId('t')}`;
  host.script({ id: uniqueId('refuse'), match: { path }, steps: [{ action: 'refuse', ms: Math.round(ms) }] });
  await trigger(host.url, path);
  return () => {
    const w = host.refusals()[known];
    if (!w) return undefined;
    return { startMs: monoMs(w.startMonoNs), ...(w.endMonoNs === undefined ? {} : { endMs: monoMs(w.endMonoNs) }) };
  };
}
