/** Where the package lives and how to start Playwright's own CLI from it. */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Redactor } from '../reports/index.ts';

const require = createRequire(import.meta.url);

export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
/** 'js' when running from the published package (compiled), 'ts' in a clone. */
export const OWN_EXT = import.meta.url.endsWith('.js') ? 'js' : 'ts';

/** Env of a child Playwright: never the variables that make it think it is a worker of ours. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|PLAYWRIGHT_)/.test(k) || k.startsWith('PW_')) continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * Copies a child's stream to ours with the listed secrets replaced. Text is released up to the last
 * line break (\\n or \\r), so a secret split across two chunks is still caught.
 */
function pipeRedacted(from: NodeJS.ReadableStream, to: NodeJS.WriteStream, redactor: Redactor): Promise<void> {
  return new Promise((resolve) => {
    let held = '';
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => {
      held += chunk;
      const cut = Math.max(held.lastIndexOf('\n'), held.lastIndexOf('\r'));
      if (cut < 0) return;
      to.write(redactor.literal(held.slice(0, cut + 1)));
      held = held.slice(cut + 1);
    });
    from.on('end', () => {
      if (held) to.write(redactor.literal(held));
      resolve();
    });
  });
}

/**
 * Runs `playwright <args>` in the package root; resolves with its exit code. With secrets, the
 * child's output is piped through the redactor (and told whether we are on a terminal).
 */
export function runPlaywright(args: string[], env: NodeJS.ProcessEnv, secrets: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const piped = secrets.length > 0;
    const childEnvironment = piped && process.stdout.isTTY ? { ...env, CCS_PROGRESS_TTY: '1', FORCE_COLOR: '1' } : env;
    // Playwright resolves testDir from the config's folder: name the package's own config (PITFALLS: Packaging).
    const withConfig =
      args[0] === 'test' && !args.some((a) => a === '--config' || a.startsWith('--config=') || a === '-c')
        ? ['test', '--config', join(PACKAGE_ROOT, `playwright.config.${OWN_EXT}`), ...args.slice(1)]
        : args;
    const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...withConfig], {
      cwd: PACKAGE_ROOT,
      env: childEnvironment,
      stdio: piped ? ['inherit', 'pipe', 'pipe'] : 'inherit',
    });
    const done: Array<Promise<void>> = [];
    if (piped && child.stdout && child.stderr) {
      const redactor = new Redactor(secrets);
      done.push(
        pipeRedacted(child.stdout, process.stdout, redactor),
        pipeRedacted(child.stderr, process.stderr, redactor),
      );
    }
    child.on('error', reject);
    child.on('close', (code, signal) => {
      void Promise.all(done).then(() => resolve(code ?? (signal ? 1 : 0)));
    });
  });
}
