/**
 * Preflight of `ccs-conformance run --target`: before Playwright starts, service.baseUrl must give an
 * HTTP answer (any status: a 404 at the root is fine, the suites judge the routes) and the driver
 * (service.driverUrl) must answer its capability discovery, GET /capabilities, with 200 and the
 * capabilities document (spec/driver.openapi.yaml). Both are asked at once, so a dead target ends
 * the preflight within one probe deadline. Then, where the driver can tell, whether the service
 * reaches the mock host's public URL (mock-host-reach.ts).
 */
import { basename } from 'node:path';
import { loadTargetFile } from '../../target/service/load.ts';
import { httpReach, shown } from './probe.ts';
import type { PreflightResult } from './outcome.ts';

/** What the preflight needs of the capabilities document; the harness tolerates names it does not know. */

/** Why a 200 answer is not the capabilities document, or undefined when it is one. */
export function capabilitiesProblem(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'the body is not a JSON object';
  const o = json as Record<string, unknown>;
  const caps = o.capabilities;
  if (!Array.isArray(caps) || !caps.every((c) => typeof c === 'string')) return 'capabilities: not an array of strings';
  if (o.timeScale !== undefined && !(typeof o.timeScale === 'number' && o.timeScale > 0)) {
    return 'timeScale: not a positive number';
  }
  return undefined;
}

export async function preflightService(file: string): Promise<PreflightResult> {
  const t = loadTargetFile(file);
  const name = basename(file);
  const baseUrl = t.service.baseUrl;
  const driverUrl = t.service.driverUrl;
  const capsUrl = driverUrl ? `${driverUrl.replace(/\/+$/, '')}/capabilities` : undefined;
  const [base, caps] = await Promise.all([
    httpReach(baseUrl),
    capsUrl ? httpReach(capsUrl, undefined, 'application/json') : undefined,
  ]);
  if (!base.ok) {
    const fix = `check service.baseUrl in ${name}`;
    return { ok: false, line: `no HTTP answer from ${shown(baseUrl)} (${base.error}): ${fix}` };
  }
  const notes = [`service.baseUrl answers (${base.status} in ${base.ms} ms)`];
  if (!capsUrl || !caps) {
    notes.push("no service.driverUrl: the mock host's public URL is not checked");
    return { ok: true, notes };
  }
  const check = `check service.driverUrl in ${name}`;
  if (!caps.ok) {
    return { ok: false, line: `no HTTP answer from the driver at ${shown(capsUrl)} (${caps.error}): ${check}` };
  }
  const get = `GET ${shown(capsUrl)}`;
  if (caps.status !== 200) {
    const seen = `the driver answered HTTP ${caps.status} to ${get}`;
    return { ok: false, line: `${seen}, not 200 with its capabilities: ${check}` };
  }
  const problem = capabilitiesProblem(caps.json);
  if (problem) {
    return { ok: false, line: `${get} answered 200 but not the driver's capabilities (${problem}): ${check}` };
  }
  const json = caps.json as { capabilities: string[]; timeScale?: number };
  notes.push(`driver capabilities answer (${caps.ms} ms)`);
  // Loaded only now: the driver client brings Playwright's test module (about a second), which a dead
  // target's preflight never needs.
  const { checkMockHostReach } = await import('./mock-host-reach.ts');
  const reach = await checkMockHostReach(t, name, { capabilities: json.capabilities, timeScale: json.timeScale });
  if (!reach.ok) return reach;
  return { ok: true, notes: [...notes, ...reach.notes] };
}
