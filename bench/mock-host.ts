/**
 * Benchmark of the mock host (issue 3): at least 100,000 HMAC-signed callbacks over 64 concurrent
 * keep-alive connections, sent from a child process; then the journal must hold every one with
 * the exact bytes sent (sha256 compared) and a valid verdict. Prints requests per second for the
 * mock host (verification on) and for a bare fastify server that only acknowledges, measured in
 * the same run, and their ratio (target >= 0.5).
 *
 * Run: npm run bench:mock-host [-- --requests N --connections C]
 * The HMAC secret here is a test-only benchmark value.
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { signHmac } from '../protocol/index.ts';
import { MockHost } from '../mock-host/index.ts';

const BENCH_ONLY_SECRET = 'bench-only-hmac-secret';

function bodyFor(i: number): string {
  return JSON.stringify({
    event: 'config.saved',
    workspaceKey: 'ws-bench',
    configEnd: '/profile',
    endUserHandle: `user-${i % 997}`,
    conversationId: i,
    timestamp: '2026-11-21T00:00:00.000',
    serviceKey: `key-${i}`,
    changedFields: ['name', 'address.city'],
    callbackStatus: 'PENDING',
  });
}

interface LoadJob { url: string; from: number; n: number; connections: number }
interface LoadResult { ms: number; ok: number; errors: number; statuses: Record<string, number>; firstError?: string; cpuUs?: number }

/** Child side: sends n signed callbacks over `connections` keep-alive sockets. */
async function load(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const u = new URL('/hooks', job.url);
  const prepared: Array<{ body: Buffer; text: string; headers: Record<string, string> }> = [];
  for (let i = job.from; i < job.from + job.n; i++) {
    const text = bodyFor(i);
    prepared.push({
      body: Buffer.from(text),
      text,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        'x-service-event': 'config.saved',
        'x-service-delivery-id': `lc-${i}-config.saved`,
      },
    });
  }
  let next = 0;
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const statuses: Record<string, number> = {};
  const one = (p: { body: Buffer; text: string; headers: Record<string, string> }) =>
    new Promise<void>((resolve) => {
      // signed at send time, as a service does: a long run must not drift out of the 300 s window
      p.headers['x-service-signature'] = signHmac({ secret: BENCH_ONLY_SECRET, t: Math.floor(Date.now() / 1000), payload: p.text });
      const req = request({ method: 'POST', hostname: u.hostname, port: u.port, path: u.pathname, headers: p.headers, agent }, (res) => {
        statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
        res.resume();
        res.on('end', () => {
          ok++;
          resolve();
        });
      });
      req.on('error', (e) => {
        errors++;
        firstError ??= e.message;
        resolve();
      });
      req.end(p.body);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: job.connections }, async () => {
      while (next < prepared.length) await one(prepared[next++]!);
    }),
  );
  const ms = performance.now() - start;
  agent.destroy();
  return { ms, ok, errors, statuses, ...(firstError ? { firstError } : {}) };
}

/** Runs one load round; cpuUs is the CPU time this (server) process used meanwhile, a figure the machine's load hardly moves. */
function runLoad(job: LoadJob): Promise<LoadResult> {
  const cpu0 = process.cpuUsage();
  return new Promise<LoadResult>((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.once('message', (m) => {
      const c = process.cpuUsage(cpu0);
      resolve({ ...(m as LoadResult), cpuUs: c.user + c.system });
      child.kill();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code) reject(new Error(`load generator exited with code ${code}`));
    });
    child.send(job);
  });
}

async function bare(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/hooks', (_req, reply) => {
    void reply.send({});
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { requests: { type: 'string' }, connections: { type: 'string' }, warmup: { type: 'string' }, rounds: { type: 'string' } } });
  const n = Number(values.requests ?? 100_000);
  const connections = Number(values.connections ?? 64);
  const warmup = Number(values.warmup ?? 5_000);
  // rounds alternate bare / mock host so a change in machine load hits both sides alike
  const rounds = Math.max(1, Number(values.rounds ?? 4));
  console.log(`mock-host benchmark: ${n} HMAC-signed callbacks over ${connections} keep-alive connections (warm-up ${warmup}, ${rounds} alternating rounds), load from a child process`);

  const b = await bare();
  const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks', signing: { mode: 'hmac', secrets: [BENCH_ONLY_SECRET] } }] });
  await runLoad({ url: b.url, from: 0, n: warmup, connections });
  await runLoad({ url: host.url, from: n, n: warmup, connections });
  host.reset();
  const total = (): LoadResult => ({ ms: 0, ok: 0, errors: 0, statuses: {} });
  const bareRun = total();
  const hostRun = total();
  const add = (into: LoadResult, r: LoadResult) => {
    into.ms += r.ms;
    into.ok += r.ok;
    into.errors += r.errors;
    into.cpuUs = (into.cpuUs ?? 0) + (r.cpuUs ?? 0);
    for (const [k, v] of Object.entries(r.statuses)) into.statuses[k] = (into.statuses[k] ?? 0) + v;
    if (r.firstError) into.firstError ??= r.firstError;
  };
  for (let k = 0; k < rounds; k++) {
    const from = Math.floor((k * n) / rounds);
    const count = Math.floor(((k + 1) * n) / rounds) - from;
    const br = await runLoad({ url: b.url, from, n: count, connections });
    const hr = await runLoad({ url: host.url, from, n: count, connections });
    add(bareRun, br);
    add(hostRun, hr);
    // per round, so a reader sees whether the mock host slows as its journal grows
    console.log(`  round ${k + 1}/${rounds}: bare ${((br.ok / br.ms) * 1000).toFixed(0)} req/s, mock host ${((hr.ok / hr.ms) * 1000).toFixed(0)} req/s (journal ${host.journal.size} entries)`);
  }
  await b.close();

  // every callback recorded with its exact bytes and a valid verdict
  const entries = host.journal.entries();
  const byId = new Map(entries.map((e) => [e.deliveryId, e]));
  let missing = 0;
  let wrongBytes = 0;
  let wrongVerdict = 0;
  let unfinished = 0;
  for (let i = 0; i < n; i++) {
    const e = byId.get(`lc-${i}-config.saved`);
    if (!e) {
      missing++;
      continue;
    }
    if (e.bodySha256 !== createHash('sha256').update(bodyFor(i)).digest('hex')) wrongBytes++;
    if (e.signature.verdict !== 'valid') wrongVerdict++;
    if (e.finished?.outcome !== 'answered') unfinished++;
  }
  await host.close();

  const rps = (r: LoadResult) => (r.ok / r.ms) * 1000;
  const bareRps = rps(bareRun);
  const hostRps = rps(hostRun);
  const ratio = hostRps / bareRps;
  console.log(`bare fastify (ack only):     ${bareRps.toFixed(0)} req/s  (${bareRun.ok} ok, ${bareRun.errors} errors, ${(bareRun.ms / 1000).toFixed(2)} s, statuses ${JSON.stringify(bareRun.statuses)})`);
  console.log(`mock host (HMAC verified):   ${hostRps.toFixed(0)} req/s  (${hostRun.ok} ok, ${hostRun.errors} errors, ${(hostRun.ms / 1000).toFixed(2)} s, statuses ${JSON.stringify(hostRun.statuses)})`);
  const cpuPer = (r: LoadResult) => (r.cpuUs ?? 0) / Math.max(1, r.ok);
  console.log(`server CPU per request (this process, includes idle loop and GC): bare ${cpuPer(bareRun).toFixed(1)} us, mock host ${cpuPer(hostRun).toFixed(1)} us`);
  console.log(`ratio mock/bare: ${ratio.toFixed(2)} (target >= 0.50) ${ratio >= 0.5 ? 'MET' : 'NOT MET'}`);
  console.log(`journal: ${entries.length} entries for ${n} sent; missing ${missing}, wrong bytes ${wrongBytes}, verdict not valid ${wrongVerdict}, not answered ${unfinished}, dropped ${host.journal.dropped}`);
  const intact = missing === 0 && wrongBytes === 0 && wrongVerdict === 0 && unfinished === 0 && hostRun.errors === 0 && entries.length === n;
  console.log(intact ? 'journal check: PASS (every callback recorded byte for byte with a valid verdict)' : 'journal check: FAIL');
  if (hostRun.firstError) console.log(`first load error: ${hostRun.firstError}`);
  return intact ? 0 : 1;
}

if (process.argv.includes('--child')) {
  process.once('message', (job) => {
    void load(job as LoadJob).then((r) => process.send!(r));
  });
} else {
  process.exitCode = await main();
}
