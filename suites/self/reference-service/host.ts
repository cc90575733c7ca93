/**
 * A small real fastify receiver standing in for the host in the reference service's own tests
 * (never the mock host: the reference meets the host only over HTTP). Records each request on
 * arrival with its raw body bytes; a per-request script decides the answer (status, delay,
 * hang, reset).
 */
import Fastify from 'fastify';
import { performance } from 'node:perf_hooks';
import { startReferenceService, type ReferenceService } from '../../../reference-service/index.ts';

export interface Received {
  seq: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  raw: Buffer;
  json: unknown;
  /** Monotonic ms at arrival. */
  at: number;
  /** Monotonic ms when the answer was sent or the socket destroyed. */
  endAt?: number;
}

export type Answer = { status?: number; body?: unknown; delayMs?: number; hang?: boolean; reset?: boolean };

export interface TestHost {
  url: string;
  received: Received[];
  script: (r: Received) => Answer;
  waitFor(pred: (r: Received[]) => boolean, timeoutMs?: number, what?: string): Promise<Received[]>;
  /** Resolves after ms without anything matching; throws if something matches. */
  expectNone(pred: (r: Received) => boolean, ms: number, what?: string): Promise<void>;
  callbacks(event?: string): Received[];
  close(): Promise<void>;
}

export async function startTestHost(): Promise<TestHost> {
  // PITFALLS: a full JWKS-signed 500-key page makes a header well over 16 KB.
  const app = Fastify({ logger: false, http: { maxHeaderSize: 1024 * 1024 }, bodyLimit: 50 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const received: Received[] = [];
  const hung = new Set<() => void>();
  const host: TestHost = {
    url: '',
    received,
    script: () => ({ status: 200 }),
    async waitFor(pred, timeoutMs = 10_000, what = 'expected requests') {
      const deadline = performance.now() + timeoutMs;
      while (!pred(received)) {
        if (performance.now() > deadline)
          throw new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}; received ${received.length}: ${received.map((r) => `${r.method} ${r.url} ${r.headers['x-service-event'] ?? ''}`).join(' | ')}`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
      return received;
    },
    async expectNone(pred, ms, what = 'request') {
      const deadline = performance.now() + ms;
      while (performance.now() < deadline) {
        const hit = received.find(pred);
        if (hit) throw new Error(`unexpected ${what}: ${hit.method} ${hit.url}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    callbacks(event) {
      return received.filter(
        (r) => r.method === 'POST' && (event === undefined || r.headers['x-service-event'] === event),
      );
    },
    async close() {
      for (const release of hung) release();
      await app.close();
    },
  };
  app.all('/*', async (req, reply) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let json: unknown;
    try {
      json = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      json = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const entry: Received = {
      seq: received.length + 1,
      method: req.method,
      url: req.url,
      headers,
      raw,
      json,
      at: performance.now(),
    };
    received.push(entry);
    const a = host.script(entry);
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (a.hang) {
      await new Promise<void>((resolve) => {
        hung.add(resolve);
        req.raw.socket.once('close', () => {
          hung.delete(resolve);
          resolve();
        });
      });
      entry.endAt = performance.now();
      return reply.hijack();
    }
    if (a.reset) {
      entry.endAt = performance.now();
      req.raw.socket.destroy();
      return reply.hijack();
    }
    entry.endAt = performance.now();
    return reply.code(a.status ?? 200).send(a.body ?? {});
  });
  host.url = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
  return host;
}

/** JSON call to the service (driver or contract routes). */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; text: string }> {
  const init: RequestInit = {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
  };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(base + path, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

export const PROFILE_CLASSES = [
  {
    configEnd: '/profile',
    kind: 'SETTING',
    fields: [
      { name: 'email', type: 'string', required: true },
      { name: 'age', type: 'integer' },
      { name: 'address', type: 'object' },
    ],
  },
  {
    configEnd: '/contacts',
    kind: 'LIST',
    identityField: 'email',
    fields: [
      { name: 'email', type: 'string' },
      { name: 'name', type: 'string' },
    ],
  },
  {
    configEnd: '/facts',
    kind: 'FACTS',
    callback: '/user-facts',
    fields: [
      { name: 'company', type: 'string', comment: 'employer' },
      { name: 'preferredLanguages', type: 'array' },
    ],
  },
];

export interface Stage {
  svc: ReferenceService;
  host: TestHost;
  /** The driver's workspace view (test credentials). */
  ws: {
    workspaceKey: string;
    workspaceId: string;
    apiKey: string;
    bearerToken: string;
    embedAuthorization: string;
    signing: { mode: string; kid?: string };
  };
  driver(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }>;
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: any; text: string }>;
  /** Opens a conversation and returns its id. */
  open(endUserHandle?: string, configEnd?: string, workspaceKey?: string): Promise<number>;
  close(): Promise<void>;
}

export async function stage(
  o: { faults?: string[]; timeScale?: number; workspace?: Record<string, unknown> } = {},
): Promise<Stage> {
  const host = await startTestHost();
  const svc = await startReferenceService({ timeScale: o.timeScale ?? 1, faults: o.faults ?? [] });
  const driver = (method: string, path: string, body?: unknown) => call(svc.driverUrl, method, path, body);
  const created = await driver('POST', '/workspaces', {
    hostBaseUrl: host.url,
    hookPath: '/hooks/t-1',
    classes: PROFILE_CLASSES,
    tools: [{ toolClass: 'lookup', path: '/tools/lookup' }],
    ...(o.workspace ?? {}),
  });
  if (created.status !== 201) throw new Error(`workspace setup failed: ${created.status} ${created.text}`);
  const s: Stage = {
    svc,
    host,
    ws: created.json,
    driver,
    api: (method, path, body, headers = {}) => call(svc.url, method, path, body, headers),
    async open(endUserHandle = 'u-1', configEnd = '/profile', workspaceKey = created.json.workspaceKey) {
      const r = await driver('POST', `/workspaces/${workspaceKey}/conversations`, { endUserHandle, configEnd });
      if (r.status !== 201) throw new Error(`open failed: ${r.status} ${r.text}`);
      return r.json.conversationId as number;
    },
    async close() {
      await svc.close();
      await host.close();
    },
  };
  return s;
}
