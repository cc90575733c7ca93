/**
 * `ccs-conformance host`: the host conformance suites (Playwright project `host`) against a host
 * team's callback receiver and facts endpoint, given by a host target file or by flags; with
 * neither, against the reference host receiver (fixtures/host-receiver), optionally a faulty
 * variant (--fault). The harness plays the service: it signs callbacks and facts GETs, and
 * serves the data API and the JWKS document at a local address printed before the run: for a
 * target, from this process, once for every Playwright worker (they drive it over loopback).
 * Exit codes: 0 every MUST clause passed; 1 a MUST clause failed (or, with --require-full, passed only
 * partly); 2 usage or target error.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { isCcsError, isCcsErrorOf, readSettings, reportDirFrom } from '../../spec/index.ts';
import { loadClauses, loadSecrets, readReport } from '../../reports/index.ts';
import { loadHostTarget, startServiceSide, type HostTarget, type ServiceSide } from '../../suites/host/index.ts';
import { bool, grepPattern, integer, list, parseOrHelp, positiveInt, str } from '../args.ts';
import {
  checkReceiverFlags,
  DEFAULT_SERVICE_PORT,
  HOST_FLAGS,
  HOST_HELP,
  HOST_WORKERS,
  reproArgs,
  targetFromFlags,
} from './host-flags.ts';
import { childEnv, runPlaywright } from '../paths.ts';
import { printGate } from '../gate-output.ts';
import { preflightFailed, preflightPassed } from '../preflight/outcome.ts';
import { preflightHost } from '../preflight/host.ts';

function fail2(message: string): number {
  process.stderr.write(`ccs-conformance host: ${message}\n(see ccs-conformance host --help)\n`);
  return 2;
}

function secretsOf(t: HostTarget): string[] {
  const s =
    t.signing.mode === 'hmac'
      ? [
          t.signing.secret,
          ...(t.signing.previousSecret ? [t.signing.previousSecret] : []),
          ...(t.sandbox?.secret ? [t.sandbox.secret] : []),
        ]
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
    const runs = positiveInt(str(p, 'runs'), 'runs');
    const reportDir = reportDirFrom(str(p, 'report-dir'));
    const grep = grepPattern(
      greps,
      new Set((await loadClauses(settings.clausesFile)).clauses.map((c) => c.id)),
      'HOST-8',
    );
    checkReceiverFlags(p);

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
      CCS_HOST_MODEL_RUNS: runs !== undefined ? String(runs) : settings.hostModelRuns.toString(),
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
          ...(target.sandbox ? { sandboxWorkspaceKey: target.sandbox.workspaceKey } : {}),
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
    return printGate(readReport(reportFile, { validate: false }), reportDir, {
      requireAll: false,
      requireFull: bool(p, 'require-full'),
      sides: ['host'],
    });
  } catch (error) {
    if (isCcsError(error, 'CLI_USAGE') || isCcsErrorOf(error, 'TARGET')) return fail2(error.message);
    throw error;
  } finally {
    await shared?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}
