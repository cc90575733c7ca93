/**
 * The two processes of an observe self test, started as a user starts them: the reference service
 * (`ccs-conformance reference-service`, optionally with a seeded fault) and `ccs-conformance observe`.
 * Each resolves once it printed its URL, within a deadline; each is stopped by its own pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'cli', 'bin.mjs');
const START_DEADLINE_MS = 30_000;
const PIPES: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];

export interface Child {
  url: string;
  child: ChildProcess;
  out(): string;
  exited: Promise<number | null>;
}

/** The test's environment without CCS_* settings: the child reads only its flags. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('CCS_')) delete env[k];
  return env;
}

function start(
  args: string[],
  ready: (out: string) => string | undefined,
  env: Record<string, string> = {},
): Promise<Child> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...cleanEnv(), ...env }, stdio: PIPES });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    const late = () => reject(new Error(`${args[0]} printed no URL within ${START_DEADLINE_MS} ms: ${out}`));
    const timer = setTimeout(late, START_DEADLINE_MS);
    const poll = setInterval(() => {
      const url = ready(out);
      if (url === undefined && child.exitCode === null) return;
      clearInterval(poll);
      clearTimeout(timer);
      if (url === undefined) reject(new Error(`${args[0]} exited ${child.exitCode}: ${out}`));
      else resolve({ url, child, out: () => out, exited });
    }, 50);
  });
}

export function startReference(timeScale: number, faults: string[] = []): Promise<Child> {
  const args = ['reference-service', '--port', '0', '--time-scale', String(timeScale)];
  for (const f of faults) args.push('--fault', f);
  return start(args, (out) => (out.includes('Ctrl-C') ? /listening on (http:\/\/\S+)/.exec(out)?.[1] : undefined));
}

/** env: variables the child gets besides the test's own (a token that --token-env names). */
export function startObserve(args: string[], env: Record<string, string> = {}): Promise<Child> {
  return start(
    ['observe', '--port', '0', '--quiet', ...args],
    (out) => /listening on (http:\/\/\S+)/.exec(out)?.[1],
    env,
  );
}

/** Runs `ccs-conformance observe` to its end (e.g. --from); resolves with its exit code and output. */
export async function runObserve(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'observe', ...args], { cwd: ROOT, env: cleanEnv(), stdio: PIPES });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.once('exit', (code) => resolve({ code, out }));
  });
}

export function stop(c: Child | undefined): void {
  if (c && c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGTERM');
}
