/**
 * What a round of the mock-host benchmark's load generators (load.ts, pipelined.ts) is given and
 * measures: the job, its figures, and the CPU readings from /proc that every generator takes alike.
 * Kept apart from the generators, whose modules start listening for jobs when run as a child.
 */
import { readFileSync } from 'node:fs';

export interface LoadJob {
  url: string;
  /** the server's process, whose CPU time is read when the clock starts and when it stops */
  serverPid: number;
  from: number;
  n: number;
  connections: number;
  /** requests in flight per connection: given, the round runs on the pipelined generator (pipelined.ts) */
  window?: number;
}

export interface LoadResult {
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  ms: number;
  /** CPU seconds the server used while timed */
  cpu: number;
  /** CPU seconds the generator itself used while timed */
  generatorCpu: number;
  /** the share of the whole machine's CPU time left idle while timed */
  machineIdle: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Idle and total time of the whole machine so far, in clock ticks (/proc/stat). */
export function machineTicks(): { idle: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: f[3]! + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
}

/** CPU seconds a process has used (user + system), from /proc: the same measure for every server. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
