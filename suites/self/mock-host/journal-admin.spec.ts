import { test, expect } from '@playwright/test';
import Fastify from 'fastify';
import { MockHost, type JournalEntry } from '../../../mock-host/index.ts';
import { lcBody, lcHeaders, send } from './helpers.ts';
import { clauseTags } from '../../../spec/index.ts';

let host: MockHost;
test.beforeEach(async () => {
  host = await MockHost.start({
    routes: [
      { kind: 'lifecycle', path: '/hooks' },
      { kind: 'lifecycle', path: '/hooks-b' },
      { kind: 'tool', path: '/tools/lookup' },
    ],
  });
});
test.afterEach(async () => host.close());

const getJson = async <T>(path: string): Promise<T> =>
  JSON.parse((await send(host.url, { method: 'GET', path })).body!) as T;

test('an entry keeps the exact bytes, headers as received, arrival on both clocks, and the answer', async () => {
  const body = lcBody('onStart', 21);
  const before = Date.now();
  await send(host.url, { path: '/hooks', headers: { ...lcHeaders(body), 'X-Custom-Case': 'KeepMe' }, body });
  const [e] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  expect(Buffer.from(e!.bodyBase64, 'base64').toString()).toBe(body);
  expect(e!.bodySize).toBe(Buffer.byteLength(body));
  expect(e!.bodySha256).toMatch(/^[0-9a-f]{64}$/);
  expect(e!.rawHeaders).toContain('X-Custom-Case');
  expect(e!.arrival.wallMs).toBeGreaterThanOrEqual(before - 5);
  expect(BigInt(e!.finished!.monoNs) >= BigInt(e!.arrival.monoNs)).toBe(true);
  expect(e!).toMatchObject({
    kind: 'lifecycle',
    event: 'onStart',
    deliveryId: 'lc-21-onStart',
    endUserHandle: 'user-1',
    workspaceKey: 'ws-test',
    response: { status: 200 },
  });
  expect(e!.schema).toMatchObject({ name: 'onStart' });
});

test(
  'header checks name their clause: attempt header only on onComplete, delivery id from the payload (HDR-3, HDR-4, HDR-5)',
  { tag: clauseTags('HDR-3', 'HDR-4', 'HDR-5') },
  async () => {
    const saved = lcBody('config.saved', 22);
    await send(host.url, {
      path: '/hooks',
      headers: { ...lcHeaders(saved, { attempt: 1 }), 'x-service-delivery-id': 'lc-99-config.saved' },
      body: saved,
    });
    const complete = lcBody('onComplete', 22);
    await send(host.url, { path: '/hooks', headers: lcHeaders(complete, { attempt: 4 }), body: complete });
    const [a, b] = await host.journal.waitFor({ completed: true }, { count: 2, timeoutMs: 5000 });
    const failed = (e: JournalEntry) =>
      e.checks
        .filter((c) => !c.ok)
        .map((c) => c.clause)
        .sort();
    expect(failed(a!)).toEqual(['HDR-3', 'HDR-5']);
    expect(failed(b!)).toEqual(['HDR-4']);
  },
);

test(
  'a tool dispatch is checked for X-Service-Event tool.dispatch (TOOL-1)',
  { tag: clauseTags('TOOL-1') },
  async () => {
    await send(host.url, {
      path: '/tools/lookup',
      headers: { 'content-type': 'application/json', 'x-service-event': 'onStart' },
      body: '{}',
    });
    const [e] = await host.journal.waitFor({ kind: 'tool', completed: true }, { timeoutMs: 5000 });
    expect(e!.checks.find((c) => c.name === 'event-header')).toMatchObject({ clause: 'TOOL-1', ok: false });
    expect(e!.schema?.name).toBe('tool.dispatch');
  },
);

test(
  'deliveries group every attempt of one delivery id, in arrival order (DELIV-11)',
  { tag: clauseTags('DELIV-11') },
  async () => {
    const c = lcBody('onComplete', 23);
    for (const attempt of [1, 2]) await send(host.url, { path: '/hooks', headers: lcHeaders(c, { attempt }), body: c });
    await send(host.url, { path: '/hooks-b', headers: lcHeaders(lcBody('onStart', 23)), body: lcBody('onStart', 23) });
    const groups = host.journal.deliveries();
    expect([...groups.keys()]).toEqual(['lc-23-onComplete', 'lc-23-onStart']);
    expect(groups.get('lc-23-onComplete')!.map((e) => e.attempt)).toEqual([1, 2]);
    const admin = await getJson<{ deliveries: Record<string, JournalEntry[]> }>('/__admin/deliveries');
    expect(Object.keys(admin.deliveries)).toEqual(['lc-23-onComplete', 'lc-23-onStart']);
  },
);

test('the admin API serves the journal with filters and since, as JSON Lines too, and is not journaled itself', async () => {
  for (const [path, ev] of [
    ['/hooks', 'onStart'],
    ['/hooks-b', 'onStart'],
    ['/hooks', 'config.deleted'],
  ] as const) {
    const b = lcBody(ev, 24);
    await send(host.url, { path, headers: lcHeaders(b), body: b });
  }
  const all = await getJson<{ entries: JournalEntry[]; dropped: number }>('/__admin/journal');
  expect(all.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
  expect(all.dropped).toBe(0);
  expect(all.entries[0]).toMatchObject({
    seq: 1,
    method: 'POST',
    path: '/hooks',
    signature: { verdict: 'absent' },
    response: { status: 200 },
  });
  expect(typeof all.entries[0]!.bodyBase64).toBe('string');
  expect(
    (await getJson<{ entries: JournalEntry[] }>('/__admin/journal?path=/hooks-b')).entries.map((e) => e.seq),
  ).toEqual([2]);
  expect(
    (await getJson<{ entries: JournalEntry[] }>('/__admin/journal?event=config.deleted')).entries.map((e) => e.seq),
  ).toEqual([3]);
  expect(
    (await getJson<{ entries: JournalEntry[] }>('/__admin/journal?since=1&kind=lifecycle')).entries.map((e) => e.seq),
  ).toEqual([2, 3]);
  const jsonl = (await send(host.url, { method: 'GET', path: '/__admin/journal.jsonl' })).body!;
  expect(
    jsonl
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as JournalEntry).seq),
  ).toEqual([1, 2, 3]);
  expect(host.journal.entries()).toHaveLength(3);
  expect((await send(host.url, { path: '/__admin/reset', body: '' })).status).toBe(200);
  expect(host.journal.entries()).toHaveLength(0);
});

test('routes can be added over the admin API with a clear error for a bad one, secrets never echoed', async () => {
  const ok = await send(host.url, {
    path: '/__admin/routes',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'facts',
      path: '/facts',
      signing: { mode: 'hmac', secrets: ['test-only-admin-secret'] },
    }),
  });
  expect(ok.status).toBe(200);
  const listed = (await send(host.url, { method: 'GET', path: '/__admin/routes' })).body!;
  expect(listed).toContain('/facts');
  expect(listed).not.toContain('test-only-admin-secret');
  const bad = await send(host.url, {
    path: '/__admin/routes',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'webhook', path: '/x' }),
  });
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.body!).message).toContain('routes[0].kind must be lifecycle, tool or facts');
  expect((await send(host.url, { method: 'GET', path: '/facts?endUserHandle=u' })).status).toBe(200);
});

test('a bounded journal keeps the newest entries and counts what it dropped', async () => {
  const small = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks' }], maxEntries: 2 });
  try {
    for (let i = 0; i < 5; i++) {
      const b = lcBody('onStart', 30 + i);
      await send(small.url, { path: '/hooks', headers: lcHeaders(b), body: b });
    }
    expect(small.journal.entries().map((e) => e.seq)).toEqual([4, 5]);
    expect(small.journal.dropped).toBe(3);
  } finally {
    await small.close();
  }
});

test(
  '--forward-to relays method, path, headers and body bytes to a local app and records its answer (HOOK-5)',
  { tag: clauseTags('HOOK-5') },
  async () => {
    const seen: Array<{ method: string; url: string; sig: unknown; body: string }> = [];
    const app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, b, done) => done(null, b));
    app.post('/hooks', async (req, reply) => {
      seen.push({
        method: req.method,
        url: req.url,
        sig: req.headers['x-service-signature'],
        body: (req.body as Buffer).toString(),
      });
      return reply.code(202).send({ got: true });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const fwd = await MockHost.start({
      routes: [{ kind: 'lifecycle', path: '/hooks' }],
      forwardTo: `http://127.0.0.1:${port}`,
    });
    try {
      const body = lcBody('onStart', 40);
      const r = await send(fwd.url, {
        path: '/hooks?x=1',
        headers: lcHeaders(body, { signature: 't=1,v1=abc' }),
        body,
      });
      expect(r.status).toBe(202);
      expect(JSON.parse(r.body!)).toEqual({ got: true });
      expect(seen).toEqual([{ method: 'POST', url: '/hooks?x=1', sig: 't=1,v1=abc', body }]);
      const [e] = await fwd.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
      expect(e!.response).toMatchObject({ status: 202, forwardedTo: `http://127.0.0.1:${port}/hooks?x=1` });
    } finally {
      await fwd.close();
      await app.close();
    }
  },
);

test(
  'a route whose workspace has signing off checks that no signature is sent, and one with signing on that it is (SIGN-1, HDR-6)',
  { tag: clauseTags('SIGN-1', 'HDR-6') },
  async () => {
    host.addRoute({ kind: 'lifecycle', path: '/off', signing: { mode: 'none' } });
    host.addRoute({ kind: 'lifecycle', path: '/on', signing: { mode: 'hmac', secrets: ['test-only-secret-on'] } });
    const b = lcBody('onStart', 60);
    await send(host.url, { path: '/off', headers: lcHeaders(b, { signature: 't=1,v1=00' }), body: b });
    await send(host.url, { path: '/on', headers: lcHeaders(b), body: b });
    await send(host.url, { path: '/hooks', headers: lcHeaders(b), body: b });
    const [off, on, unknown] = await host.journal.waitFor({ completed: true }, { count: 3, timeoutMs: 5000 });
    expect(off!.checks.find((c) => c.clause === 'SIGN-1')).toMatchObject({ ok: false });
    expect(on!.checks.find((c) => c.clause === 'HDR-6')).toMatchObject({ ok: false });
    expect(unknown!.checks.some((c) => c.clause === 'SIGN-1' || c.clause === 'HDR-6')).toBe(false);
  },
);
