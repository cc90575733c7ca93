/**
 * `ccs-conformance run`: the service conformance suites against a target (default: the embedded
 * reference service), then the gate: exit 0 pass, 1 a MUST clause failed (or a
 * stale expected failure, --require-all and a clause not exercised, or --require-full and a MUST clause that
 * passed only partly), 2 usage or configuration error.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isCcsError, isCcsErrorOf, readSettings, reportDirFrom } from '../../spec/index.ts';
import { loadClauses, loadExpectedOutcomes, loadSecrets, readReport } from '../../reports/index.ts';
import {
  bool,
  type FlagSpec,
  grepPattern,
  HELP_FLAG,
  helpText,
  integer,
  list,
  parseOrHelp,
  positiveInt,
  REPORT_DIR_FLAG,
  REQUIRE_FULL_FLAG,
  shard,
  str,
  timeScale as timeScaleFlag,
  usageError,
  VERBOSE_FLAG,
} from '../args.ts';
import { defaultRunWorkers } from '../../target/service/realtime.ts';
import { parseTimeScale } from '../../target/service/time-scale.ts';
import { checkTarget } from '../target.ts';
import { childEnv, runPlaywright } from '../paths.ts';
import { printGate, selection } from '../gate-output.ts';
import { preflightFailed, preflightPassed } from '../preflight/outcome.ts';

export const RUN_FLAGS: FlagSpec[] = [
  {
    name: 'target',
    kind: 'string',
    value: 'FILE',
    help: 'service target file (YAML or JSON); default: the embedded reference service',
  },
  {
    name: 'fault',
    kind: 'list',
    value: 'NAME',
    help: 'turn on a seeded fault of the embedded reference service (repeatable)',
  },
  {
    name: 'grep',
    kind: 'list',
    value: 'CLAUSE-ID',
    help: 'run only the tests citing this clause, e.g. DELIV-4, or whose title matches a text (repeatable)',
  },
  { name: 'area', kind: 'list', value: 'AREA', help: 'run only the tests of a clause area, e.g. DELIV (repeatable)' },
  { name: 'seed', kind: 'string', value: 'N', help: 'fast-check seed for the property tests (replays a failure)' },
  {
    name: 'workers',
    kind: 'string',
    value: 'N',
    help: 'Playwright workers (default 8 at time scale 1 or with a target, else 5)',
  },
  {
    name: 'reporter',
    kind: 'string',
    value: 'R',
    help: 'console reporter: progress (default), list, line, dot, or a reporter path; reports/out is always written',
  },
  {
    name: 'shard',
    kind: 'string',
    value: 'i/n',
    help: 'run slice i of n; writes a blob report to merge with `ccs-conformance report --merge`',
  },
  { name: 'require-all', kind: 'boolean', help: 'fail when a clause the run could exercise was not exercised' },
  REQUIRE_FULL_FLAG,
  {
    name: 'expected',
    kind: 'string',
    value: 'FILE',
    help: 'expected-outcomes YAML { target, expectedFailures: [{ clause, reason }] }',
  },
  REPORT_DIR_FLAG,
  VERBOSE_FLAG,
  {
    name: 'time-scale',
    kind: 'string',
    value: 'X',
    help: 'time scale of the embedded reference service, 0 < X <= 1 (default 0.1)',
  },
  { name: 'no-preflight', kind: 'boolean', help: 'with --target: skip the check that the service and driver answer' },
  HELP_FLAG,
];

export const RUN_HELP = helpText(
  'ccs-conformance run [options]',
  'Runs the service conformance suites (Playwright projects service and service-realtime) and gates on the clause report.',
  RUN_FLAGS,
  [
    'Exit codes: 0 pass; 1 a MUST clause failed, an expected failure passed (stale list), --require-all',
    'found a clause not exercised, or --require-full a MUST clause that passed only partly; 2 usage or',
    "configuration error, or the target does not answer (preflight: service.baseUrl, the driver's capabilities,",
    'mockHost.publicUrl; no clause is run).',
    'A failed SHOULD clause only warns; a clause that passed only partly (a test citing it skipped, or a check',
    'of it not exercised) is a note naming what was not seen and why, "passed (partly)" in the reports.',
    'Reports: <report-dir>/conformance.json, summary.md, junit.xml, clauses.html, playwright-html/.',
  ],
);

function fail2(message: string): number {
  process.stderr.write(`ccs-conformance run: ${message}\n`);
  return 2;
}

/** Env the merged report needs and blobs do not carry: target description and reproduction flags. */
export const RUN_CONTEXT_KEYS = [
  'CCS_TARGET_DESCRIPTION',
  'CCS_DATA_API_FORMS',
  'CCS_TARGET_ARG',
  'CCS_FAULTS',
  'CCS_FAULT_CLAUSES',
  'CCS_SEED',
  'CCS_TIME_SCALE',
] as const;

function writeRunContext(blobDir: string, name: string, env: Record<string, string | undefined>): void {
  mkdirSync(blobDir, { recursive: true });
  const context = Object.fromEntries(RUN_CONTEXT_KEYS.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  writeFileSync(join(blobDir, `run-context-${name}.json`), JSON.stringify(context, null, 2) + '\n');
}

export async function run(argv: string[]): Promise<number> {
  let secretsDir: string | undefined;
  try {
    const p = parseOrHelp(argv, RUN_FLAGS, RUN_HELP);
    if (!p) return 0;
    const target = str(p, 'target');
    const faults = list(p, 'fault');
    const greps = list(p, 'grep');
    const areas = list(p, 'area').map((a) => a.toUpperCase());
    const seed = integer(str(p, 'seed'), 'seed');
    const workers = positiveInt(str(p, 'workers'), 'workers');
    const timeScale = timeScaleFlag(str(p, 'time-scale'));
    const shardSpec = shard(str(p, 'shard'));
    const settings = readSettings();
    const reportDir = reportDirFrom(str(p, 'report-dir'));
    // Test hook: the CLI's self-tests run a tiny suite (suites/self/cli/fixtures) instead of the service suites.
    const configOverride = settings.runConfig ? resolve(settings.runConfig) : undefined;

    if (target && faults.length > 0)
      throw usageError('--fault applies to the embedded reference service only; drop --target or --fault');
    if (target && timeScale !== undefined)
      throw usageError('--time-scale applies to the embedded reference service only (a target declares its own)');
    const { clauses, areas: knownAreas } = await loadClauses(settings.clausesFile);
    const ids = new Set(clauses.map((c) => c.id));
    const grep = grepPattern(greps, ids, 'DELIV-4');
    const areaIds = new Set([...Object.keys(knownAreas), ...clauses.map((c) => c.id.replace(/-\d+$/, ''))]);
    for (const a of areas)
      if (!areaIds.has(a)) throw usageError(`--area ${a}: unknown area (known: ${[...areaIds].join(', ')})`);
    let faultClauses: string | undefined;
    if (faults.length > 0 && !configOverride) {
      // Loaded only here: the reference service's modules are the CLI's heaviest, and a run without
      // seeded faults starts Playwright without them.
      const { FAULTS } = await import('../../reference-service/index.ts');
      const known = FAULTS.map((f) => ({ name: f.name, clause: f.clause }));
      for (const f of faults)
        if (!known.some((k) => k.name === f))
          throw usageError(
            `--fault ${f}: not a seeded fault of the reference service (known: ${known.map((k) => k.name).join(', ')})`,
          );
      faultClauses = known
        .filter((k) => faults.includes(k.name))
        .map((k) => `${k.name}:${k.clause}`)
        .join(',');
    }
    const expectedFile = str(p, 'expected') ? resolve(str(p, 'expected') as string) : undefined;
    if (expectedFile) loadExpectedOutcomes(expectedFile, ids); // exit 2 now, not after the run

    if (!target && timeScale === undefined) parseTimeScale(settings.timeScale, 'CCS_TIME_SCALE');

    const env: Record<string, string | undefined> = {
      CCS_REPORT_DIR: reportDir,
      CCS_FAULTS: faults.length > 0 ? faults.join(',') : undefined,
      CCS_FAULT_CLAUSES: faultClauses || undefined,
      CCS_SEED: seed !== undefined ? String(seed) : undefined,
      CCS_TIME_SCALE: timeScale !== undefined ? String(timeScale) : settings.timeScale,
      CCS_EXPECTED_FILE: expectedFile,
      CCS_REPORTER: str(p, 'reporter') ?? 'progress',
      CCS_VERBOSE: bool(p, 'verbose') ? '1' : undefined,
      CCS_SHARD: shardSpec ? `${shardSpec.current}/${shardSpec.total}` : undefined,
    };
    // The run's time goes to waiting on contract windows, not to CPU: more workers than cores.
    env.CCS_WORKERS =
      workers !== undefined
        ? String(workers)
        : (settings.workers?.toString() ??
          String(defaultRunWorkers({ ...process.env, CCS_TARGET: target, CCS_TIME_SCALE: env.CCS_TIME_SCALE })));
    if (target) {
      const file = resolve(target);
      const checked = await checkTarget(file); // throws TARGET_FIELD_INVALID naming the field
      if (!bool(p, 'no-preflight')) {
        // Before any test: a target that does not answer exits 2 in one line, with no clause verdict.
        // Loaded only with a target (a default run has nothing to check).
        const { preflightService } = await import('../preflight/service.ts');
        const pre = await preflightService(file);
        if (!pre.ok) return preflightFailed('run', pre.line, reportDir);
        preflightPassed(pre.notes);
      }
      env.CCS_TARGET = file;
      env.CCS_TARGET_ARG = target;
      env.CCS_TARGET_DESCRIPTION = settings.targetDescription || checked.description;
      env.CCS_DATA_API_FORMS = JSON.stringify(checked.dataApi);
      secretsDir = mkdtempSync(join(tmpdir(), 'ccs-secrets-'));
      const secretsFile = join(secretsDir, 'secrets');
      // Keep any secrets list the caller already passes (CCS_SECRETS_FILE) and add the target's.
      const secrets = [...loadSecrets(settings.secretsFile), ...checked.secrets];
      writeFileSync(secretsFile, secrets.join('\n') + '\n', { mode: 0o600 });
      env.CCS_SECRETS_FILE = secretsFile;
    } else {
      env.CCS_TARGET = undefined;
      env.CCS_DATA_API_FORMS = undefined;
    }

    const args = ['test'];
    if (configOverride) args.push('--config', configOverride);
    // service-realtime holds only @realtime tests; a --grep/--area that selects none of them makes it
    // run nothing, which --pass-with-no-tests allows (the clause report still lists every clause).
    args.push('--project', 'service', '--project', 'service-realtime', '--pass-with-no-tests');
    const patterns = [...(grep ? [grep] : []), ...areas.map((a) => `@${a}-\\d+\\b`)];
    if (patterns.length > 0) args.push('--grep', patterns.join('|'));
    if (workers !== undefined) args.push('--workers', String(workers));
    if (shardSpec) args.push('--shard', `${shardSpec.current}/${shardSpec.total}`);

    // A report left by an earlier run must never be read as this run's verdict.
    rmSync(join(reportDir, 'conformance.json'), { force: true });
    // With a target, the console output goes through the redactor too (a reporter may print an error
    // message holding a secret); without one there is no secret to hide and the child keeps the terminal.
    const redact = target ? loadSecrets(env.CCS_SECRETS_FILE) : [];
    const code = await runPlaywright(args, childEnv(env), redact);
    // After the run: the blob reporter empties its folder when it starts.
    if (shardSpec) writeRunContext(join(reportDir, 'blob'), `${shardSpec.current}-of-${shardSpec.total}`, env);
    const reportFile = join(reportDir, 'conformance.json');
    if (!existsSync(reportFile)) {
      process.stderr.write(
        `ccs-conformance run: Playwright exited ${code} and wrote no ${reportFile}: the run did not complete (see the output above)\n`,
      );
      return 1;
    }
    const report = readReport(reportFile, { validate: false });
    const requireAll = bool(p, 'require-all');
    if (requireAll && shardSpec)
      process.stderr.write(
        'note: --require-all is applied when the shards are merged (ccs-conformance report --merge --require-all)\n',
      );
    const sel = selection(greps, areas);
    return printGate(report, reportDir, {
      requireAll: requireAll && !shardSpec,
      // A shard's partial clause stays partial (or fails) in the merged report: the shard can apply it.
      requireFull: bool(p, 'require-full'),
      sides: ['service'],
      ...(sel ? { selected: sel } : {}),
    });
  } catch (error) {
    if (
      isCcsError(error, 'CLI_USAGE') ||
      isCcsErrorOf(error, 'TARGET') ||
      isCcsError(error, 'REPORT_EXPECTED_INVALID')
    ) {
      return fail2(`${error.message}\n(see ccs-conformance run --help)`);
    }
    throw error;
  } finally {
    if (secretsDir) rmSync(secretsDir, { recursive: true, force: true });
  }
}
