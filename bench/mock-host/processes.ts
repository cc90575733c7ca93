/**
 * The processes of the mock host benchmark: each server under test in its own process (the standalone
 * command, or a child holding an embedded MockHost), and one load generator process for the whole run
 * (autocannon, bench/mock-host/load.ts, or the pipelined one, pipelined.ts); on two or more cores the
 * servers and the generator are pinned to cores of their own.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './measure.ts';
import { startStandalone, type Standalone } from './standalone.ts';

const HERE = fileURLToPath(new URL('./', import.meta.url));
export const KINDS = ['bare', 'standalone', 'standalone-quiet', 'embedded', 'embedded-subscriber'] as const;
export type Kind = (typeof KINDS)[number];

export interface Server {
  url: string;
  pid: number;
  ask?: (msg: object) => Promise<unknown>;
  standalone?: Standalone;
  stop(): Promise<void>;
}

export function childOf(script: string, args: string[], execArgv: string[] = []): ChildProcess {
  return fork(HERE + script, args, { execArgv: ['--import', 'tsx', ...execArgv], stdio: 'inherit' });
}

/**
 * On a machine of two or more cores the servers run on the first core and the generator on the
 * second (taskset, every thread of the process): the scheduler then never makes them take turns on
 * one core, which would cap the baseline below what it can do.
 */
let pinning = false;
export function setPinning(on: boolean): void {
  pinning = on;
}
export function pin(pid: number, core: number): void {
  if (!pinning) return;
  const r = spawnSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) {
    pinning = false;
    console.log(`(not pinned to cores: taskset ${r.error ? 'is not available' : `said ${(r.stderr || '').trim()}`})`);
  }
}

/** node flags of the servers under test: `--profile DIR` writes a CPU profile of each into DIR */
let serverFlags: string[] = [];
export function setServerFlags(flags: string[]): void {
  serverFlags = flags;
}

export async function startServer(kind: Kind, maxEntries?: number): Promise<Server> {
  if (kind === 'standalone' || kind === 'standalone-quiet') {
    const s = await startStandalone({ quiet: kind === 'standalone-quiet', execArgv: serverFlags });
    pin(s.pid, 0);
    return { url: s.url, pid: s.pid, standalone: s, stop: () => s.stop() };
  }
  const child = childOf(
    'server.ts',
    ['--child', kind, ...(maxEntries ? ['--max-entries', String(maxEntries)] : [])],
    ['--expose-gc', ...serverFlags],
  );
  const ask = (msg: object) =>
    new Promise<unknown>((resolve) => {
      child.once('message', resolve);
      child.send(msg);
    });
  const { url } = (await new Promise((resolve) => child.once('message', resolve))) as { url: string };
  const stop = async () => {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send({ cmd: 'stop' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  pin(child.pid!, 0);
  return { url, pid: child.pid!, ask, stop };
}

/**
 * The load generators: one process each for the whole run (autocannon, load.ts; the pipelined one,
 * pipelined.ts, for a job with a window), so its JIT is as warm in the last round as autocannon's
 * own command is after its first second; jobs run one at a time.
 */
const generators = new Map<string, ChildProcess>();
export function runLoad(job: LoadJob): Promise<LoadResult> {
  const script = job.window ? 'pipelined.ts' : 'load.ts';
  let g = generators.get(script);
  if (g === undefined) {
    g = childOf(script, ['--child']);
    generators.set(script, g);
    pin(g.pid!, 1);
  }
  const child = g;
  // a round never hangs the run: at 1,000 req/s (a fraction of any server here) plus a minute
  const deadlineMs = job.n + 60_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      generators.delete(script);
      reject(new Error(`load round of ${job.n} requests to ${job.url} did not end within ${deadlineMs / 1000} s`));
    }, deadlineMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      generators.delete(script);
      reject(new Error(`load generator exited with code ${code}`));
    };
    child.once('exit', onExit);
    child.once('message', (m) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(m as LoadResult);
    });
    child.send(job);
  });
}

/** Ends the generator processes (after the last round). */
export function stopGenerator(): void {
  for (const g of generators.values()) g.kill();
  generators.clear();
}
