/**
 * The load generator of the mock-host benchmark, run in a process of its own so it never shares
 * the server's event loop and lives for the whole run (a warm JIT in every round): autocannon over
 * keep-alive connections, each request a distinct signed callback, every request's bytes built
 * before the clock starts. Times from the first request to the last response, and reads the
 * server's CPU time at both ends, so the run can show whether the server was the one saturated.
 */
import autocannon from 'autocannon';
import { HOOK_PATH, bodyFor, headersFor } from './callbacks.ts';
import { cpuSeconds, machineTicks, type LoadJob, type LoadResult } from './measure.ts';

export async function load(job: LoadJob): Promise<LoadResult> {
  // signed once per round, just before it starts: a round lasts seconds, the window is 300 s (5.2.4)
  const t = Math.floor(Date.now() / 1000);
  // autocannon gives connection k exactly distributeNums(n, k) requests (its `amount` split, in the
  // order it creates connections); each connection gets that many consecutive callbacks as requests
  // it builds into buffers before the clock starts, so no request is assembled while it is timed
  let next = job.from;
  let sent = 0;
  // timed from autocannon's start (after every connection has built its requests) to the last
  // response; autocannon itself notices the end only at its next sample tick
  let start = 0;
  let last = 0;
  let cpu0 = 0;
  let own0 = process.cpuUsage();
  let m0 = machineTicks();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const tracker = autocannon(
      {
        url: job.url,
        connections: job.connections,
        amount: job.n,
        timeout: 30,
        sampleInt: 100,
        setupClient: (client) => {
          const mine = (client as unknown as { responseMax: number }).responseMax;
          const requests = [];
          for (let i = next; i < next + mine; i++) {
            const body = bodyFor(i);
            requests.push({ method: 'POST' as const, path: HOOK_PATH, body, headers: headersFor(i, body, t) });
          }
          next += mine;
          sent += mine;
          client.setRequests(requests);
        },
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    tracker.once('start', () => {
      cpu0 = cpuSeconds(job.serverPid);
      own0 = process.cpuUsage();
      m0 = machineTicks();
      start = performance.now();
    });
    tracker.on('response', () => (last = performance.now()));
  });
  const ms = last - start;
  const cpu = cpuSeconds(job.serverPid) - cpu0;
  const own = process.cpuUsage(own0);
  const m1 = machineTicks();
  const ok = result['2xx'];
  return {
    sent,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    ms,
    cpu,
    generatorCpu: (own.user + own.system) / 1e6,
    machineIdle: (m1.idle - m0.idle) / Math.max(1, m1.total - m0.total),
    rps: (result.requests.total / ms) * 1000,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

if (process.argv.includes('--child')) {
  process.on('message', (job) => {
    void load(job as LoadJob).then((r) => process.send!(r));
  });
}
