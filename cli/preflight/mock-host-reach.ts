/**
 * Does the service reach the mock host's public URL? The suites start a mock host per Playwright
 * worker and give the service `mockHost.publicUrl` (with {port}: the worker's port) as hostBaseUrl;
 * when the service cannot reach it, no callback ever arrives and a dozen clauses fail for a cause
 * none of them names. So, before the run: listen where the first worker's mock host will, have the
 * driver create a workspace with that hostBaseUrl and open a conversation (onStart, EVT-16, and the
 * user-facts GET of a FACTS class; onComplete too when the driver can complete), and wait for any
 * request. The deadline is the suites' own for a callback the contract says fires (connect 5 s +
 * request 10 s, scaled, plus slack: target-config/timing.ts), so this is never stricter than a test.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DriverClient, type ClassDef } from '../../target/clients/driver-client.ts';
import { makeTiming } from '../../target/service/timing.ts';
import type { TargetFile } from '../../target/service/load.ts';
import { shown } from './probe.ts';
import type { Discovered, PreflightResult } from './outcome.ts';

/** Driver calls of the preflight: a live driver answers in well under this even on a loaded machine. */
const DRIVER_CALL_MS = 10_000;

interface Arrival {
  method: string;
  ms: number;
}
interface Listener {
  port: number;
  first: Promise<Arrival>;
  mark(): void;
  close(): Promise<void>;
}

/** A listener that answers 200 to anything (no retry to provoke) and remembers the first request. */
async function listen(host: string, port: number): Promise<Listener> {
  let started = performance.now();
  let arrived!: (a: Arrival) => void;
  const first = new Promise<Arrival>((resolve) => (arrived = resolve));
  const server = http.createServer((req, res) => {
    arrived({ method: req.method ?? '?', ms: Math.round(performance.now() - started) });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    first,
    mark: () => {
      started = performance.now();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Why the driver could not do its part, without a response body (it may echo what it was sent). */
function why(error: unknown): string {
  const e = error as { message?: string; details?: { status?: unknown } };
  if (typeof e.details?.status === 'number') return `a driver call answered ${e.details.status}`;
  return (e.message ?? String(error)).split('\n')[0]!.slice(0, 160);
}

function after(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

function classes(facts: string | undefined): ClassDef[] {
  const profile: ClassDef = { configEnd: '/profile', kind: 'SETTING', fields: [{ name: 'name', type: 'string' }] };
  if (!facts) return [profile];
  const fields: ClassDef['fields'] = [{ name: 'company', type: 'string' }];
  return [profile, { configEnd: '/facts', kind: 'FACTS', fields, callback: facts }];
}

export async function checkMockHostReach(t: TargetFile, name: string, d: Discovered): Promise<PreflightResult> {
  const have = new Set(d.capabilities);
  const missing = ['workspaces', 'conversations'].filter((c) => !have.has(c));
  if (missing.length > 0) {
    return { ok: true, notes: [`capability ${missing.join(', ')} not offered: mockHost.publicUrl is not checked`] };
  }
  const listenHost = t.mockHost?.listenHost ?? '127.0.0.1';
  const port = t.mockHost?.port ?? 0;
  let listener: Listener;
  try {
    // The first worker's mock host listens on mockHost.port itself (fixtures.ts: port + parallelIndex).
    listener = await listen(listenHost, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const fix = `check mockHost.port and mockHost.listenHost in ${name}`;
    return { ok: false, line: `the mock host cannot listen on ${listenHost}:${port} (${code}): ${fix}` };
  }
  // The suites' rule (workspace.ts mockHostPublicUrl): publicUrl, {port} being the worker's port, else the
  // listen address.
  const h = listenHost.includes(':') ? `[${listenHost}]` : listenHost;
  const publicUrl = (t.mockHost?.publicUrl ?? `http://${h}:${listener.port}`)
    .replace(/\{port\}/g, String(listener.port))
    .replace(/\/$/, '');
  const rand = randomBytes(6).toString('hex');
  const hookPath = `/hooks/preflight-${rand}`;
  const timeScale = d.timeScale ?? t.timing?.timeScale ?? 1;
  const waitMs = Math.round(makeTiming(timeScale, { minMs: 250, relative: 0.25 }).deliveryDeadlineMs());
  const driver = new DriverClient(t.service.driverUrl, DRIVER_CALL_MS);
  try {
    const facts = have.has('facts') ? `/facts/preflight-${rand}` : undefined;
    const body = { hostBaseUrl: publicUrl, hookPath, signing: { mode: 'none' }, classes: classes(facts) };
    const created = await driver.createWorkspace(body);
    const openedAt = performance.now();
    listener.mark();
    const opened = await driver.open(created, { endUserHandle: `preflight-${rand}`, configEnd: '/profile' });
    // onComplete is retried on a connect failure (DELIV-4): one more chance for a request to arrive.
    if (have.has('complete')) await driver.complete(opened.conversationId).catch(() => undefined);
    const left = Math.max(0, waitMs - (performance.now() - openedAt));
    const arrival = await Promise.race([listener.first, after(left)]);
    if (!arrival) {
      const seen =
        `no request from the service reached the mock host at ${shown(publicUrl)} within ${waitMs} ms` +
        ` of opening a conversation (onStart to ${hookPath})`;
      const fix = `check mockHost.publicUrl in ${name} (the URL the service uses to reach this machine)`;
      return { ok: false, line: `${seen}: ${fix}` };
    }
    const seen = `${arrival.method} in ${arrival.ms} ms`;
    return { ok: true, notes: [`the service reaches mockHost.publicUrl ${shown(publicUrl)} (${seen})`] };
  } catch (error) {
    // A driver that fails here is judged by the suites: the preflight only says it could not tell.
    return { ok: true, notes: [`mockHost.publicUrl not checked (${why(error)})`] };
  } finally {
    await listener.close();
  }
}
