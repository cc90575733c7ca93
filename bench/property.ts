/**
 * Benchmark of the property suites' request path (`npm run bench:property`): requests per second
 * of the harness's ServiceClient (spec check and curl line on every response) against a plain
 * keep-alive HTTP client, both sending the same generated embed-tokens and data API requests to
 * the same embedded reference service, in one run. Target: ratio >= 0.5.
 */
import http from 'node:http';
import fc from 'fast-check';
import { startReferenceService } from '../reference-service/index.ts';
import { ServiceClient } from '../suites/service/clients/service-client.ts';
import { DriverClient } from '../target/clients/driver-client.ts';
import { validArbitrary } from '../suites/service/property/compile.ts';
import { embedTokenSchema, endUserHandleSchema } from '../suites/service/property/schemas.ts';

const N = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

async function main(): Promise<void> {
  const svc = await startReferenceService({ port: 0, timeScale: 0.1, faults: [] });
  try {
    const driver = new DriverClient(svc.driverUrl);
    const ws = await driver.createWorkspace({
      classes: [{ configEnd: '/profile', kind: 'SETTING', fields: [{ name: 'name', type: 'string' }] }],
      hookPath: null,
      hostBaseUrl: null,
      signing: { mode: 'none' },
    });
    const bodies = fc.sample(validArbitrary(await embedTokenSchema()), { numRuns: N / 2, seed: 1 });
    const handles = fc.sample(validArbitrary(await endUserHandleSchema()), { numRuns: N / 2, seed: 2 }) as string[];
    const client = new ServiceClient({ baseUrl: svc.url });
    const reqs: Req[] = [];
    for (let i = 0; i < N / 2; i++) {
      reqs.push({
        method: 'POST',
        path: `/api/${encodeURIComponent(ws.workspaceKey)}/embed-tokens`,
        headers: { 'content-type': 'application/json', authorization: ws.embedAuthorization },
        body: JSON.stringify(bodies[i]),
      });
      reqs.push({
        method: 'GET',
        path: client.dataPath(ws, '/profile', handles[i]!),
        headers: { authorization: `Bearer ${ws.bearerToken}` },
      });
    }

    // Plain client: node:http keep-alive agent, no checks.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const base = new URL(svc.url);
    const plainOne = (r: Req) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: base.hostname,
            port: base.port,
            method: r.method,
            path: r.path,
            headers: { ...r.headers, ...(r.body ? { 'content-length': Buffer.byteLength(r.body) } : {}) },
            agent,
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(r.body);
      });
    const harnessOne = (r: Req) =>
      r.method === 'POST'
        ? client.embedTokens(ws, undefined, { rawBody: r.body! }).then((x) => x.status)
        : client.listRecords(ws, '/profile', decodeURIComponent(r.path.split('/data/')[1]!)).then((x) => x.status);

    async function measure(name: string, one: (r: Req) => Promise<number>): Promise<number> {
      let next = 0;
      const statuses = new Map<number, number>();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < reqs.length) {
            const s = await one(reqs[next++]!);
            statuses.set(s, (statuses.get(s) ?? 0) + 1);
          }
        }),
      );
      const secs = (performance.now() - started) / 1000;
      const rps = reqs.length / secs;
      console.log(
        `${name.padEnd(22)} ${reqs.length} requests in ${secs.toFixed(2)} s = ${rps.toFixed(0)} req/s  statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      return rps;
    }
    // Warm-up both paths (JIT, spec loader, connections), then measure each.
    await measure('warm-up (plain)', plainOne);
    await measure('warm-up (harness)', harnessOne);
    const plain = await measure('plain http client', plainOne);
    const harness = await measure('harness ServiceClient', harnessOne);
    const ratio = harness / plain;
    console.log(`ratio harness/plain = ${ratio.toFixed(2)} (target >= 0.5) ${ratio >= 0.5 ? 'OK' : 'BELOW TARGET'}`);
    agent.destroy();
  } finally {
    await svc.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
