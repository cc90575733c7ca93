/**
 * `ccs-conformance host`: the host conformance suites (Playwright project `host`) against a host
 * team's callback receiver and facts endpoint, given by a host target file or by flags; with
 * neither, against the reference host receiver (fixtures/host-receiver), optionally a faulty
 * variant (--fault). The harness plays the service: it signs callbacks and facts GETs, and
 * serves the data API and the JWKS document at a local address printed before the run: for a
 * target, from this process, once for every Playwright worker (they drive it over loopback).
 * Exit codes: 0 every MUST clause passed; 1 a MUST clause failed; 2 usage or target error.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { isCcsError, isCcsErrorOf, readSettings, reportDirFrom } from '../../spec/index.ts';
import { loadClauses, loadSecrets, readReport } from '../../reports/index.ts';
import {
  loadHostTarget,
  startServiceSide,
  HOST_FAULTS,
  type HostTarget,
  type ServiceSide,
} from '../../suites/host/index.ts';
import {
  bool,
  type FlagSpec,
  grepPattern,
  type Parsed,
  HELP_FLAG,
  helpText,
  integer,
  list,
  parseOrHelp,
  positiveInt,
  REPORT_DIR_FLAG,
  str,
  usageError,
  VERBOSE_FLAG,
} from '../args.ts';
import { childEnv, runPlaywright } from '../paths.ts';
import { printGate } from '../gate-output.ts';
import { preflightFailed, preflightPassed } from '../preflight/outcome.ts';
import { preflightHost } from '../preflight/host.ts';

/** Default port of the service side for a host target when neither flag nor file fixes one. */
export const DEFAULT_SERVICE_PORT = 4470;

/**
 * Workers when neither --workers nor CCS_WORKERS says, for the reference receiver and a target
 * alike: the tests are independent (fresh conversations, handles and keys each; a target's
 * service side is served once and shared), and a receiver that never answers costs each failed
 * test one 10 s wait plus a worker restart, so tests in flight at once set the run's length.
 * They mostly wait, so more workers than cores pay off.
 */
export const HOST_WORKERS = 6;

export const HOST_FLAGS: FlagSpec[] = [
  {
    name: 'target',
    kind: 'string',
    value: 'FILE',
    help: 'host target file (YAML); default: the reference host receiver',
  },
  {
    name: 'base-url',
    kind: 'string',
    value: 'URL',
    help: 'instead of a file: hostBaseUrl of the receiver, e.g. http://127.0.0.1:3000',
  },
  {
    name: 'hook-path',
    kind: 'string',
    value: 'PATH',
    help: 'with --base-url: hookPath of the callback receiver (default /hooks/ccs)',
  },
  {
    name: 'facts-path',
    kind: 'string',
    value: 'PATH',
    help: 'with --base-url: callback path of the FACTS class (facts tests skipped without it)',
  },
  {
    name: 'facts-schema',
    kind: 'string',
    value: 'FILE',
    help: 'with --base-url: JSON Schema (JSON or YAML) of the facts object',
  },
  { name: 'signing', kind: 'string', value: 'MODE', help: 'with --base-url: hmac, jwks or none (default hmac)' },
  {
    name: 'secret-env',
    kind: 'string',
    value: 'NAME',
    help: 'with --base-url: environment variable holding the HMAC secret',
  },
  {
    name: 'previous-secret-env',
    kind: 'string',
    value: 'NAME',
    help: 'with --base-url: environment variable holding the previous HMAC secret (rotation)',
  },
  {
    name: 'bearer-token-env',
    kind: 'string',
    value: 'NAME',
    help: 'with --base-url: environment variable holding the Bearer token the receiver sends to the data API',
  },
  {
    name: 'service-port',
    kind: 'string',
    value: 'N',
    help: `port of the harness's data API and JWKS (default ${DEFAULT_SERVICE_PORT} for a target, random for the reference)`,
  },
  { name: 'fault', kind: 'string', value: 'NAME', help: 'run the reference receiver as one of its faulty variants' },
  {
    name: 'grep',
    kind: 'list',
    value: 'CLAUSE-ID',
    help: 'run only the tests citing this clause, e.g. HOST-8, or whose title matches a text (repeatable)',
  },
  { name: 'seed', kind: 'string', value: 'N', help: 'fast-check seed of the generated payloads (replays a failure)' },
  { name: 'workers', kind: 'string', value: 'N', help: `Playwright workers (default ${HOST_WORKERS})` },
  {
    name: 'no-preflight',
    kind: 'boolean',
    help: 'with --target/--base-url: skip the check that the receiver accepts connections',
  },
  REPORT_DIR_FLAG,
  VERBOSE_FLAG,
  HELP_FLAG,
];

export const HOST_HELP = helpText(
  'ccs-conformance host [--target FILE | --base-url URL ...] [options]',
  'Runs the host conformance suites: signed callbacks and facts GETs to your receiver, and a data API and JWKS for it to read.',
  HOST_FLAGS,
  [
    `Faulty variants of the reference receiver: ${HOST_FAULTS.map((f) => f.name).join(', ')}.`,
    'Exit codes: 0 every MUST clause passed; 1 a MUST clause failed; 2 usage or target file error, or nothing listens',
    "at the receiver's hostBaseUrl or servicePort cannot be served (preflight; no clause is run).",
    'A failed SHOULD only warns.',
  ],
);

function fail2(message: string): number {
  process.stderr.write(`ccs-conformance host: ${message}\n(see ccs-conformance host --help)\n`);
  return 2;
}

/** A target built from flags: secrets stay in the environment, the file holds their names only. */
function targetFromFlags(p: Parsed): Record<string, unknown> {
  const signingMode = str(p, 'signing') ?? 'hmac';
  const signing: Record<string, unknown> = { mode: signingMode };
  if (str(p, 'secret-env')) signing.secretEnv = str(p, 'secret-env');
  if (str(p, 'previous-secret-env')) signing.previousSecretEnv = str(p, 'previous-secret-env');
  const target: Record<string, unknown> = {
    hostBaseUrl: str(p, 'base-url'),
    hookPath: str(p, 'hook-path') ?? '/hooks/ccs',
    signing,
    dataApi: { bearerTokenEnv: str(p, 'bearer-token-env') ?? 'CCS_HOST_BEARER_TOKEN' },
  };
  if (str(p, 'facts-path')) target.factsPath = str(p, 'facts-path');
  const schemaFile = str(p, 'facts-schema');
  if (schemaFile) target.factsClass = { schemaFile: resolve(schemaFile) };
  return target;
}

/** The flags that chose the receiver, repeated in each printed rerun line (never a secret: only names of variables). */
const RECEIVER_FLAGS = [
  'base-url',
  'hook-path',
  'facts-path',
  'facts-schema',
  'signing',
  'secret-env',
  'previous-secret-env',
  'bearer-token-env',
  'service-port',
  'fault',
];

function reproArgs(p: Parsed): string[] {
  const args: string[] = [];
  const target = str(p, 'target');
  if (target) args.push('--target', target);
  for (const f of RECEIVER_FLAGS) {
    const v = str(p, f);
    if (v !== undefined) args.push(`--${f}`, v);
  }
  return args;
}

function secretsOf(t: HostTarget): string[] {
  const s =
    t.signing.mode === 'hmac'
      ? [t.signing.secret, ...(t.signing.previousSecret ? [t.signing.previousSecret] : [])]
      : [];
  return [...s, t.bearerToken];
}

export async function run(argv: string[]): Promise<number> {
  let tmp: string | undefined;
  let shared: ServiceSide | undefined;
  try {
    const p = parseOrHelp(argv, HOST_FLAGS, HOST_HELP);
    if (!p) return 0;
    const fault = str(p, 'fault');
    const targetArg = str(p, 'target');
    const baseUrl = str(p, 'base-url');
    const servicePortFlag = str(p, 'service-port');
    const servicePort = servicePortFlag === '0' ? 0 : positiveInt(servicePortFlag, 'service-port');
    const workers = positiveInt(str(p, 'workers'), 'workers');
    const greps = list(p, 'grep');
    const settings = readSettings();
    const seed = integer(str(p, 'seed'), 'seed');
    const reportDir = reportDirFrom(str(p, 'report-dir'));
    const grep = grepPattern(
      greps,
      new Set((await loadClauses(settings.clausesFile)).clauses.map((c) => c.id)),
      'HOST-8',
    );
    if (targetArg && baseUrl) throw usageError('give either --target FILE or --base-url, not both');
    if ((targetArg || baseUrl) && fault)
      throw usageError('--fault applies to the reference host receiver only; drop --target/--base-url or --fault');
    if (fault && !HOST_FAULTS.some((f) => f.name === fault))
      throw usageError(
        `--fault ${fault}: not a faulty variant of the reference receiver (known: ${HOST_FAULTS.map((f) => f.name).join(', ')})`,
      );
    if (!baseUrl)
      for (const f of [
        'hook-path',
        'facts-path',
        'facts-schema',
        'signing',
        'secret-env',
        'previous-secret-env',
        'bearer-token-env',
      ]) {
        if (str(p, f) !== undefined) throw usageError(`--${f} goes with --base-url (a target file holds it otherwise)`);
      }

    const env: Record<string, string | undefined> = {
      CCS_REPORT_DIR: reportDir,
      // A failed check as its rule/seen/where lines, stack frames only with --verbose (reports/progress-reporter.ts).
      CCS_REPORTER: settings.reporter ?? 'progress',
      CCS_VERBOSE: p.flags.verbose === true ? '1' : undefined,
      CCS_HOST_FAULT: fault,
      CCS_HOST_TARGET: undefined,
      CCS_SERVICE_CONTROL: undefined,
      CCS_WORKERS: workers !== undefined ? String(workers) : String(settings.workers ?? HOST_WORKERS),
      CCS_SEED: seed !== undefined ? String(seed) : settings.seed?.toString(),
      // Printed rerun lines name `host` and these flags (reports/repro.ts).
      CCS_HOST_REPRO_ARGS: JSON.stringify(reproArgs(p)),
    };
    let file: string | undefined;
    if (targetArg) file = resolve(targetArg);
    else if (baseUrl) {
      tmp = mkdtempSync(join(tmpdir(), 'ccs-host-'));
      file = join(tmp, 'host-target.yaml');
      writeFileSync(file, toYaml(targetFromFlags(p)), { mode: 0o600 });
    }
    if (file) {
      const target = loadHostTarget(file); // TARGET_FIELD_INVALID names the field: exit 2 before any run
      const port = servicePort ?? target.servicePort ?? DEFAULT_SERVICE_PORT;
      const preflight = !bool(p, 'no-preflight');
      if (preflight) {
        // Before any test: a receiver where nothing listens exits 2 in one line, with no clause verdict.
        const pre = await preflightHost(target, targetArg);
        if (!pre.ok) return preflightFailed('host', pre.line, reportDir);
        preflightPassed(pre.notes);
      }
      tmp ??= mkdtempSync(join(tmpdir(), 'ccs-host-'));
      const secretsFile = join(tmp, 'secrets');
      // The data API and JWKS are served here, once for every worker, on the port the receiver
      // was configured with; the workers drive it over a control path holding a random token.
      const controlToken = randomBytes(18).toString('base64url');
      try {
        shared = await startServiceSide({
          port,
          workspaceKey: target.workspaceKey,
          bearerToken: target.bearerToken,
          controlToken,
        });
      } catch (error) {
        // The receiver reads from this port: a run without it would fail every read for the harness's sake.
        const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        const field = `servicePort${targetArg ? ` in ${targetArg}` : ''} (--service-port)`;
        const line = `cannot serve the data API and JWKS on port ${port} (${why}): check ${field}`;
        return preflightFailed('host', line, reportDir);
      }
      writeFileSync(
        secretsFile,
        [...loadSecrets(settings.secretsFile), ...secretsOf(target), controlToken].join('\n') + '\n',
        { mode: 0o600 },
      );
      Object.assign(env, {
        CCS_HOST_TARGET: file,
        CCS_SERVICE_PORT: String(port),
        CCS_SECRETS_FILE: secretsFile,
        CCS_SERVICE_CONTROL: shared.controlUrl,
        CCS_TARGET_DESCRIPTION: settings.targetDescription || `host receiver ${target.description}`,
      });
      const base = shared.url;
      process.stdout.write(
        `The harness plays the service for ${target.hostBaseUrl}${target.hookPath}. Configure the receiver to read from:\n` +
          `  data API  ${base}/api/${target.workspaceKey}/endpoints/${target.configEnd.replace(/^\//, '')}/data/{endUserHandle}/{serviceKey}  (Bearer token from the target file)\n` +
          `  JWKS      ${base}/.well-known/service/jwks.json\n`,
      );
    } else {
      if (servicePort !== undefined) env.CCS_SERVICE_PORT = String(servicePort);
      // Each worker serves the reference receivers' service side itself: a fixed port holds one worker.
      if (servicePort && workers === undefined && settings.workers === undefined) env.CCS_WORKERS = '1';
      env.CCS_TARGET_DESCRIPTION = fault ? `reference host receiver with fault ${fault}` : 'reference host receiver';
      process.stdout.write(`No target: testing the ${env.CCS_TARGET_DESCRIPTION} (in-process, both signing modes).\n`);
    }

    const args = ['test', '--project', 'host'];
    if (grep) args.push('--grep', grep);
    if (env.CCS_WORKERS) args.push('--workers', env.CCS_WORKERS);
    rmSync(join(reportDir, 'conformance.json'), { force: true });
    const code = await runPlaywright(args, childEnv(env));
    const reportFile = join(reportDir, 'conformance.json');
    if (!existsSync(reportFile)) {
      process.stderr.write(
        `ccs-conformance host: Playwright exited ${code} and wrote no ${reportFile}: the run did not complete (see the output above)\n`,
      );
      return 1;
    }
    return printGate(readReport(reportFile, { validate: false }), reportDir, { requireAll: false, sides: ['host'] });
  } catch (error) {
    if (isCcsError(error, 'CLI_USAGE') || isCcsErrorOf(error, 'TARGET')) return fail2(error.message);
    throw error;
  } finally {
    await shared?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}
