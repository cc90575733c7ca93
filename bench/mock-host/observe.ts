/**
 * The observe figure of the mock host benchmark: N signed callbacks over C connections into
 * `ccs-conformance observe` (live, --quiet), none lost (its saved journal checked entry by entry: count,
 * bytes by sha256, a valid verdict, an answer), and the judge's rate (callbacks judged per second, from
 * observe's "stopped" line to its "verdict" line) next to the mock host's measured ingest rate at the same
 * load (`mock-host --quiet`, the baseline); the time observe then takes to write the journal and the
 * reports is printed beside it. The load is pipelined (pipelined.ts). The rates compare the servers only
 * when the generator saturates them: the baseline must be busy >= 90% of its core while timed (CPU time
 * over wall time), else the figure fails. Bare fastify's line is information: how far the generator reaches. CPU times
 * (per request ingested, per callback judged) are printed too: they hold on a loaded machine.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JournalEntry } from '../../mock-host/index.ts';
import { BENCH_ONLY_SECRET, HOOK_PATH } from './callbacks.ts';
import { cpuSeconds, type LoadResult } from './measure.ts';
import { pin, runLoad, startServer } from './processes.ts';
import { checkResponseReader } from './responses-check.ts';
import { checkEntries } from './server.ts';
import { startStandalone } from './standalone.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/**
 * The bench stops observe with SIGTERM once the last response arrived; --idle only ends a run whose
 * signal went astray, so no run waits out an idle window
 */
const IDLE_S = 120;
const SATURATED = 0.9;
/**
 * Requests in flight per connection (pipelined.ts, not autocannon: see there why). Measured at 64
 * connections, 50,000 callbacks a round: a window of 1 had bare fastify 96% and mock-host --quiet 98%
 * busy, 2 had them 98% and 100% (autocannon 81% and 84%); 2 is the smallest with room to spare.
 */
const WINDOW = 2;
/**
 * Cores other processes used while timed: the machine's busy time less the server's and the generator's.
 * Past what the baseline may miss of its core (1 - SATURATED), an unsaturated baseline is not the
 * generator's doing: other processes took its core.
 */
function othersOf(r: LoadResult): number {
  return Math.max(0, availableParallelism() * (1 - r.machineIdle) - busyOf(r) - r.generatorCpu / (r.ms / 1000));
}

interface Ended {
  /**
   * performance.now() and observe's CPU seconds when its "stopped" line arrived, its "verdict" line (the
   * judging done) and its "judged" line (the journal and the reports written)
   */
  stoppedAt: number;
  stoppedCpu: number;
  verdictAt: number;
  verdictCpu: number;
  judgedAt: number;
  judgedCpu: number;
  judged: string;
  code: number | null;
}

interface Observed {
  url: string;
  pid: number;
  stop(): void;
  done: Promise<Ended>;
}

/** CPU seconds of a process that may have just ended (its figures stay readable until it is reaped). */
function cpuOf(pid: number): number {
  try {
    return cpuSeconds(pid);
  } catch {
    return NaN;
  }
}

function startObserve(dir: string): Promise<Observed> {
  const secret = join(dir, 'secret');
  writeFileSync(secret, BENCH_ONLY_SECRET);
  const args = ['observe', '--port', '0', '--quiet', '--hook-path', HOOK_PATH, '--hmac-secret-file', secret];
  args.push('--idle', String(IDLE_S), '--report-dir', join(dir, 'reports'));
  const child = spawn(process.execPath, [join(ROOT, 'cli', 'bin.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const end: Ended = {
    stoppedAt: 0,
    stoppedCpu: NaN,
    verdictAt: 0,
    verdictCpu: NaN,
    judgedAt: 0,
    judgedCpu: NaN,
    judged: '',
    code: null,
  };
  let ready: (url: string) => void;
  const url = new Promise<string>((r) => (ready = r));
  child.stdout!.on('data', (d: Buffer) => {
    const now = performance.now();
    out += d.toString('utf8');
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) ready(m[1]!);
    if (!end.stoppedAt && /observe: stopped/.test(out)) {
      end.stoppedAt = now;
      end.stoppedCpu = cpuOf(child.pid!);
    }
    if (!end.verdictAt && /observe: verdict /.test(out)) {
      end.verdictAt = now;
      end.verdictCpu = cpuOf(child.pid!);
    }
    const j = /observe: \d+ callback\(s\) judged[^\n]*/.exec(out);
    if (!end.judgedAt && j) {
      end.judgedAt = now;
      end.judgedCpu = cpuOf(child.pid!);
      end.judged = j[0];
    }
  });
  const done = new Promise<Ended>((r) => child.once('exit', (code) => r({ ...end, code })));
  return url.then((u) => ({ url: u, pid: child.pid!, stop: () => child.kill('SIGTERM'), done }));
}

/** Busy: the server's CPU time over the timed wall time, the share of its one core it used. */
function busyOf(r: LoadResult): number {
  return r.cpu / (r.ms / 1000);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

function ingestLine(label: string, r: LoadResult, n: number): string {
  const busy = busyOf(r);
  const gen = r.generatorCpu / (r.ms / 1000);
  const said = busy >= SATURATED ? 'saturated' : `NOT saturated (under ${pct(SATURATED)})`;
  return (
    `${label.padEnd(30)}${r.rps.toFixed(0).padStart(8)}${((r.cpu * 1e6) / n).toFixed(1).padStart(12)}` +
    `${pct(busy).padStart(7)}${pct(gen).padStart(11)}${pct(r.machineIdle).padStart(14)}` +
    `${othersOf(r).toFixed(2).padStart(8)}` +
    `${String(r.errors + r.timeouts + r.non2xx).padStart(8)}  ${said}`
  );
}

export async function observeFigure(n: number, connections: number): Promise<number> {
  console.log(
    `observe figure: ${n} HMAC-signed callbacks over ${connections} connections, ` +
      `${WINDOW} requests in flight on each ` +
      `(pipelined), into \`observe\` (live); load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  const reader = checkResponseReader();
  if (reader !== undefined) {
    console.log(`observe figure: FAIL: the generator's response reader is wrong (${reader})`);
    return 1;
  }
  const bare = await startServer('bare');
  await runLoad({ url: bare.url, serverPid: bare.pid, from: 0, n: Math.min(20_000, n), connections, window: WINDOW });
  const b = await runLoad({ url: bare.url, serverPid: bare.pid, from: 0, n, connections, window: WINDOW });
  await bare.stop();
  const mock = await startStandalone({ quiet: true });
  pin(mock.pid, 0);
  await runLoad({ url: mock.url, serverPid: mock.pid, from: n, n: Math.min(20_000, n), connections, window: WINDOW });
  const m = await runLoad({ url: mock.url, serverPid: mock.pid, from: 0, n, connections, window: WINDOW });
  await mock.stop();
  const dir = mkdtempSync(join(tmpdir(), 'ccs-bench-observe-'));
  try {
    const obs = await startObserve(dir);
    pin(obs.pid, 0);
    const o = await runLoad({ url: obs.url, serverPid: obs.pid, from: 0, n, connections, window: WINDOW });
    obs.stop();
    const end = await obs.done;
    const text = readFileSync(join(dir, 'reports', 'journal.jsonl'), 'utf8');
    const entries = text
      .split('\n')
      .filter((l) => l.startsWith('{"seq"'))
      .map((l) => JSON.parse(l) as JournalEntry);
    const check = checkEntries(entries, 0, n, 0);
    const counted = Number(/observe: (\d+) callback/.exec(end.judged)?.[1] ?? -1);
    const lost = n - Math.min(n, check.entries) + check.missing;
    const intact =
      lost === 0 &&
      check.entries === n &&
      check.wrongBytes === 0 &&
      check.wrongVerdict === 0 &&
      check.unanswered === 0 &&
      counted === n &&
      o.errors + o.timeouts + o.non2xx === 0;
    // others: cores other processes used while timed; a server and a generator both well under their core
    // beside them were starved, and neither rate says what the servers can do
    console.log(
      `${'ingest at the same load'.padEnd(30)}   req/s  CPU us/req   busy  generator  machine idle  others  errors`,
    );
    console.log(`${ingestLine('bare fastify (information)', b, n)}`);
    console.log(`${ingestLine('mock-host --quiet (baseline)', m, n)}`);
    console.log(`${ingestLine('observe (live)', o, n)}`);
    const saturated = busyOf(m) >= SATURATED;
    // judging: from the "stopped" line to the "verdict" line (the per-entry work the mock host deferred
    // included); the journal and the reports are written after the verdict, timed and printed apart
    const judgeS = (end.verdictAt - end.stoppedAt) / 1000;
    const judgeCpu = end.verdictCpu - end.stoppedCpu;
    const writeS = (end.judgedAt - end.verdictAt) / 1000;
    const writeCpu = end.judgedCpu - end.verdictCpu;
    const rate = counted / judgeS;
    console.log(
      `judge: ${counted} callbacks judged (stop to verdict) in ${judgeS.toFixed(2)} s = ${rate.toFixed(0)} ` +
        `callbacks/s (${(rate / m.rps).toFixed(2)} x the mock host's ingest rate); CPU ${judgeCpu.toFixed(2)} s = ` +
        `${((judgeCpu * 1e6) / counted).toFixed(1)} us per callback against ${((m.cpu * 1e6) / n).toFixed(1)} us ` +
        `per request ingested (${(m.cpu / judgeCpu).toFixed(2)} x); observe exit ${end.code}`,
    );
    console.log(
      `reports and journal written after the verdict in ${writeS.toFixed(2)} s (CPU ${writeCpu.toFixed(2)} s); ` +
        `stop to last report ${(judgeS + writeS).toFixed(2)} s`,
    );
    console.log(
      `observe journal: ${check.entries} entries, lost ${lost}, wrong bytes ${check.wrongBytes}, verdict not ` +
        `valid ${check.wrongVerdict}, not answered ${check.unanswered}, judged ${counted} of ${n} ` +
        `-> ${intact ? 'PASS' : 'FAIL'}`,
    );
    const within = rate >= m.rps;
    // the generator under its core too, with no idle time left on the machine: other processes held
    // the cores, and the rate shows neither the generator nor the server
    const unsaturated =
      othersOf(m) > 1 - SATURATED
        ? `mock-host --quiet busy ${pct(busyOf(m))} while other processes used ${othersOf(m).toFixed(2)} ` +
          `of a core: they took its core, so no rate here is the server's`
        : `the generator did not saturate mock-host --quiet (busy ${pct(busyOf(m))}), so its rate shows the generator`;
    const verdict = !saturated
      ? `FAIL: ${unsaturated}`
      : !intact
        ? 'FAIL: callbacks lost or not judged'
        : within
          ? 'PASS'
          : 'FAIL: judged slower than the mock host ingests';
    console.log(
      `observe figure (load average ${loadavg()[0]!.toFixed(2)}): lost ${lost} of ${n}; judged ` +
        `${rate.toFixed(0)}/s within the mock host's ingest rate ` +
        `${m.rps.toFixed(0)}/s? ${within ? 'yes' : 'no'} -> ${verdict}`,
    );
    return saturated && intact && within ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
