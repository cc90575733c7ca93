/**
 * The published package as a user gets it: `npm pack` of this repository (prepack builds dist/),
 * installed from the tarball into an empty project in a temporary folder, offline from the npm
 * cache, with a Node of each supported major taken from the npm registry's `node` package.
 * Every child process has a deadline; a hung one is killed and reported with its output.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../cli/helpers.ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Env without the variables of our own run: the child is a user's shell, not one of our workers. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // npm's own config (npm_config_*: cache, registry) stays: the install must find the same cache.
    if (/^(TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|PLAYWRIGHT_|PW_|CCS_|npm_lifecycle_|npm_package_)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export function exec(
  command: string,
  args: string[],
  o: { cwd: string; deadlineMs: number; env?: NodeJS.ProcessEnv },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: o.cwd,
      env: o.env ?? userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => {
      // The child leads its own process group: end it and its children, by its id only.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      reject(new Error(`${command} ${args.join(' ')} passed its ${o.deadlineMs} ms deadline\n${stdout}\n${stderr}`));
    }, o.deadlineMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Packed {
  work: string;
  tarball: string;
  size: number;
  files: string[];
}

/** Packs once (prepack builds dist/) into a new temporary folder. */
export async function pack(): Promise<Packed> {
  const work = tempDir('ccs-package-');
  const r = await exec('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, deadlineMs: 120_000 });
  if (r.code !== 0) throw new Error(`npm pack exited ${r.code}\n${r.stderr}`);
  const json = r.stdout.slice(r.stdout.indexOf('['));
  const [info] = JSON.parse(json) as Array<{ filename: string; size: number; files: Array<{ path: string }> }>;
  return { work, tarball: join(work, info!.filename), size: info!.size, files: info!.files.map((f) => f.path) };
}

/**
 * `npm pack` rebuilds dist/ (prepack): two workers packing at once would each delete the other's
 * build. Packing is held under a lock folder (mkdir is atomic) beside the system's temporary files,
 * one per checkout; the tarball, once written, is each worker's own.
 */
async function underPackLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), `ccs-pack-lock-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`);
  // A pack takes seconds; a lock older than the pack's own deadline was left by a killed worker.
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      if (Date.now() > deadline) throw new Error(`another worker held ${lock} for 240 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

let packing: Promise<Packed> | undefined;

/** The tarball of this checkout, packed once per worker (its folder is removed when the worker exits). */
export function packedOnce(): Promise<Packed> {
  packing ??= underPackLock(pack);
  return packing;
}

/** The Node versions the package supports and is tested on (package.json engines: 22 or later). */
export const TESTED_NODE_MAJORS = ['22', '24', '26'] as const;

/**
 * The folder of a Node binary of this major, from the npm registry's `node` package (what
 * `npx -p node@24 node` runs), kept in npx's cache after the first time.
 */
export async function nodeBinDir(major: string): Promise<string> {
  const r = await exec('npx', ['--yes', '--prefer-offline', '-p', `node@${major}`, 'node', '-p', 'process.execPath'], {
    cwd: tmpdir(),
    deadlineMs: 300_000,
  });
  if (r.code !== 0) throw new Error(`npx -p node@${major} exited ${r.code}\n${r.stderr}`);
  return dirname(r.stdout.trim());
}

/** A user's shell whose `node` (and so npm and npx) is the one in binDir. */
export function envWithNode(binDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = userEnv({ ...extra, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` });
  // npm run sets these to the Node that runs npm test: the child must find its Node on PATH.
  for (const k of ['NODE', 'npm_node_execpath', 'npm_execpath']) delete env[k];
  return env;
}

export interface Installed {
  project: string;
  output: string;
}

/**
 * Installs the tarball into a new empty project `name` beside it, offline from the npm cache, with the given env's
 * Node.
 */
export async function installInto(
  packed: Packed,
  name: string,
  env: NodeJS.ProcessEnv = userEnv(),
): Promise<Installed> {
  const project = join(packed.work, name);
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '1.0.0', private: true }, null, 2),
  );
  const r = await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', packed.tarball], {
    cwd: project,
    env,
    deadlineMs: 180_000,
  });
  if (r.code !== 0) throw new Error(`npm install of the tarball exited ${r.code}\n${r.stderr}`);
  return { project, output: `${r.stdout}\n${r.stderr}` };
}

/** Every file below dir, relative to it. */
export function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, base));
    else out.push(relative(base, path));
  }
  return out;
}
