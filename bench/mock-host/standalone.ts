/**
 * The standalone mock host (`ccs-conformance mock-host`) as a server under test: started as the
 * command a user runs, its per-request lines going to a file (as to a terminal or a log, not to a
 * pipe somebody must drain), its journal checked over the admin API page by page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, closeSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { BENCH_ONLY_SECRET, HOOK_PATH } from './callbacks.ts';
import { checkEntries, type JournalCheck } from './server.ts';
import type { JournalEntry } from '../../mock-host/index.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

export interface Standalone {
  url: string;
  pid: number;
  /** lines printed so far (arrival and completion lines, after the two start lines) */
  lines(): number;
  check(from: number, n: number): Promise<JournalCheck>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

function get(url: string, method = 'GET'): Promise<string> {
  return new Promise((done, fail) => {
    const req = request(url, { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

export async function startStandalone(o: { quiet: boolean; execArgv?: string[] }): Promise<Standalone> {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-bench-'));
  const secretFile = join(dir, 'secret.txt');
  writeFileSync(secretFile, BENCH_ONLY_SECRET + '\n');
  const outFile = join(dir, 'out.log');
  const fd = openSync(outFile, 'w');
  const args = [
    join(ROOT, 'cli/bin.mjs'),
    'mock-host',
    '--port',
    '0',
    '--hook-path',
    HOOK_PATH,
    '--hmac-secret-file',
    secretFile,
  ];
  if (o.quiet) args.push('--quiet');
  const child: ChildProcess = spawn(process.execPath, [...(o.execArgv ?? []), ...args], {
    cwd: ROOT,
    stdio: ['ignore', fd, 'inherit'],
  });
  closeSync(fd);
  const read = () => readFileSync(outFile, 'utf8');
  const deadline = Date.now() + 120_000;
  let url: string | undefined;
  while (url === undefined) {
    const m = /mock host listening on (http:\/\/[^ ]+) /.exec(read());
    if (m) url = m[1];
    else if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the standalone mock host did not start: ${read()}`);
    else await new Promise((r) => setTimeout(r, 100));
  }
  const base = url;
  return {
    url: base,
    pid: child.pid!,
    lines: () =>
      read()
        .split('\n')
        .filter((l) => l.startsWith('-> ') || l.startsWith('<- ')).length,
    async check(from, n) {
      const entries: JournalEntry[] = [];
      let since = 0;
      let dropped = 0;
      for (;;) {
        const page = JSON.parse(await get(`${base}/__admin/journal?since=${since}&limit=10000`)) as {
          entries: JournalEntry[];
          dropped: number;
        };
        dropped = page.dropped;
        if (page.entries.length === 0) break;
        entries.push(...page.entries);
        since = page.entries.at(-1)!.seq;
      }
      return checkEntries(entries, from, n, dropped);
    },
    async reset() {
      await get(`${base}/__admin/reset`, 'POST');
    },
    async stop() {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
