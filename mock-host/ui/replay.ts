/**
 * Replay: re-sends a recorded request to the --forward-to target byte for byte (same method,
 * request target, header names and order, body bytes; only Host names the target), the way the
 * local listen pipe delivers the same body (HOOK-5), and records the target's answer. A replay
 * is the mock host's own request, not a callback: it is kept beside the journal, never in it.
 */
import { request } from 'node:http';
import { ccsError } from '../../spec/index.ts';
import type { JournalEntry } from '../types.ts';

export interface ReplayOutcome {
  entryId: string;
  at: string;
  target: string;
  durationMs: number;
  status?: number;
  bodyBase64?: string;
  error?: string;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'host',
  'content-length',
]);
const MAX_ANSWER_BYTES = 1024 * 1024;
// the contract's whole-request limit (DELIV-3): a replay never waits longer than a callback would
const TIMEOUT_MS = 10_000;

/** The target's origin and path prefix, without any user:password part. */
export function safeTarget(base: string): string {
  const u = new URL(base);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
}

export function replay(e: JournalEntry, base: string): Promise<ReplayOutcome> {
  const baseUrl = new URL(base);
  if (baseUrl.protocol !== 'http:')
    return Promise.reject(ccsError('MOCKHOST_REPLAY_TARGET', { protocol: baseUrl.protocol }));
  const path = baseUrl.pathname.replace(/\/$/, '') + e.url || '/';
  const body = Buffer.from(e.bodyBase64, 'base64');
  // keys in the recorded case and order: node sends header names as given
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < e.rawHeaders.length; i += 2) {
    const name = e.rawHeaders[i]!;
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    const prev = headers[name];
    headers[name] = prev === undefined ? e.rawHeaders[i + 1]! : ([] as string[]).concat(prev, e.rawHeaders[i + 1]!);
  }
  headers.Host = baseUrl.host;
  if (body.length || e.transfer === 'content-length') headers['Content-Length'] = String(body.length);
  const target = safeTarget(base) + e.url;
  const started = performance.now();
  const at = new Date().toISOString();
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Partial<ReplayOutcome>) => {
      if (settled) return;
      settled = true;
      resolve({ entryId: e.id, at, target, durationMs: Math.round(performance.now() - started), ...o });
    };
    const req = request(
      {
        method: e.method,
        hostname: baseUrl.hostname,
        port: baseUrl.port || 80,
        path,
        headers,
        agent: false,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(c);
        });
        res.on('end', () => {
          const out = Buffer.concat(chunks);
          done({ status: res.statusCode ?? 0, ...(out.length ? { bodyBase64: out.toString('base64') } : {}) });
        });
        res.on('error', (err) => done({ error: err.message }));
      },
    );
    req.on('timeout', () => {
      done({ error: `no answer within ${TIMEOUT_MS} ms` });
      req.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) => done({ error: `${err.code ?? 'error'}: ${err.message}` }));
    req.end(body.length ? body : undefined);
  });
}

/** Replay outcomes per entry id, bounded: the oldest entries' outcomes go first. */
export class ReplayLog {
  private readonly byEntry = new Map<string, ReplayOutcome[]>();
  constructor(private readonly maxEntries = 1000) {}

  add(o: ReplayOutcome): void {
    const list = this.byEntry.get(o.entryId) ?? [];
    list.push(o);
    this.byEntry.delete(o.entryId);
    this.byEntry.set(o.entryId, list.slice(-20));
    if (this.byEntry.size > this.maxEntries) this.byEntry.delete(this.byEntry.keys().next().value!);
  }

  of(entryId: string): ReplayOutcome[] {
    return this.byEntry.get(entryId) ?? [];
  }

  clear(): void {
    this.byEntry.clear();
  }
}
