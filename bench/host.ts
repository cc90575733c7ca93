/**
 * Benchmark of the host direction's wall time, end to end through the CLI: the reference
 * receiver healthy, the reference receiver that accepts connections and never answers
 * (--fault hang-all), and a host team's receiver that never answers (a loopback server that
 * accepts and stays silent, given by --base-url). Prints the wall time of each run in seconds,
 * with the load average before it: the host direction mostly waits, so the load tells whether
 * a slow figure came from the machine.
 *
 * Run: npm run bench:host [-- --runs N] [-- --only healthy,hang-all,target-hang]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const CLI = fileURLToPath(new URL('../cli/bin.mjs', import.meta.url));

function runHost(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'host', ...args], { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, seconds: (performance.now() - started) / 1000 }));
  });
}

/** A receiver that accepts every connection and never answers. */
async function silentReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '2' },
      only: { type: 'string', default: 'healthy,hang-all,target-hang' },
    },
  });
  const runs = Number(values.runs);
  const only = new Set(values.only.split(','));
  const dir = mkdtempSync(join(tmpdir(), 'ccs-bench-host-'));
  const silent = await silentReceiver();
  // Test-only credentials of the silent target, random per run: it never checks them.
  const env = {
    ...process.env,
    BENCH_HOST_SECRET: randomBytes(24).toString('hex'),
    BENCH_HOST_TOKEN: randomBytes(16).toString('hex'),
  };
  const scenarios: Array<[string, string[]]> = [
    ['healthy', []],
    ['hang-all', ['--fault', 'hang-all']],
    [
      'target-hang',
      [
        '--base-url',
        silent.url,
        '--secret-env',
        'BENCH_HOST_SECRET',
        '--bearer-token-env',
        'BENCH_HOST_TOKEN',
        '--service-port',
        '0',
      ],
    ],
  ];
  try {
    process.stdout.write(`ccs-conformance host, wall time in s (load average 1/5/15 min before each run)\n`);
    for (const [name, args] of scenarios) {
      if (!only.has(name)) continue;
      for (let i = 1; i <= runs; i++) {
        const load = loadavg()
          .map((l) => l.toFixed(2))
          .join(' ');
        const r = await runHost([...args, '--report-dir', join(dir, `${name}-${i}`)], env);
        process.stdout.write(
          `  ${name.padEnd(12)} run ${i}  ${r.seconds.toFixed(1).padStart(6)}  exit ${r.code}  load ${load}\n`,
        );
      }
    }
  } finally {
    await silent.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
