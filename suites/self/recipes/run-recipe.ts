/**
 * Runs one recipe of docs/recipes/ as a host team would: its receiver as a child process configured
 * by environment variables, then `ccs-conformance host --base-url ...` against it (a child process
 * too: suites never import cli/), on free ports, with random test-only credentials. Returns what
 * the run wrote (conformance.json, summary.md) and printed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../../../reports/index.ts';
import { exec, ROOT, userEnv } from '../package/tarball.ts';

export type RecipeName = 'node-crypto' | 'node-jose' | 'node-stripe' | 'python' | 'php' | 'go' | 'java';

export interface RecipeRun {
  recipe: RecipeName;
  mode: 'hmac' | 'jwks';
  /** The library used bare (RECIPE_BARE=1): what the recipe's page says not to do. */
  bare?: boolean;
}

/**
 * Where the receiver and the CLI come from: by default the clone's docs/recipes/ and cli/bin.mjs; an
 * installed package's test gives the copied receiver's start line and `npx ccs-conformance` instead.
 */
export interface RecipeFrom {
  receiver: { command: string; args: string[]; cwd: string };
  cli: { command: string; args: string[]; cwd: string };
  /** The user's shell both start in (its PATH finds their node and npx). */
  env: NodeJS.ProcessEnv;
}

export interface RecipeResult {
  run: RecipeRun;
  code: number | null;
  seconds: number;
  /** What the CLI printed, stdout and stderr. */
  output: string;
  report: ConformanceReport;
  summary: string;
  receiverLog: string;
}

/** The FACTS class the recipes answer (docs/recipes: displayName, preferredLanguages). */
const FACTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { displayName: { type: 'string' }, preferredLanguages: { type: 'array', items: { type: 'string' } } },
};

export const recipeTitle = (r: RecipeRun): string => `${r.recipe} ${r.mode}${r.bare ? ' (library used bare)' : ''}`;

/** Whether a listener can take `port` on loopback right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.on('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * A port for a child to listen on later. Drawn below the kernel's ephemeral range (32768 and up on
 * Linux): a port the kernel handed out with listen(0) and that we closed can be given to any
 * outgoing connection of the tests running beside us before the child binds it (a host run then
 * exits 2 on EADDRINUSE); below that range only another explicit choice can collide.
 */
async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
  throw new Error('no bindable port found in 20000-31999 after 100 tries');
}

/** The first python3 that has cryptography: the one on PATH, or Debian's (what .ci/run installs it for). */
export function pythonWithCryptography(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(python, ['-c', 'import cryptography'], { stdio: 'ignore' });
      return python;
    } catch {
      // not this one
    }
  }
  return undefined;
}

function command(recipe: RecipeName): [string, string[]] {
  if (recipe === 'go' || recipe === 'java')
    throw new Error(`the ${recipe} recipe is built by its page's copy lines: run it with a RecipeFrom (stacks.ts)`);
  if (recipe === 'php') return ['php', [join(ROOT, 'docs', 'recipes', 'php', 'serve.php')]];
  return recipe === 'python'
    ? [pythonWithCryptography() ?? 'python3', [join(ROOT, 'docs', 'recipes', 'python', 'receiver.py')]]
    : [process.execPath, [join(ROOT, 'docs', 'recipes', recipe, 'receiver.mjs')]];
}

/** Starts the receiver; resolves once it says it listens, with its log so far kept up to date. */
function startReceiver(
  recipe: RecipeName,
  env: NodeJS.ProcessEnv,
  from?: RecipeFrom,
): Promise<{ log: () => string; stop: () => void }> {
  const [cmd, args] = from ? [from.receiver.command, from.receiver.args] : command(recipe);
  const child = spawn(cmd, args, { env, cwd: from?.receiver.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${recipe} receiver did not start within 15 s:\n${log}`));
    }, 15_000);
    const onData = (c: Buffer) => {
      log += c.toString('utf8');
      if (/receiver listening/.test(log)) {
        clearTimeout(timer);
        resolve({ log: () => log, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${recipe} receiver exited ${code} before listening:\n${log}`));
    });
  });
}

export async function runRecipe(run: RecipeRun, workers = 2, from?: RecipeFrom): Promise<RecipeResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-recipe-'));
  const [port, servicePort] = [await freePort(), await freePort()];
  const service = `http://127.0.0.1:${servicePort}`;
  // Test-only credentials, random per run.
  const secret = randomBytes(24).toString('hex');
  const previous = randomBytes(24).toString('hex');
  const token = randomBytes(16).toString('hex');
  const shell = (extra: Record<string, string>): NodeJS.ProcessEnv =>
    from ? { ...from.env, ...extra } : userEnv(extra);
  const receiverEnv = shell({
    PORT: String(port),
    HOOK_PATH: '/hooks/ccs',
    FACTS_PATH: '/facts',
    RECIPE_BARE: run.bare ? '1' : '0',
    SERVICE_DATA_API_URL: service,
    SERVICE_DATA_API_TOKEN: token,
    SERVICE_WORKSPACE_KEY: 'ws-host-conformance',
    // Where a receiver that keeps state in files (php) keeps it: removed with the run's folder.
    STATE_DIR: join(dir, 'state'),
    ...(run.mode === 'hmac'
      ? { SERVICE_HMAC_SECRET: secret, SERVICE_HMAC_PREVIOUS_SECRET: previous }
      : { SERVICE_JWKS_URL: `${service}/.well-known/service/jwks.json` }),
  });
  const schemaFile = join(dir, 'facts.schema.json');
  writeFileSync(schemaFile, JSON.stringify(FACTS_SCHEMA));
  const receiver = await startReceiver(run.recipe, receiverEnv, from);
  const started = performance.now();
  try {
    const args = [
      'host',
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--hook-path',
      '/hooks/ccs',
      '--facts-path',
      '/facts',
      '--facts-schema',
      schemaFile,
      '--signing',
      run.mode,
      ...(run.mode === 'hmac'
        ? ['--secret-env', 'RECIPE_SECRET', '--previous-secret-env', 'RECIPE_PREVIOUS_SECRET']
        : []),
      '--bearer-token-env',
      'RECIPE_TOKEN',
      '--service-port',
      String(servicePort),
      '--workers',
      String(workers),
      '--report-dir',
      join(dir, 'out'),
    ];
    const env = shell({
      RECIPE_SECRET: secret,
      RECIPE_PREVIOUS_SECRET: previous,
      RECIPE_TOKEN: token,
      CCS_REPORTER: 'dot',
    });
    const r = from
      ? await exec(from.cli.command, [...from.cli.args, ...args], { cwd: from.cli.cwd, env, deadlineMs: 300_000 })
      : await exec(process.execPath, [join(ROOT, 'cli', 'bin.mjs'), ...args], { cwd: dir, env, deadlineMs: 300_000 });
    const seconds = (performance.now() - started) / 1000;
    const reportFile = join(dir, 'out', 'conformance.json');
    if (!existsSync(reportFile)) {
      // A run that exits before any clause (preflight, a taken port) writes no report: say what it printed.
      throw new Error(`the host run exited ${r.code} without a report:\n${r.stdout}\n${r.stderr}`);
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport;
    const summary = readFileSync(join(dir, 'out', 'summary.md'), 'utf8');
    return {
      run,
      code: r.code,
      seconds,
      output: `${r.stdout}\n${r.stderr}`,
      report,
      summary,
      receiverLog: receiver.log(),
    };
  } finally {
    receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
