/**
 * The observe figure of the mock host benchmark (issue 31): N signed callbacks over C connections into
 * `ccs-conformance observe` (live, --quiet), none lost (its saved journal checked entry by entry: count,
 * bytes by sha256, a valid verdict, an answer), and the judge's rate (callbacks judged per second, from
 * observe's "stopped" line to its "judged" line) next to the mock host's measured ingest rate at the same
 * load (`mock-host --quiet`). First the generator proves it saturates bare fastify at that load, as the
 * throughput table does; otherwise the rates show the generator and the figure says so.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JournalEntry } from '../../mock-host/index.ts';
import { BENCH_ONLY_SECRET, HOOK_PATH } from './callbacks.ts';
import { pin, runLoad, startServer } from './processes.ts';
import { checkEntries } from './server.ts';
import { startStandalone } from './standalone.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/**
 * observe stops this long after the last request (past the generator reading its CPU time on a loaded
 * machine); the judge is timed from its "stopped" line
 */
const IDLE_S = 15;
const SATURATED = 0.9;

interface Observed {
  url: string;
  pid: number;
  /** resolves with the moments (performance.now()) of the stopped and judged lines, and the judged line */
  done: Promise<{ stoppedAt: number; judgedAt: number; judged: string; code: number | null }>;
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
  let stoppedAt = 0;
  let judgedAt = 0;
  let judged = '';
  let ready: (url: string) => void;
  const url = new Promise<string>((r) => (ready = r));
  child.stdout!.on('data', (d: Buffer) => {
    const now = performance.now();
    out += d.toString('utf8');
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) ready(m[1]!);
    if (!stoppedAt && /observe: stopped/.test(out)) stoppedAt = now;
    const j = /observe: \d+ callback\(s\) judged[^\n]*/.exec(out);
    if (!judgedAt && j) {
      judgedAt = now;
      judged = j[0];
    }
  });
  const done = new Promise<{ stoppedAt: number; judgedAt: number; judged: string; code: number | null }>((r) =>
    child.once('exit', (code) => r({ stoppedAt, judgedAt, judged, code })),
  );
  return url.then((u) => ({ url: u, pid: child.pid!, done }));
}

export async function observeFigure(n: number, connections: number): Promise<number> {
  console.log(`observe figure: ${n} HMAC-signed callbacks over ${connections} connections into \`observe\` (live)`);
  const bare = await startServer('bare');
  await runLoad({ url: bare.url, serverPid: bare.pid, from: 0, n: Math.min(20_000, n), connections });
  const b = await runLoad({ url: bare.url, serverPid: bare.pid, from: 0, n, connections });
  await bare.stop();
  const busy = b.cpu / (b.ms / 1000);
  const saturated = busy >= SATURATED;
  console.log(
    `load generator: bare fastify ${b.rps.toFixed(0)} req/s, busy ${(busy * 100).toFixed(0)}% of one core -> ${saturated ? 'saturated' : `NOT saturated (under ${SATURATED * 100}%): the rates below show the generator`}`,
  );
  const mock = await startStandalone({ quiet: true });
  pin(mock.pid, 0);
  const m = await runLoad({ url: mock.url, serverPid: mock.pid, from: 0, n, connections });
  await mock.stop();
  const dir = mkdtempSync(join(tmpdir(), 'ccs-bench-observe-'));
  try {
    const obs = await startObserve(dir);
    pin(obs.pid, 0);
    const o = await runLoad({ url: obs.url, serverPid: obs.pid, from: 0, n, connections });
    const end = await obs.done;
    const judgeS = (end.judgedAt - end.stoppedAt) / 1000;
    const text = readFileSync(join(dir, 'reports', 'journal.jsonl'), 'utf8');
    const entries = text
      .split('\n')
      .filter((l) => l.startsWith('{"seq"'))
      .map((l) => JSON.parse(l) as JournalEntry);
    const check = checkEntries(entries, 0, n, 0);
    const counted = Number(/observe: (\d+) callback/.exec(end.judged)?.[1] ?? -1);
    const intact =
      check.entries === n &&
      check.missing === 0 &&
      check.wrongBytes === 0 &&
      check.wrongVerdict === 0 &&
      check.unanswered === 0 &&
      counted === n &&
      o.errors + o.timeouts + o.non2xx === 0;
    console.log(`${'ingest at the same load'.padEnd(34)}   req/s  errors`);
    console.log(`${'mock-host --quiet'.padEnd(34)}${m.rps.toFixed(0).padStart(8)}${String(m.errors).padStart(8)}`);
    console.log(`${'observe (live)'.padEnd(34)}${o.rps.toFixed(0).padStart(8)}${String(o.errors).padStart(8)}`);
    console.log(
      `judge: ${counted} callbacks judged in ${judgeS.toFixed(2)} s = ${(counted / judgeS).toFixed(0)} callbacks/s ` +
        `(${(counted / judgeS / m.rps).toFixed(2)} x the mock host's ingest rate), exit ${end.code}`,
    );
    console.log(
      `observe journal: ${check.entries} entries, lost ${check.missing}, wrong bytes ${check.wrongBytes}, verdict not ` +
        `valid ${check.wrongVerdict}, not answered ${check.unanswered}, judged ${counted} of ${n} -> ${intact ? 'PASS' : 'FAIL'}`,
    );
    return intact && saturated ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
