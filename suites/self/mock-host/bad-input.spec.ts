import { test, expect } from '@playwright/test';
import { connect } from 'node:net';
import { MockHost } from '../../../mock-host/index.ts';
import { lcBody, lcHeaders, send } from './helpers.ts';
import { clauseTags } from '../../../spec/index.ts';

let host: MockHost;
test.beforeEach(async () => {
  host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks' }], bodyLimit: 4096 });
});
test.afterEach(async () => host.close());

const body = lcBody('onStart');

async function stillServes(): Promise<void> {
  const r = await send(host.url, { path: '/hooks', headers: lcHeaders(body), body });
  expect(r.status).toBe(200);
}

async function last() {
  const seq = host.journal.entries().at(-1)!.seq;
  const [e] = await host.journal.waitFor({ completed: true, predicate: (x) => x.seq === seq }, { timeoutMs: 5000 });
  return e!;
}

test(
  'malformed JSON is recorded with the parse error and the exact bytes (HDR-1)',
  { tag: clauseTags('HDR-1') },
  async () => {
    const bad = '{"event":"onStart",';
    await send(host.url, { path: '/hooks', headers: { 'content-type': 'application/json' }, body: bad });
    const e = await last();
    expect(e.parseError).toMatch(/^body is not valid JSON/);
    expect(Buffer.from(e.bodyBase64, 'base64').toString()).toBe(bad);
    expect(e.json).toBeUndefined();
    expect(e.schema?.valid).toBe(false);
    await stillServes();
  },
);

test(
  'a wrong or missing content type is recorded, and the body is still parsed (HDR-1)',
  { tag: clauseTags('HDR-1') },
  async () => {
    await send(host.url, { path: '/hooks', headers: { ...lcHeaders(body), 'content-type': 'text/plain' }, body });
    const wrong = await last();
    expect(wrong.parseError).toContain('Content-Type is "text/plain"');
    expect(wrong.event).toBe('onStart');
    expect(wrong.checks.find((c) => c.clause === 'HDR-1')!.ok).toBe(false);
    const noCt = { ...lcHeaders(body) } as Record<string, string>;
    delete noCt['content-type'];
    await send(host.url, { path: '/hooks', headers: noCt, body });
    const missing = await last();
    expect(missing.parseError).toContain('no Content-Type header');
    expect(missing.headers['content-type']).toBeUndefined();
    await send(host.url, {
      path: '/hooks',
      headers: { ...lcHeaders(body), 'content-type': 'application/json; charset=utf-8' },
      body,
    });
    const charset = await last();
    expect(charset.parseError).toBeUndefined();
    expect(charset.checks.find((c) => c.clause === 'HDR-1')!.ok).toBe(true);
    await stillServes();
  },
);

test('invalid UTF-8 is recorded with its reason and the raw bytes kept', async () => {
  const bytes = Buffer.concat([Buffer.from('{"event":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  await send(host.url, { path: '/hooks', headers: { 'content-type': 'application/json' }, body: bytes });
  const e = await last();
  expect(e.parseError).toContain('not valid UTF-8');
  expect(Buffer.from(e.bodyBase64, 'base64').equals(bytes)).toBe(true);
  await stillServes();
});

test('a body over the limit is answered 413 and recorded, declared or chunked', async () => {
  const huge = 'x'.repeat(10_000);
  const declared = await send(host.url, {
    path: '/hooks',
    headers: { 'content-type': 'application/json' },
    body: huge,
  });
  expect(declared.status).toBe(413);
  let e = await last();
  expect(e.parseError).toContain('over the limit of 4096 bytes');
  expect(e.response!.status).toBe(413);
  const chunked = await send(host.url, {
    path: '/hooks',
    headers: { 'content-type': 'application/json' },
    body: huge,
    chunked: true,
  });
  // the answer may come before the client finished sending; either it reads the 413 or the socket is closed under it
  expect(chunked.status === 413 || chunked.error !== undefined).toBe(true);
  e = await last();
  expect(e.transfer).toBe('chunked');
  expect(e.parseError).toContain('over the limit');
  expect(e.response!.status).toBe(413);
  await stillServes();
});

test('a chunked body is read whole and recorded as chunked', async () => {
  const r = await send(host.url, { path: '/hooks', headers: lcHeaders(body), body, chunked: true });
  expect(r.status).toBe(200);
  const e = await last();
  expect(e.transfer).toBe('chunked');
  expect(Buffer.from(e.bodyBase64, 'base64').toString()).toBe(body);
  expect(e.parseError).toBeUndefined();
});

test('a request aborted mid-body is recorded on arrival and completed as aborted-by-client', async () => {
  const port = host.port;
  await new Promise<void>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(
        'POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"event":"onSt',
      );
      host.journal.waitFor({ path: '/hooks' }, { timeoutMs: 5000 }).then(() => {
        s.destroy();
        resolve();
      }, reject);
    });
    s.on('error', () => undefined);
  });
  const [e] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  expect(e!.finished!.outcome).toBe('aborted-by-client');
  expect(e!.parseError).toContain('aborted by the client mid-body');
  await stillServes();
});

test('an unrouted request is recorded and answered 404', async () => {
  const r = await send(host.url, { method: 'PUT', path: '/elsewhere?x=1&x=2', body: 'hi' });
  expect(r.status).toBe(404);
  const e = await last();
  expect(e.kind).toBe('unrouted');
  expect(e.query).toEqual({ x: ['1', '2'] });
});
