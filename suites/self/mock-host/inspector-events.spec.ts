/**
 * The inspector's event stream (GET /__admin/events) over real sockets: one event per journal
 * change, a bound on what a client that stops reading can cost the host, and an end with the host.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { test, expect } from '@playwright/test';
import { MockHost } from '../../../mock-host/index.ts';
import { hmacHeader, lcBody, lcHeaders, send, TEST_ONLY_SECRET } from './helpers.ts';

const WAIT = { timeout: 10_000 };
let host: MockHost | undefined;
test.afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function startHost(): Promise<MockHost> {
  host = await MockHost.start({
    routes: [{ kind: 'lifecycle', path: '/hooks', signing: { mode: 'hmac', secrets: [TEST_ONLY_SECRET] } }],
  });
  return host;
}

async function postSigned(h: MockHost, body: string): Promise<void> {
  const r = await send(h.url, { path: '/hooks', headers: lcHeaders(body, { signature: hmacHeader(body) }), body });
  expect(r.error, 'the mock host answered').toBeUndefined();
}

test('the event stream sends one event per journal change and ends when the host closes', async () => {
  const h = await startHost();
  const text: string[] = [];
  const ended = new Promise<void>((resolve) => {
    const req = request(`${h.url}/__admin/events`, (res) => {
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      res.setEncoding('utf8');
      res.on('data', (c: string) => text.push(c));
      res.on('close', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
  await expect.poll(() => text.join(''), WAIT).toContain('event: hello');
  await postSigned(h, lcBody('onStart', 37));
  await expect.poll(() => text.join(''), WAIT).toContain('event: completed');
  const events = text
    .join('')
    .split('\n\n')
    .filter((b) => b.includes('lc-37-onStart') || b.startsWith('event: arrived'));
  expect(events.map((b) => b.split('\n')[0])).toEqual(['event: arrived', 'event: completed']);
  await h.close();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    ended,
    new Promise(
      (_, reject) => (timer = setTimeout(() => reject(new Error('the stream outlived the host by 5 s')), 5000)),
    ),
  ]);
  clearTimeout(timer);
});

test('a client that does not read the event stream is skipped past a bound, then told to resync', async () => {
  test.setTimeout(120_000);
  const h = await startHost();
  await postSigned(h, lcBody('onStart', 38));
  const [seed] = await h.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
  const socket = connect({ host: '127.0.0.1', port: h.port });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (c: string) => (text += c));
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write(`GET /__admin/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await expect.poll(() => text, WAIT).toContain('event: hello');
  socket.pause(); // a page that stopped reading: the host must not buffer every event for it
  const changes = 150_000; // about 25 MB of events, far past what the sockets hold
  for (let i = 0; i < changes; i++) {
    const seq = h.journal.allocateSeq();
    h.journal.add({ ...seed!, seq, id: `${seed!.id.split('-')[0]}-${seq}` });
  }
  text = '';
  socket.resume();
  await expect.poll(() => text.includes('event: resync'), { timeout: 60_000 }).toBe(true);
  const arrived = text.split('event: arrived').length - 1;
  expect(arrived, 'events were skipped, not buffered').toBeLessThan(changes);
  socket.destroy();
});
