/**
 * Benchmark of the inspector's admin routes over a large journal: 100,000 entries (a third of
 * them onComplete deliveries of three attempts), then the time to serve the first page of groups,
 * the last page, a filtered page, one full entry with its curl line, and the page itself. Prints
 * the median and the slowest of 15 runs of each, in milliseconds, over real loopback HTTP.
 *
 * Run: npm run bench:inspector [-- --entries N]
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { MockHost } from '../mock-host/index.ts';

function get(base: string, path: string): Promise<{ ms: number; bytes: number; status: number; text: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { agent: false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          ms: performance.now() - started,
          bytes: body.length,
          status: res.statusCode ?? 0,
          text: body.toString('utf8'),
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path} within 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { entries: { type: 'string', default: '100000' } } });
  const total = Number(values.entries);
  const host = await MockHost.start({ routes: [{ kind: 'lifecycle', path: '/hooks' }] });
  try {
    const body = JSON.stringify({
      event: 'onStart',
      workspaceKey: 'ws',
      configEnd: '/p',
      endUserHandle: 'u',
      conversationId: 1,
      timestamp: '2026-11-21T00:00:00.000',
      serviceKeys: [],
    });
    await new Promise<void>((resolve, reject) => {
      const req = request(
        new URL('/hooks', host.url),
        {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            'x-service-event': 'onStart',
            'x-service-delivery-id': 'lc-1-onStart',
          },
        },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject);
      req.end(body);
    });
    const [seed] = await host.journal.waitFor({ completed: true }, { timeoutMs: 5000 });
    const run = seed!.id.split('-')[0];
    for (let i = 2; i <= total; i++) {
      const seq = host.journal.allocateSeq();
      const conv = Math.floor(i / 3);
      const complete = i % 9 < 3;
      host.journal.add({
        ...seed!,
        seq,
        id: `${run}-${seq}`,
        event: complete ? 'onComplete' : 'onStart',
        deliveryId: complete ? `lc-${conv}-onComplete` : `lc-${i}-onStart`,
        endUserHandle: `user-${i % 997}`,
      });
    }
    process.stdout.write(
      `inspector over a journal of ${host.journal.entries().length} entries (ms: median / slowest of 15)\n`,
    );
    const first = await get(host.url, '/__admin/groups?offset=0&limit=1');
    if (first.status !== 200) throw new Error(`/__admin/groups answered ${first.status}`);
    process.stdout.write(`  first query (builds the index)  ${first.ms.toFixed(1).padStart(7)}\n`);
    const groups = (JSON.parse(first.text) as { total: number }).total;
    const probes: Array<[string, string]> = [
      ['first page of groups (100)', '/__admin/groups?offset=0&limit=100'],
      ['last page of groups', `/__admin/groups?offset=${Math.max(0, groups - 100)}&limit=100`],
      ['filtered by endUserHandle', '/__admin/groups?offset=0&limit=100&endUserHandle=user-42'],
      ['filtered by verdict', '/__admin/groups?offset=0&limit=100&verdict=problem'],
      ['one entry with its curl line', `/__admin/entries/${run}-${Math.floor(total / 2)}`],
      ['the page', '/__admin/ui'],
    ];
    for (const [name, path] of probes) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 15; i++) {
        const r = await get(host.url, path);
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
        times.push(r.ms);
        bytes = r.bytes;
      }
      times.sort((a, b) => a - b);
      process.stdout.write(
        `  ${name.padEnd(30)} ${times[7]!.toFixed(1).padStart(7)} / ${times[14]!.toFixed(1).padStart(7)}   ${bytes} bytes\n`,
      );
    }
  } finally {
    await host.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:inspector: ${(error as Error).message}\n`);
  process.exit(1);
});
