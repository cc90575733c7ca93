/**
 * The load generator of the mock-host benchmark, run in a process of its own so it never shares
 * the server's event loop: autocannon over keep-alive connections, each request a distinct
 * signed callback (bodies and signatures prepared before the clock starts).
 */
import autocannon from 'autocannon';
import { HOOK_PATH, bodyFor, headersFor } from './callbacks.ts';

export interface LoadJob {
  url: string;
  from: number;
  n: number;
  connections: number;
}

export interface LoadResult {
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  ms: number;
  rps: number;
  p50: number;
  p99: number;
}

export async function load(job: LoadJob): Promise<LoadResult> {
  // signed once per round, just before it starts: a round lasts seconds, the window is 300 s (5.2.4)
  const t = Math.floor(Date.now() / 1000);
  const prepared: Array<{ body: string; headers: Record<string, string> }> = [];
  for (let i = job.from; i < job.from + job.n; i++) {
    const body = bodyFor(i);
    prepared.push({ body, headers: headersFor(i, body, t) });
  }
  let next = 0;
  const start = performance.now();
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    amount: job.n,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: HOOK_PATH,
        setupRequest: (req) => {
          const p = prepared[next++];
          if (p === undefined) return req; // autocannon never asks for more than amount
          return Object.assign(req, { body: p.body, headers: p.headers });
        },
      },
    ],
  });
  const ms = performance.now() - start;
  const ok = result['2xx'];
  return {
    sent: next,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    ms,
    rps: (result.requests.total / ms) * 1000,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

if (process.argv.includes('--child')) {
  process.once('message', (job) => {
    void load(job as LoadJob).then((r) => process.send!(r));
  });
}
