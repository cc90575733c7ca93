/**
 * Benchmark: 1,000 concurrent conversations, each opening, saving and completing, against
 * a real fastify receiver on loopback. Prints deliveries per second and checks that none was lost
 * and each conversation's order was kept. Never part of the tests.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { startReferenceService } from '../reference-service/index.ts';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 1000);
const EXPECTED = ['onStart', 'config.saved', 'onComplete'];

/** A minimal host receiver (node:http, its own process): records event order per conversation. */
const HOST_SCRIPT = `
const http = require('node:http');
const seen = {}; let received = 0; let lastAt = 0;
const server = http.createServer({ maxHeaderSize: 1048576 }, (req, res) => {
  if (req.method === 'GET' && req.url === '/stats') { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ received, lastAt, seen })); return; }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try { const b = JSON.parse(Buffer.concat(chunks).toString('utf8')); (seen[b.conversationId] ||= []).push(b.event); received += 1; lastAt = Date.now(); } catch {}
    res.statusCode = 200; res.end('{}');
  });
});
server.listen(0, '127.0.0.1', 1024, () => process.stdout.write('http://127.0.0.1:' + server.address().port + '\\n'));
`;

async function main(): Promise<void> {
  // The host runs in its own process, as a real host does: it shares no event loop with the service.
  const host = spawn(process.execPath, ['-e', HOST_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  const hostUrl = await new Promise<string>((resolve) =>
    host.stdout.once('data', (d: Buffer) => resolve(d.toString('utf8').trim())),
  );
  const stats = async (): Promise<{ received: number; lastAt: number; seen: Record<string, string[]> }> =>
    (await fetch(`${hostUrl}/stats`)).json() as never;
  const failures: string[] = [];
  const svc = await startReferenceService({
    timeScale: 1,
    log: (l) => {
      if (l.level !== 'info') failures.push(`${l.event} ${l.deliveryId ?? ''} ${l.message}`);
    },
  });
  // The conversations are all open at once; their driver calls share a pool of 64 keep-alive sockets.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const post = (path: string, body: unknown): Promise<any> =>
    new Promise((resolve, reject) => {
      const data = Buffer.from(JSON.stringify(body));
      const req = http.request(
        svc.driverUrl + path,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': data.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 500) >= 300) reject(new Error(`${path}: ${res.statusCode} ${text}`));
            else resolve(JSON.parse(text));
          });
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  const ws = await post('/workspaces', {
    hostBaseUrl: hostUrl,
    hookPath: '/hooks/bench',
    signing: { mode: 'hmac', secret: 'bench-only-secret' },
    classes: [{ configEnd: '/profile', kind: 'SETTING', fields: [{ name: 'email', type: 'string' }] }],
  });
  const t0 = performance.now();
  const t0Wall = Date.now();
  const ids: number[] = [];
  await Promise.all(
    Array.from({ length: CONVERSATIONS }, async (_, i) => {
      const c = await post(`/workspaces/${ws.workspaceKey}/conversations`, {
        endUserHandle: `user-${i}`,
        configEnd: '/profile',
      });
      ids.push(c.conversationId);
      await post(`/conversations/${c.conversationId}/turns`, { saves: [{ fields: { email: `u${i}@example.test` } }] });
      await post(`/conversations/${c.conversationId}/complete`, {});
    }),
  );
  const driverDone = performance.now();
  const expected = CONVERSATIONS * EXPECTED.length;
  const deadline = performance.now() + 120_000;
  let st = await stats();
  while (st.received < expected && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    st = await stats();
  }
  const received = st.received;
  const seen = new Map(Object.entries(st.seen).map(([k, v]) => [Number(k), v]));
  const seconds = (st.lastAt - t0Wall) / 1000;
  const bad = ids.filter((id) => (seen.get(id) ?? []).join() !== EXPECTED.join());
  const outOfOrder = bad.length;
  for (const f of failures.slice(0, 5)) process.stdout.write(`  service log: ${f}\n`);
  for (const id of bad.slice(0, 3)) process.stdout.write(`  conversation ${id}: ${(seen.get(id) ?? []).join(' ')}\n`);
  process.stdout.write(
    [
      `reference-service bench: ${CONVERSATIONS} concurrent conversations (open, save, complete), HMAC-signed, loopback`,
      `  driver calls finished in ${((driverDone - t0) / 1000).toFixed(2)} s`,
      `  deliveries: ${received}/${expected} received, lost ${expected - received}, out of order ${outOfOrder}`,
      `  throughput: ${(received / seconds).toFixed(0)} deliveries/s (${seconds.toFixed(2)} s to the last delivery)`,
    ].join('\n') + '\n',
  );
  agent.destroy();
  await svc.close();
  host.kill('SIGTERM');
  process.exitCode = received === expected && outOfOrder === 0 ? 0 : 1;
}

await main();
