/** Runs the real `ccs-conformance` command in a child process against the tiny fixture suite. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const BIN = join(ROOT, 'cli', 'bin.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The temporary folders this worker made; removed when it exits (a failed test's folder too). */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new temporary folder, removed when the worker exits. */
export function tempDir(prefix = 'ccs-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Env without what makes a child Playwright believe it is one of our workers. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|PLAYWRIGHT_|PW_)/.test(k) || k.startsWith('CCS_')) continue;
    env[k] = v;
  }
  return {
    ...env,
    CCS_RUN_CONFIG: join(FIXTURES, 'playwright.config.ts'),
    CCS_MERGE_CONFIG: join(FIXTURES, 'merge.config.ts'),
    CCS_CLAUSES_FILE: join(FIXTURES, 'clauses.yaml'),
    CCS_WORKERS: '1',
    ...extra,
  };
}

/** Every run has a deadline: a hung child is killed and the test fails with what it printed. */
export function cli(args: string[], extra: Record<string, string> = {}, deadlineMs = 150_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: cleanEnv(extra),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`ccs-conformance ${args.join(' ')} did not finish within ${deadlineMs} ms\n${stdout}\n${stderr}`),
      );
    }, deadlineMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function readJson<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

export function statuses(report: { clauses: Array<{ id: string; status: string }> }): Record<string, string> {
  return Object.fromEntries(report.clauses.map((c) => [c.id, c.status]));
}
