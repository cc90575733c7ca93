/**
 * One child Playwright run with a deadline, and its JSON report read back: the plumbing shared by
 * the mutation matrix (runner.ts) and the data API forms run (suites/forms/runner.ts). The child
 * leads its own process group, so a hang is ended with its workers, by its id only.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseResultsText, type TestOutcome } from './results.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Playwright's CLI wherever npm put it (hoisted beside an installed package, or in the clone). */
const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

export interface ChildRun {
  code: number | null;
  timedOut: boolean;
  stderr: string;
  durationMs: number;
}

/** Runs `playwright test --config=<config>` from the repository root; killed at the deadline. */
export function runChildPlaywright(o: {
  config: string;
  env: NodeJS.ProcessEnv;
  deadlineMs: number;
  onProgress?: (line: string) => void;
}): Promise<ChildRun> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', `--config=${o.config}`], {
      cwd: REPO_ROOT,
      env: o.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const err: string[] = [];
    let partial = '';
    child.stdout.on('data', (c: Buffer) => {
      const lines = (partial + c.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) o.onProgress?.(line);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 200) err.push(c.toString('utf8'));
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, o.deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, timedOut, stderr: err.join(''), durationMs: performance.now() - started });
    });
  });
}

/** The child's tests from its JSON report, and the first error that kept it from reporting (if any). */
export function readChildResults(
  resultsPath: string,
  run: ChildRun,
  deadlineMs: number,
): { tests: TestOutcome[]; error?: string } {
  let tests: TestOutcome[] = [];
  let error: string | undefined;
  try {
    const parsed = parseResultsText(existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '');
    tests = parsed.tests;
    if (parsed.errors.length) error = parsed.errors[0]!.split('\n')[0]!.slice(0, 300);
  } catch (e) {
    const stderr = run.stderr
      .split('\n')
      .filter((l) => l.trim() && !/npm warn/i.test(l))
      .slice(-3)
      .join(' | ');
    error = `${(e as Error).message}${stderr ? `; stderr: ${stderr.slice(0, 300)}` : ''}`;
  }
  if (run.timedOut) error = `no result within ${Math.round(deadlineMs / 1000)} s: the child was killed`;
  return { tests, ...(error ? { error } : {}) };
}
