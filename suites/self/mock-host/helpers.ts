/**
 * Helpers of the mock host's own tests: a real node:http client with its own timeout, contract
 * payloads, signed headers. The HMAC secret below is a test-only fixture value.
 */
import { request } from 'node:http';
import { signHmac } from '../../../protocol/index.ts';

export const TEST_ONLY_SECRET = 'test-only-hmac-secret-1';
export const TEST_ONLY_SECRET_2 = 'test-only-hmac-secret-2';

export interface Sent {
  status?: number;
  body?: string;
  headers?: Record<string, string | string[] | undefined>;
  /** node's error code when no answer came: ECONNRESET, ECONNREFUSED, TIMEOUT ... */
  error?: string;
  ms: number;
}

export function send(
  base: string,
  o: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
    chunked?: boolean;
  },
): Promise<Sent> {
  const url = new URL(o.path, base);
  const start = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<Sent, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, ms: performance.now() - start });
    };
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.body !== undefined && !o.chunked) headers['content-length'] = String(Buffer.byteLength(o.body));
    const req = request(
      {
        method: o.method ?? 'POST',
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
        );
        res.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
      },
    );
    req.setTimeout(o.timeoutMs ?? 10_000, () => {
      done({ error: 'TIMEOUT' });
      req.destroy();
    });
    req.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
    if (o.chunked && o.body !== undefined) {
      const b = Buffer.from(o.body);
      const half = Math.floor(b.length / 2);
      req.write(b.subarray(0, half));
      req.end(b.subarray(half));
    } else req.end(o.body);
  });
}

export function lcBody(event: string, conversationId = 7, extra: Record<string, unknown> = {}): string {
  const base: Record<string, unknown> = {
    event,
    workspaceKey: 'ws-test',
    configEnd: '/profile',
    endUserHandle: 'user-1',
    conversationId,
    timestamp: '2026-11-21T00:00:00.000',
  };
  if (event === 'onComplete') Object.assign(base, { serviceKeys: ['k1'], path: '/hooks' });
  else if (event === 'config.saved')
    Object.assign(base, { serviceKey: 'k1', changedFields: ['name'], callbackStatus: 'PENDING' });
  else if (event === 'config.deleted') Object.assign(base, { serviceKey: 'k1' });
  else if (event !== 'config.bulk_deleted') Object.assign(base, { serviceKeys: [] });
  return JSON.stringify({ ...base, ...extra });
}

export function lcHeaders(body: string, o: { attempt?: number; signature?: string } = {}): Record<string, string> {
  const b = JSON.parse(body) as { event: string; conversationId: number };
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-event': b.event,
    'x-service-delivery-id': `lc-${b.conversationId}-${b.event}`,
  };
  if (o.attempt !== undefined) h['x-service-delivery-attempt'] = String(o.attempt);
  if (o.signature !== undefined) h['x-service-signature'] = o.signature;
  return h;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function hmacHeader(body: string, secret = TEST_ONLY_SECRET, t = nowSeconds()): string {
  return signHmac({ secret, t, payload: body });
}
