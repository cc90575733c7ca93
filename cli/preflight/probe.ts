/**
 * The preflight's probes: does anything answer at a URL, before any test runs. Each has its own
 * deadline, the contract's callback connect timeout (5 s, section 8) at most, so a dead target ends
 * the preflight within seconds. A probe never judges a status: any HTTP answer means "reachable".
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/** The contract's connect timeout of a callback (5 s): no endpoint a run needs may take longer to answer. */
export const PROBE_DEADLINE_MS = 5_000;
/** A TCP connect alone (the host's receiver): a live listener accepts in milliseconds. */
export const CONNECT_DEADLINE_MS = 3_000;

export type Reach = { ok: true; status?: number; ms: number } | { ok: false; error: string; ms: number };

/** A URL as it may be printed: without user:password and query, where a secret could hide (never in output). */
export function shown(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

/** The error in one word a user can look up (ECONNREFUSED, ENOTFOUND...), else its message. */
function errorWord(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] };
  // Node's happy-eyeballs connect reports an AggregateError whose parts carry the codes.
  return e.code ?? e.errors?.find((x) => x.code)?.code ?? e.message ?? String(error);
}

const NOT_A_URL = { ok: false, error: 'not a URL', ms: 0 } as const;

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function portOf(u: URL): number {
  if (u.port) return Number(u.port);
  return u.protocol === 'https:' ? 443 : 80;
}

/** A TCP connection to the URL's host and port. */
export function tcpReach(url: string, deadlineMs = CONNECT_DEADLINE_MS): Promise<Reach> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const u = parsed(url);
    if (!u) return resolve(NOT_A_URL);
    const socket = net.connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port: portOf(u) });
    const late = () => done({ ok: false, error: `no connection within ${deadlineMs} ms`, ms: ms() });
    const timer = setTimeout(late, deadlineMs);
    socket.once('connect', () => done({ ok: true, ms: ms() }));
    socket.once('error', (e) => done({ ok: false, error: errorWord(e), ms: ms() }));
    function done(r: Reach): void {
      clearTimeout(timer);
      socket.removeAllListeners('connect');
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(r);
    }
  });
}

/** A GET of the URL: any status is an answer; a refused, reset or timed-out connection is none. */
export type Answer = Reach & { json?: unknown };

export function httpReach(url: string, deadlineMs = PROBE_DEADLINE_MS, accept = '*/*'): Promise<Answer> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const u = parsed(url);
    if (!u) return resolve(NOT_A_URL);
    const mod = u.protocol === 'https:' ? https : http;
    let settled = false;
    const req = mod.request(u, { method: 'GET', headers: { accept }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e) => done({ ok: false, error: errorWord(e), ms: ms() }));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          json = undefined;
        }
        done({ ok: true, status: res.statusCode ?? 0, json, ms: ms() });
      });
    });
    const timer = setTimeout(() => {
      done({ ok: false, error: `no answer within ${deadlineMs} ms`, ms: ms() });
      req.destroy();
    }, deadlineMs);
    req.on('error', (e) => done({ ok: false, error: errorWord(e), ms: ms() }));
    req.end();
    function done(r: Answer): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    }
  });
}
