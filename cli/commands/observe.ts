/**
 * `ccs-conformance observe`: the mock host where the service sends its callbacks, judging the traffic
 * that the team's own tests or a staging environment cause, with no driver of the service, or a journal
 * saved earlier (--from). Writes the reports of `run`; exit 0 pass, 1 a MUST clause failed, 2 usage or
 * no traffic.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRE_FULL_FLAG, parseArgs, type FlagSpec, type Parsed } from '../args.ts';
import { MOCK_HOST_FLAGS, mockHostOptions } from './mock-host.ts';
import { signingFlags } from './signing-flags.ts';
import type { JournalEntry, MockHostOptions } from '../../mock-host/index.ts';
import {
  judgeJournal,
  observeReport,
  runJudgeOptions,
  type JudgeOptions,
  type RunJournalMeta,
  type DeclaredSigning,
  type ArrivalReads,
  type Judgement,
  type Gaps,
  type ReadBackOptions,
} from '../../judge/service/index.ts';
import {
  REPORT_FILES,
  Redactor,
  applyGate,
  loadSecrets,
  prepareReportValidator,
  writeReports,
} from '../../reports/index.ts';
import { ccsError, isCcsError, reportDirFrom } from '../../spec/index.ts';
import { parseInjections } from './observe-inject.ts';
import { JOURNAL_FILE, writeJournal } from './observe-journal.ts';
import { readSaved } from './observe-har.ts';
import { DATA_API_FLAGS, dataApiOptions, readBackStep, tokenSource } from './observe-data-api.ts';
import { fail, observeLive } from './observe-live.ts';
import type { JwksDocumentSeen } from '../../protocol/index.ts';

const HELP = `Usage: ccs-conformance observe [options]

Judges a service from its callbacks alone, without a driver: listens where the service sends them
(point the workspace's hostBaseUrl here) while your own tests or a staging environment drive it, then
writes the reports of \`run\` (conformance.json, summary.md, junit.xml, clauses.html) and the journal.

Options:
  --port N                 port to listen on (default 0: any free port; the URL is printed)
  --host ADDR              address to listen on (default 127.0.0.1)
  --hook-path PATH         the workspace's hookPath (repeatable; default /hooks)
  --facts-path PATH        the FACTS class's callback path: its user-facts GETs are judged too (repeatable)
  --signing MODE           none, hmac or jwks: the mode the workspaces sign in (none: the absence of the
                           signature header is judged; default: what the two flags below imply)
  --hmac-secret-file [WS=]F  HMAC mode: file holding a secret, for every workspace or bound to workspace WS
                           (repeatable: a sandbox's own secret, SIGN-13; two for one WS: a rotation, SIGN-14)
  --jwks-url URL           JWKS mode: the service's /.well-known/service/jwks.json
  --time-scale X           the service's time scale (0 < X <= 1; default 1): back-off is judged scaled
  --inject EVENT=A,B,...   answer the attempts of EVENT in turn: a status (503), reset, close, or
                           hold:MS (200 after MS ms of contract time, scaled by --time-scale) (repeatable),
                           e.g. --inject onComplete=503,503 to see both retries, onComplete=hold:15000,503
                           to see the 10 s timeout and the retry after it
  --forward-to URL         in front of a real host: relay each request not answered by --inject to it and
                           answer what it answers
  --duration S             stop after S seconds
  --idle S                 stop after S seconds without a request
  --from FILE              judge a journal saved earlier (journal.jsonl) or a HAR 1.2 file of callbacks
                           (FILE.har; give its routes and signing flags) instead of listening
  --data-api URL           the service's base URL: once observing ends, read back the records the callbacks
                           named (envelope, DELIVERED after onComplete, 404 after a scope delete); live, the
                           key a config.deleted names is read as it arrives (404 after a chat delete)
  --token-env NAME         with --data-api: the environment variable holding the data API Bearer token
  --token-file F           with --data-api: the file holding the token instead; either is read when a read
                           is made, so a token your tests create while observe runs is found
  --report-dir D           where the reports go (default reports/out)
  --require-full           fail when a MUST clause passed only partly (a check of it the traffic could not make)
  --quiet                  no line per request
  -h, --help               this text

Stops on SIGINT or SIGTERM too. Exit codes: 0 every decided MUST clause held, 1 a MUST clause
failed (or, with --require-full, passed only partly), 2 a usage error or no callback arrived (no verdict
exists then).
`;

const OWN_FLAGS: FlagSpec[] = [
  { name: 'inject', kind: 'list', value: 'EVENT=A,B', help: 'scripted answers per attempt' },
  { name: 'duration', kind: 'string', value: 'S', help: 'stop after S seconds' },
  { name: 'idle', kind: 'string', value: 'S', help: 'stop after S seconds of no traffic' },
  { name: 'from', kind: 'string', value: 'FILE', help: 'judge a saved journal' },
  { name: 'report-dir', kind: 'string', value: 'D', help: 'report folder' },
  REQUIRE_FULL_FLAG,
];
const SHARED = new Set([
  'port',
  'host',
  'hook-path',
  'facts-path',
  'signing',
  'hmac-secret-file',
  'jwks-url',
  'time-scale',
  'forward-to',
  'quiet',
  'help',
]);
const FLAGS = [...MOCK_HOST_FLAGS.filter((f) => SHARED.has(f.name)), ...OWN_FLAGS, ...DATA_API_FLAGS];

function seconds(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) {
    throw ccsError('CLI_FLAG_INVALID', { flag: name, rule: 'a number of seconds > 0', got: `"${String(v)}"` });
  }
  return n;
}

/**
 * No callback, no verdict: one line (stderr and summary.md), exit 2, and no earlier run's report left
 * for a gate to read (as a failed preflight of `run` does).
 */
function noVerdict(line: string, reportDir: string): number {
  for (const f of [...REPORT_FILES, JOURNAL_FILE]) rmSync(join(reportDir, f), { force: true });
  try {
    mkdirSync(reportDir, { recursive: true });
    const text = `# Conformance: no verdict (nothing observed)\n\nccs-conformance observe: ${line}\n`;
    writeFileSync(join(reportDir, 'summary.md'), text);
  } catch {
    // an unwritable report folder must not hide the line: it is on stderr either way
  }
  return fail(line);
}

export async function run(argv: string[]): Promise<number> {
  let values: Parsed['flags'];
  try {
    ({ flags: values } = parseArgs(argv, FLAGS));
  } catch (error) {
    process.stderr.write(`ccs-conformance observe: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  let options: MockHostOptions;
  let duration: number | undefined;
  let idle: number | undefined;
  let dataApi: ReadBackOptions | undefined;
  let hmacByWorkspace: Record<string, string[]>;
  try {
    dataApi = dataApiOptions(values);
    const signing = signingFlags(values);
    hmacByWorkspace = signing.byWorkspace;
    options = mockHostOptions(values, signing);
    duration = seconds('duration', values.duration);
    idle = seconds('idle', values.idle);
    if (options.timeScale !== undefined && options.timeScale > 1) {
      throw ccsError('CLI_FLAG_INVALID', { flag: 'time-scale', rule: 'at most 1', got: `"${values['time-scale']}"` });
    }
    const scripts = parseInjections((values.inject as string[] | undefined) ?? [], options.timeScale ?? 1);
    if (scripts.length) options.scripts = scripts;
  } catch (error) {
    // a flag's problem (a code of the CLI room) is the usage line itself; another room's error names its code
    return fail(
      isCcsError(error) && !error.code.startsWith('CLI_')
        ? `${error.code}: ${error.message}`
        : (error as Error).message,
    );
  }
  const reportDir = reportDirFrom(typeof values['report-dir'] === 'string' ? values['report-dir'] : undefined);
  const hookPaths = (options.routes ?? []).filter((r) => r.kind === 'lifecycle').map((r) => r.path);
  const secrets = options.signing?.mode === 'hmac' ? options.signing.secrets : [];
  const startedAt = new Date().toISOString();
  let entries: JournalEntry[];
  let endNs: bigint | undefined;
  let where: string;
  let gaps: Gaps = {};
  let arrival: ArrivalReads | undefined; // none from a saved journal: nothing can be read as it arrived
  let meta: RunJournalMeta | undefined; // a driven run's journal: judged as the run judged it
  let jwksDocuments: JwksDocumentSeen[] | undefined;
  if (typeof values.from === 'string') {
    try {
      ({ entries, endNs, gaps, meta, jwksDocuments } = await readSaved(values.from, options));
    } catch (error) {
      return fail((error as Error).message);
    }
    where = values.from;
    if (!entries.some((e) => e.kind === 'lifecycle')) return fail(`no lifecycle callback in ${values.from}`);
  } else {
    // the report's schema compiled before the first callback: the verdict after the last one does not wait for it
    prepareReportValidator();
    const live = await observeLive(options, { duration, idle, quiet: values.quiet === true, dataApi });
    if (typeof live === 'number') return live;
    ({ entries, endNs, arrival, jwksDocuments } = live);
    where = `${live.url}${hookPaths.join(', ')}`;
    const seconds = Math.round(live.elapsedMs / 1000);
    if (!entries.some((e) => e.kind === 'lifecycle')) {
      const others = entries.length ? ` (${entries.length} other request(s): check the hookPath)` : '';
      const line = `no callback arrived at ${where} in ${seconds} s${others}: check the service's hostBaseUrl/hookPath`;
      return noVerdict(line, reportDir);
    }
  }
  // live, the journal is written after the verdict (its writing is no judging: the bench times them apart),
  // and before any error of the judge leaves the run, so the traffic is never lost
  const saveJournal = (): void => {
    if (typeof values.from === 'string' || endNs === undefined) return;
    mkdirSync(reportDir, { recursive: true });
    writeJournal(join(reportDir, JOURNAL_FILE), entries, endNs, undefined, jwksDocuments);
  };
  const signing = declaredSigning(options, entries, typeof values.from === 'string');
  const timeScale = meta?.timeScale ?? options.timeScale ?? 1;
  const journal = typeof values.from === 'string' ? values.from : join(reportDir, JOURNAL_FILE);
  // a saved journal carries the signing mode of its verdicts (declaredSigning): no secret needed
  // the secret files by name (never their content): SIGN-3 and SIGN-6 need the secret (hmac-variants.ts)
  const rerun = rerunLine(journal, values, timeScale);
  let judgement: Judgement;
  let report: Awaited<ReturnType<typeof observeReport>>;
  try {
    // a run's journal: the options its worker judged it with (run-journal.ts), so both give one verdict
    const judgeOptions: JudgeOptions =
      meta && endNs !== undefined
        ? runJudgeOptions(meta, endNs)
        : {
            ...{ signing, timeScale, hookPaths, endNs, hmacSecrets: secrets, hmacByWorkspace, gaps },
            ...(jwksDocuments ? { jwksDocuments } : {}),
          };
    judgement = judgeJournal(entries, judgeOptions);
    await readBackStep(entries, judgement.verdicts, dataApi, arrival, tokenSource(values));
    report = await observeReport({
      judgement,
      runId: randomUUID(),
      startedAt,
      endedAt: new Date().toISOString(),
      rerun,
      description: `callbacks observed at ${where} (${judgement.callbacks} callback(s), signing ${meta ? 'per route' : signing})`,
    });
  } catch (error) {
    saveJournal();
    throw error;
  }
  process.stdout.write(`observe: verdict ${report.verdict.toUpperCase()} on ${judgement.callbacks} callback(s)\n`);
  saveJournal();
  writeReports(report, reportDir, new Redactor([...loadSecrets(), ...secrets, ...(dataApi ? [dataApi.token] : [])]));
  const t = report.totals;
  process.stdout.write(
    `observe: ${judgement.callbacks} callback(s) judged: ${t.passed} clause(s) passed, ` +
      `${t.failed} failed, ` +
      `${t['not-exercised']} not exercised; verdict ${report.verdict.toUpperCase()}; reports in ${reportDir}\n`,
  );
  for (const c of report.clauses.filter((r) => r.status === 'failed')) {
    process.stdout.write(`  FAIL ${c.id}: ${(c.failures?.[0]?.error ?? '').split('\n')[0]!.slice(0, 300)}\n`);
  }
  if (report.verdict !== 'pass') return 1;
  if (values['require-full'] !== true) return 0;
  // the gate of `run`: a MUST clause of which a check was not made fails the run, one line each
  const gate = applyGate(report, { requireFull: true, sides: ['service'] });
  for (const e of gate.errors) process.stderr.write(`error: ${e}\n`);
  return gate.exitCode;
}

/** The flags that decide the judging, again, with the journal to judge (secret files by name, never content). */
function rerunLine(journal: string, values: Parsed['flags'], timeScale: number): string {
  const again = [
    'signing',
    'hmac-secret-file',
    'jwks-url',
    'hook-path',
    'facts-path',
    'data-api',
    'token-env',
    'token-file',
  ];
  const flags = again.flatMap((name) => {
    const v = values[name];
    const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
    return list.map((x) => `--${name} ${String(x)}`);
  });
  return [`ccs-conformance observe --from ${journal} --time-scale ${timeScale}`, ...flags].join(' ');
}

/** The mode the judge holds the signatures to: the flags, else (for a saved journal) the mode it was recorded in. */
function declaredSigning(options: MockHostOptions, entries: JournalEntry[], saved: boolean): DeclaredSigning {
  const declared = options.signing?.mode;
  if (declared === 'hmac' || declared === 'jwks' || declared === 'none') return declared;
  if (!saved) return 'unknown';
  const modes = new Set(entries.filter((e) => e.kind === 'lifecycle').map((e) => e.signature.mode));
  const [only] = [...modes];
  return modes.size === 1 && (only === 'hmac' || only === 'jwks') ? only : 'unknown';
}
