/**
 * Benchmark of the waiting-bound runs: wall time of
 *   realtime     `ccs-conformance run --time-scale 1` against the embedded reference, with its ratio
 *                to the floor the contract forces (three onComplete attempts that each time out:
 *                3 x 10 s request timeout + 5 s + 20 s back-off = 55 s);
 *   conformance  `npm run conformance` (the scaled service project plus the real-time retry project);
 *   host-hang    `ccs-conformance host --fault hang-all` (the reference receiver holding every request).
 * The machine may be shared: the 1-minute load average is printed before and after each run.
 * Each run writes its reports to a temporary folder, never to reports/out.
 *
 * Run: npm run bench:realtime [-- --only realtime --only conformance --only host-hang]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONTRACT } from '../protocol/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'cli', 'bin.mjs');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** DELIV-3, DELIV-7, DELIV-8: the longest scenario the contract forces, in ms. */
export const REALTIME_FLOOR_MS =
  CONTRACT.maxAttempts * CONTRACT.requestTimeoutMs + CONTRACT.backoffMs.reduce((a, b) => a + b, 0);

interface Run {
  name: string;
  command: string;
  args: (reportDir: string) => string[];
  floor?: boolean;
}

const RUNS: Run[] = [
  {
    name: 'realtime',
    command: process.execPath,
    args: (d) => [CLI, 'run', '--time-scale', '1', '--reporter', 'dot', '--report-dir', d],
    floor: true,
  },
  {
    name: 'conformance',
    command: NPM,
    args: (d) => ['run', '--silent', 'conformance', '--', '--reporter', 'dot', '--report-dir', d],
  },
  {
    name: 'host-hang',
    command: process.execPath,
    args: (d) => [CLI, 'host', '--fault', 'hang-all', '--report-dir', d],
  },
];

function timed(command: string, args: string[]): Promise<{ ms: number; code: number | null; tail: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    // CCS_* from the caller would change what is measured (a target, a time scale, workers).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CCS_')));
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (c: Buffer) => {
      out = (out + c.toString('utf8')).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => resolve({ ms: performance.now() - started, code, tail: out }));
  });
}

const load = () => loadavg()[0]!.toFixed(2);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string', multiple: true } } });
  const only = values.only ?? [];
  for (const o of only)
    if (!RUNS.some((r) => r.name === o)) throw new Error(`--only ${o}: one of ${RUNS.map((r) => r.name).join(', ')}`);
  const selected = RUNS.filter((r) => only.length === 0 || only.includes(r.name));
  console.log(
    `bench:realtime on ${cpus().length} cores; floor ${REALTIME_FLOOR_MS / 1000} s (3 attempts each timing out: 3 x ${CONTRACT.requestTimeoutMs / 1000} s + ${CONTRACT.backoffMs.map((b) => b / 1000).join(' s + ')} s)`,
  );
  for (const r of selected) {
    const dir = mkdtempSync(join(tmpdir(), `ccs-bench-${r.name}-`));
    const before = load();
    const { ms, code, tail } = await timed(r.command, r.args(dir));
    const after = load();
    const verdict =
      tail
        .trim()
        .split('\n')
        .filter((l) => /^conformance (PASS|FAIL)/.test(l))
        .pop() ?? `exit ${code}`;
    const ratio = r.floor ? `, ${(ms / REALTIME_FLOOR_MS).toFixed(2)}x the floor` : '';
    const line = `${r.name.padEnd(12)} ${(ms / 1000).toFixed(1).padStart(6)} s wall${ratio}; exit ${code}; load ${before} -> ${after}; ${verdict}`;
    console.log(line);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
