/**
 * `ccs-conformance report`: re-renders junit.xml, summary.md and clauses.html from a
 * conformance.json; `report --merge DIR...` merges shard blob reports (Playwright merge-reports,
 * which re-runs the clause reporter) into one report and one verdict, then gates like `run`.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { RUN_CONTEXT_KEYS } from './run.ts';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isCcsError, isCcsErrorOf, readSettings, reportDirFrom } from '../../spec/index.ts';
import { loadClauses, loadExpectedOutcomes, readReport, writeReports } from '../../reports/index.ts';
import {
  bool,
  type FlagSpec,
  HELP_FLAG,
  REQUIRE_FULL_FLAG,
  type Parsed,
  helpText,
  list,
  parseOrHelp,
  str,
  usageError,
} from '../args.ts';
import { childEnv, OWN_EXT, PACKAGE_ROOT, runPlaywright } from '../paths.ts';
import { printGate, selection } from '../gate-output.ts';

export const REPORT_FLAGS: FlagSpec[] = [
  {
    name: 'from',
    kind: 'string',
    value: 'FILE',
    help: 're-render from this conformance.json (default reports/out/conformance.json)',
  },
  { name: 'merge', kind: 'boolean', help: 'merge the shard blob reports found in the DIR arguments into one report' },
  {
    name: 'report-dir',
    kind: 'string',
    value: 'DIR',
    help: 'where the merged or re-rendered reports go (default: beside --from, or reports/out)',
  },
  { name: 'require-all', kind: 'boolean', help: 'with --merge: fail when a service clause was not exercised' },
  {
    name: 'expected',
    kind: 'string',
    value: 'FILE',
    help: 'with --merge: expected-outcomes YAML applied to the merged report',
  },
  {
    name: 'grep',
    kind: 'list',
    value: 'CLAUSE-ID',
    help: 'with --merge --require-all: only these clauses must be exercised',
  },
  { name: 'area', kind: 'list', value: 'AREA', help: 'with --merge --require-all: only these areas must be exercised' },
  { ...REQUIRE_FULL_FLAG, help: `with --merge: ${REQUIRE_FULL_FLAG.help}` },
  HELP_FLAG,
];

export const REPORT_HELP = helpText(
  'ccs-conformance report [--from FILE] | report --merge DIR... [options]',
  'Re-renders the HTML and markdown reports from a conformance.json, or merges shard outputs (blob reports of `run --shard i/n`) into one report and one verdict.',
  REPORT_FLAGS,
  ['Exit codes: 0 rendered (or merged verdict pass); 1 merged verdict fail; 2 usage or configuration error.'],
);

function blobsIn(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw usageError(`--merge: ${dir} is not a directory`);
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.endsWith('.zip') && statSync(path).isFile()) found.push(path);
    else if (statSync(path).isDirectory())
      for (const inner of readdirSync(path)) if (inner.endsWith('.zip')) found.push(join(path, inner));
  }
  return found;
}

/** The shards' run-context-*.json (written by `run --shard`): one target, one set of flags. */
function runContext(dirs: string[]): Record<string, string> {
  const contexts: Array<Record<string, string>> = [];
  for (const d of dirs) {
    for (const name of readdirSync(d)) {
      if (/^run-context-.*\.json$/.test(name))
        contexts.push(JSON.parse(readFileSync(join(d, name), 'utf8')) as Record<string, string>);
    }
  }
  const first = contexts[0] ?? {};
  for (const c of contexts.slice(1)) {
    if (JSON.stringify(c) !== JSON.stringify(first))
      throw usageError(
        '--merge: the shards ran with different targets or flags (run-context-*.json differ); merge shards of one run only',
      );
  }
  const out: Record<string, string> = {};
  for (const k of RUN_CONTEXT_KEYS) if (typeof first[k] === 'string') out[k] = first[k];
  return out;
}

async function merge(dirs: string[], p: Parsed): Promise<number> {
  if (dirs.length === 0) throw usageError('--merge needs at least one directory holding shard blob reports');
  const blobs = dirs.flatMap((d) => blobsIn(resolve(d)));
  if (blobs.length === 0) throw usageError(`--merge: no blob report (.zip) in ${dirs.join(', ')}`);
  const names = new Set<string>();
  for (const b of blobs) {
    if (names.has(basename(b)))
      throw usageError(`--merge: two blob reports named ${basename(b)}: each shard must write its own`);
    names.add(basename(b));
  }
  const reportDir = reportDirFrom(str(p, 'report-dir'));
  const { clauses } = await loadClauses(readSettings().clausesFile);
  const expectedFile = str(p, 'expected') ? resolve(str(p, 'expected') as string) : undefined;
  if (expectedFile) loadExpectedOutcomes(expectedFile, new Set(clauses.map((c) => c.id)));

  const work = mkdtempSync(join(tmpdir(), 'ccs-merge-'));
  try {
    for (const b of blobs) copyFileSync(b, join(work, basename(b)));
    rmSync(join(reportDir, 'conformance.json'), { force: true });
    const config = readSettings().mergeConfig ?? join(PACKAGE_ROOT, 'reports', `merge.config.${OWN_EXT}`);
    const code = await runPlaywright(
      ['merge-reports', '--config', config, work],
      childEnv({
        ...runContext(dirs.map((d) => resolve(d))),
        CCS_REPORT_DIR: reportDir,
        CCS_EXPECTED_FILE: expectedFile,
        CCS_SHARD: undefined,
      }),
    );
    const reportFile = join(reportDir, 'conformance.json');
    if (!existsSync(reportFile)) {
      process.stderr.write(`ccs-conformance report --merge: merge-reports exited ${code} and wrote no ${reportFile}\n`);
      return 1;
    }
    const sel = selection(
      list(p, 'grep'),
      list(p, 'area').map((a) => a.toUpperCase()),
    );
    return printGate(readReport(reportFile), reportDir, {
      requireAll: bool(p, 'require-all'),
      requireFull: bool(p, 'require-full'),
      sides: ['service'],
      ...(sel ? { selected: sel } : {}),
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function run(argv: string[]): Promise<number> {
  try {
    const p = parseOrHelp(argv, REPORT_FLAGS, REPORT_HELP, { positionals: true });
    if (!p) return 0;
    if (bool(p, 'merge')) {
      if (str(p, 'from')) throw usageError('--from and --merge do not go together');
      return await merge(p.positionals, p);
    }
    if (p.positionals.length > 0) throw usageError(`unexpected argument '${p.positionals[0]}' (did you mean --merge?)`);
    const from = resolve(str(p, 'from') ?? join(readSettings().reportDir, 'conformance.json'));
    if (!existsSync(from)) throw usageError(`--from: ${from} does not exist`);
    const report = readReport(from);
    const out = resolve(str(p, 'report-dir') ?? dirname(from));
    const written = writeReports(report, out);
    process.stdout.write(
      `rendered ${written.map((f) => basename(f)).join(', ')} in ${out} (verdict ${report.verdict})\n`,
    );
    return 0;
  } catch (error) {
    if (isCcsError(error, 'CLI_USAGE') || isCcsErrorOf(error, 'REPORT')) {
      process.stderr.write(`ccs-conformance report: ${error.message}\n(see ccs-conformance report --help)\n`);
      return 2;
    }
    throw error;
  }
}
