/**
 * Preflight of `ccs-conformance host` against a receiver (a target file or --base-url): before
 * Playwright starts, a TCP connection to the host and port of the hook URL and of the facts URL
 * (hostBaseUrl + hookPath / factsPath). Any connection will do: the suites judge the answers
 * (HOST-1 and the rest); here only "nothing listens" is caught, in one line and within seconds.
 */
import type { HostTarget } from '../../suites/host/index.ts';
import { shown, tcpReach } from './probe.ts';
import type { PreflightResult } from './outcome.ts';

/** Where the user fixes hostBaseUrl: the target file's field, or the flag that wrote it. */
export function hostBaseUrlField(targetFile: string | undefined): string {
  return targetFile ? `hostBaseUrl in ${targetFile}` : 'hostBaseUrl (--base-url)';
}

export async function preflightHost(target: HostTarget, targetFile: string | undefined): Promise<PreflightResult> {
  const root = target.hostBaseUrl.replace(/\/+$/, '');
  const urls = [root + target.hookPath, ...(target.factsPath !== undefined ? [root + target.factsPath] : [])];
  // hookPath and factsPath share hostBaseUrl's origin: one connection per host and port is enough.
  const byOrigin = new Map<string, string>();
  for (const u of urls) {
    const origin = new URL(u).origin;
    if (!byOrigin.has(origin)) byOrigin.set(origin, u);
  }
  const probes = await Promise.all([...byOrigin.values()].map(async (u) => ({ url: u, r: await tcpReach(u) })));
  const dead = probes.find((p) => !p.r.ok);
  if (dead && !dead.r.ok) {
    const fix = `check ${hostBaseUrlField(targetFile)} and that the receiver is running`;
    return { ok: false, line: `nothing listens at ${shown(dead.url)} (${dead.r.error}): ${fix}` };
  }
  const ms = probes.map((p) => p.r.ms).join(', ');
  return { ok: true, notes: [`the receiver at ${shown(root)} accepts connections (${ms} ms)`] };
}
