/**
 * Benchmark of the mock host: signed callbacks (HMAC, onComplete bodies of about 230 bytes) over
 * 512 keep-alive connections, driven by autocannon from a process of its own, against each server
 * in its own process: a bare fastify server that only acknowledges, the standalone mock host with
 * its per-request lines and with --quiet, the embedded MockHost, and the embedded MockHost with one
 * journal subscriber that summarizes every change as the inspector's event stream does. Rounds
 * alternate the servers, so a change in the machine's load hits them alike. Prints req/s, p50 and
 * p99 latency, server CPU per request and the ratios to bare fastify, and first of all whether
 * the generator saturated bare fastify (else the ratios would show the generator, not the
 * servers); then checks every journal: each callback recorded once with the bytes sent (sha256),
 * a valid verdict and an answer; and the bytes a journal entry takes.
 *
 * Run: npm run bench:mock-host [-- --requests N --connections C --rounds R --only a,b]
 *      npm run bench:mock-host -- --hold 1000000 [--max-entries M]   (memory: bytes per entry held)
 *      npm run bench:mock-host -- --only embedded --profile DIR      (a CPU profile of each server)
 *      npm run bench:mock-host -- --observe [--requests N --connections C]   (the observe figure alone)
 * Without --only the run ends with the observe figure (bench/mock-host/observe.ts). The table keeps
 * autocannon; the observe figure drives its load with its own pipelined generator (bench/mock-host/pipelined.ts),
 * since at 64 connections with one request in flight on each autocannon saturates none of the servers.
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { JournalCheck, MemoryFigure } from './mock-host/server.ts';
import { hold } from './mock-host/memory.ts';
import { observeFigure } from './mock-host/observe.ts';
import {
  KINDS,
  runLoad,
  setPinning,
  setServerFlags,
  startServer,
  stopGenerator,
  type Kind,
  type Server,
} from './mock-host/processes.ts';

const LABEL: Record<Kind, string> = {
  bare: 'bare fastify (ack only)',
  standalone: 'mock-host (lines on)',
  'standalone-quiet': 'mock-host --quiet',
  embedded: 'MockHost (embedded)',
  'embedded-subscriber': 'MockHost + 1 subscriber',
};

/**
 * Enough connections that requests always wait at the server: with fewer, on two cores, the
 * generator and the server spend part of every round trip waking each other, and neither is busy.
 */
const DEFAULT_CONNECTIONS = 512;

/** the share of one core the baseline must be busy for the run to prove the generator saturates it */
const SATURATED = 0.9;

interface Totals {
  ok: number;
  errors: number;
  non2xx: number;
  ms: number;
  cpu: number;
  generatorCpu: number;
  idle: number[];
  p50: number[];
  p99: number[];
}

function fmt(n: number, digits = 0): string {
  return n.toFixed(digits).padStart(8);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      only: { type: 'string' },
      hold: { type: 'string' },
      'max-entries': { type: 'string' },
      profile: { type: 'string' },
      'no-pin': { type: 'boolean' },
      observe: { type: 'boolean' },
    },
  });
  setPinning(availableParallelism() >= 2 && !values['no-pin']);
  if (values.profile) setServerFlags(['--cpu-prof', `--cpu-prof-dir=${values.profile}`]);
  if (values.hold)
    return hold(
      Number(values.hold),
      values['max-entries'] ? Number(values['max-entries']) : undefined,
      Number(values.connections ?? DEFAULT_CONNECTIONS),
    );
  if (values.observe) {
    const code = await observeFigure(Number(values.requests ?? 100_000), Number(values.connections ?? 64));
    stopGenerator();
    return code;
  }
  const n = Number(values.requests ?? 200_000);
  const connections = Number(values.connections ?? DEFAULT_CONNECTIONS);
  const warmup = Number(values.warmup ?? 20_000);
  const rounds = Math.max(1, Number(values.rounds ?? 4));
  const kinds = (values.only ? values.only.split(',') : [...KINDS]) as Kind[];
  if (!kinds.includes('bare')) kinds.unshift('bare');
  console.log(
    `mock-host benchmark: ${n} HMAC-signed callbacks per server over ${connections} keep-alive connections, autocannon in its own process; ${rounds} rounds alternating the servers; warm-up ${warmup}`,
  );
  console.log(
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );

  const servers = new Map<Kind, Server>();
  for (const k of kinds) servers.set(k, await startServer(k));
  let base = 10_000_000;
  for (const k of kinds) {
    await runLoad({ url: servers.get(k)!.url, serverPid: servers.get(k)!.pid, from: base, n: warmup, connections });
    base += warmup;
  }
  for (const k of kinds) {
    const s = servers.get(k)!;
    if (s.standalone) await s.standalone.reset();
    else if (k !== 'bare') await s.ask!({ cmd: 'reset' });
  }
  const memBase = new Map<Kind, MemoryFigure>();
  for (const k of kinds)
    if (k.startsWith('embedded')) memBase.set(k, (await servers.get(k)!.ask!({ cmd: 'memory' })) as MemoryFigure);

  const totals = new Map<Kind, Totals>(
    kinds.map((k) => [k, { ok: 0, errors: 0, non2xx: 0, ms: 0, cpu: 0, generatorCpu: 0, idle: [], p50: [], p99: [] }]),
  );
  for (let r = 0; r < rounds; r++) {
    const from = Math.floor((r * n) / rounds);
    const count = Math.floor(((r + 1) * n) / rounds) - from;
    const line: string[] = [];
    for (const k of kinds) {
      const s = servers.get(k)!;
      const res = await runLoad({ url: s.url, serverPid: s.pid, from, n: count, connections });
      const t = totals.get(k)!;
      t.cpu += res.cpu;
      t.generatorCpu += res.generatorCpu;
      t.idle.push(res.machineIdle);
      t.ok += res.ok;
      t.errors += res.errors + res.timeouts;
      t.non2xx += res.non2xx;
      t.ms += res.ms;
      t.p50.push(res.p50);
      t.p99.push(res.p99);
      line.push(`${k} ${res.rps.toFixed(0)}`);
    }
    console.log(`  round ${r + 1}/${rounds} req/s: ${line.join(', ')}`);
  }

  const rps = (k: Kind) => (totals.get(k)!.ok / totals.get(k)!.ms) * 1000;
  const cpuPer = (k: Kind) => (totals.get(k)!.cpu * 1e6) / Math.max(1, totals.get(k)!.ok);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log('');
  // the ratios show the servers only if the generator outruns the fastest of them: a node server
  // works on one core, so the baseline is saturated when it is busy nearly all of its timed wall time
  const bare = totals.get('bare')!;
  const busy = bare.cpu / (bare.ms / 1000);
  const saturated = busy >= SATURATED;
  console.log(
    `load generator: bare fastify was busy ${(busy * 100).toFixed(0)}% of one core while timed (the generator ${((bare.generatorCpu / (bare.ms / 1000)) * 100).toFixed(0)}%, the machine idle ${((bare.idle.reduce((a, b) => a + b, 0) / bare.idle.length) * 100).toFixed(0)}%) -> ${saturated ? 'saturated, the ratios compare the servers' : `NOT saturated (under ${SATURATED * 100}%), the req/s ratios show the generator`}`,
  );
  console.log(`${'server'.padEnd(26)}   req/s  p50 ms  p99 ms  CPU us/req  ratio req/s  ratio CPU  errors non2xx`);
  for (const k of kinds) {
    const t = totals.get(k)!;
    console.log(
      `${LABEL[k].padEnd(26)}${fmt(rps(k))}${fmt(median(t.p50))}${fmt(Math.max(...t.p99))}${fmt(cpuPer(k), 1).padStart(12)}${fmt(rps(k) / rps('bare'), 2).padStart(13)}${fmt(cpuPer('bare') / cpuPer(k), 2).padStart(11)}${String(t.errors).padStart(7)}${String(t.non2xx).padStart(7)}`,
    );
  }
  console.log(
    "(p50: median of the rounds; p99: worst round; ratio CPU: bare fastify CPU per request / this server's, a figure the machine's other load moves less)",
  );
  console.log(
    `load average at end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );

  let intact = true;
  console.log('');
  for (const k of kinds) {
    if (k === 'bare') continue;
    const s = servers.get(k)!;
    let mem: MemoryFigure | undefined;
    if (s.ask) mem = (await s.ask({ cmd: 'memory' })) as MemoryFigure;
    const check = (
      s.standalone ? await s.standalone.check(0, n) : await s.ask!({ cmd: 'check', from: 0, n })
    ) as JournalCheck;
    const lost = check.missing + (n - Math.min(n, check.entries));
    const ok =
      lost === 0 &&
      check.wrongBytes === 0 &&
      check.wrongVerdict === 0 &&
      check.unanswered === 0 &&
      check.entries === n &&
      totals.get(k)!.errors === 0;
    intact &&= ok;
    let extra = '';
    if (s.standalone && k === 'standalone') {
      const lines = s.standalone.lines();
      const expected = 2 * (n + warmup);
      extra += `; lines ${lines} of ${expected}`;
      intact &&= lines === expected;
    }
    if (check.changes !== undefined) extra += `; subscriber drained ${check.changes} changes`;
    if (mem && memBase.has(k)) {
      const b = memBase.get(k)!;
      const unread = (mem.heapBytes + mem.externalBytes - b.heapBytes - b.externalBytes) / Math.max(1, mem.entries);
      const readMem = (await s.ask!({ cmd: 'memory' })) as MemoryFigure;
      const read =
        (readMem.heapBytes + readMem.externalBytes - b.heapBytes - b.externalBytes) / Math.max(1, readMem.entries);
      extra += `; bytes per entry ${unread.toFixed(0)} unread, ${read.toFixed(0)} once read`;
    }
    console.log(
      `journal ${LABEL[k]}: ${check.entries} entries, lost ${lost}, wrong bytes ${check.wrongBytes}, verdict not valid ${check.wrongVerdict}, not answered ${check.unanswered}, dropped ${check.dropped}${extra} -> ${ok ? 'PASS' : 'FAIL'}`,
    );
  }
  for (const s of servers.values()) await s.stop();
  // the observe figure after the table: 100,000 callbacks over 64 connections into observe, whose judge must
  // keep up with what the mock host ingests
  console.log('');
  const observed = values.only ? 0 : await observeFigure(100_000, 64);
  stopGenerator();
  console.log(
    intact
      ? 'journal check: PASS (every callback recorded once, byte for byte, with a valid verdict)'
      : 'journal check: FAIL',
  );
  if (!saturated)
    console.log(
      'benchmark: FAIL, the load generator did not saturate bare fastify, so the ratios above do not compare the servers',
    );
  return intact && saturated && observed === 0 ? 0 : 1;
}

process.exitCode = await main();
process.exit();
