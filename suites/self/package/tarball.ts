/**
 * The published package as a user gets it: `npm pack` of this repository (prepack builds dist/),
 * installed from the tarball into an empty project in a temporary folder, offline from the npm
 * cache. Every child process has a deadline; a hung one is killed and reported with its output.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Ran { code: number | null; stdout: string; stderr: string }

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

export function exec(command: string, args: string[], o: { cwd: string; deadlineMs: number; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    const timer = setTimeout(() => {
      // The child leads its own process group: end it and its children, by its id only.
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
      reject(new Error(`${command} ${args.join(' ')} passed its ${o.deadlineMs} ms deadline\n${stdout}\n${stderr}`));
    }, o.deadlineMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

export interface Packed { work: string; tarball: string; size: number; files: string[]; project: string }

/** Packs once and installs the tarball into a new empty project. */
export async function packAndInstall(): Promise<Packed> {
  const work = mkdtempSync(join(tmpdir(), 'ccs-package-'));
  const pack = await exec('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, deadlineMs: 120_000 });
  if (pack.code !== 0) throw new Error(`npm pack exited ${pack.code}\n${pack.stderr}`);
  const json = pack.stdout.slice(pack.stdout.indexOf('['));
  const [info] = JSON.parse(json) as Array<{ filename: string; size: number; files: Array<{ path: string }> }>;
  const tarball = join(work, info!.filename);
  const project = join(work, 'user-project');
  await exec('mkdir', ['-p', project], { cwd: work, deadlineMs: 5_000 });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', private: true }, null, 2));
  const install = await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, deadlineMs: 180_000 });
  if (install.code !== 0) throw new Error(`npm install of the tarball exited ${install.code}\n${install.stderr}`);
  return { work, tarball, size: info!.size, files: info!.files.map((f) => f.path), project };
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
