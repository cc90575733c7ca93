/**
 * Reads a child run's Playwright JSON report (results.json): every test with its file, title,
 * clause tags, outcome and the checks it attached (spec/checks.ts), so the matrix decides each
 * clause per check as the clause reporter does (reports/attribution.ts). Tags are stored without
 * their '@' by the JSON reporter; both forms are accepted.
 */
import { readFileSync } from 'node:fs';
import {
  ccsError,
  CHECKS_ATTACHMENT,
  CcsError,
  clauseOfTag,
  parseCheckRecords,
  type CheckRecord,
} from '../../spec/index.ts';
import { judgedJournalRecords, type AttributableTest } from '../../reports/index.ts';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'flaky';
export interface TestOutcome {
  file: string;
  title: string;
  tags: string[];
  clauses: string[];
  outcome: Outcome;
  error?: string;
  project?: string;
  /** The last result's status, its checks, errors and skip reasons: what attribution reads. */
  status: AttributableTest['status'];
  /** Passed or skipped as expected (a flaky test counts as failed). */
  ok: boolean;
  checks: CheckRecord[];
  errors: string[];
  skipReasons: string[];
  /** The test's annotations, declared and pushed while it ran. */
  annotations: Array<{ type: string; description?: string }>;
}

interface JsonAttachment {
  name?: string;
  body?: string;
  path?: string;
}
interface JsonResult {
  status?: string;
  error?: { message?: string };
  errors?: Array<{ message?: string }>;
  attachments?: JsonAttachment[];
  annotations?: Array<{ type?: string; description?: string }>;
}
interface JsonSpec {
  title: string;
  file?: string;
  tags?: string[];
  tests?: Array<{
    projectName?: string;
    status?: string;
    annotations?: Array<{ type?: string; description?: string }>;
    results?: JsonResult[];
  }>;
}
interface JsonSuite {
  title?: string;
  file?: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
interface JsonReport {
  suites?: JsonSuite[];
  errors?: Array<{ message?: string }>;
}

function outcomeOf(t: NonNullable<JsonSpec['tests']>[number]): Outcome {
  if (t.status === 'flaky') return 'flaky';
  if (t.status === 'skipped') return 'skipped';
  // the last result decides, not the test's status: a fault project's failure is made its expected
  // status so its worker goes on (suites/shared/matrix-worker.ts), and it is still a failure here
  const last = t.results?.[t.results.length - 1]?.status;
  if (last === 'passed') return t.status === 'unexpected' ? 'failed' : 'passed';
  return last === 'skipped' ? 'skipped' : 'failed';
}

/** Clause ids among a test's tags ('EVT-5' from '@EVT-5' or 'EVT-5'); other tags are dropped. */
export function clausesOf(tags: string[]): string[] {
  return tags.map((t) => clauseOfTag(t, true)).filter((x): x is string => !!x);
}

function checksOf(result: JsonResult | undefined): CheckRecord[] {
  return (result?.attachments ?? [])
    .filter((a) => a.name === CHECKS_ATTACHMENT)
    .flatMap((a) => {
      try {
        const text =
          a.body !== undefined
            ? Buffer.from(a.body, 'base64').toString('utf8')
            : a.path
              ? readFileSync(a.path, 'utf8')
              : '';
        return parseCheckRecords(text);
      } catch {
        return [];
      }
    });
}

function statusOf(result: JsonResult | undefined): AttributableTest['status'] {
  const s = result?.status;
  return s === 'passed' || s === 'failed' || s === 'timedOut' || s === 'skipped' || s === 'interrupted' ? s : 'not-run';
}

export function parseResults(report: unknown): { tests: TestOutcome[]; errors: string[] } {
  if (typeof report !== 'object' || report === null || !Array.isArray((report as JsonReport).suites)) {
    throw ccsError('MUTANTS_RESULTS_INVALID', { problem: 'not a Playwright JSON report (no suites array)' });
  }
  const r = report as JsonReport;
  const tests: TestOutcome[] = [];
  const walk = (s: JsonSuite, file: string | undefined, prefix: string[]) => {
    const f = s.file ?? file;
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const tags = spec.tags ?? [];
        const last = t.results?.[t.results.length - 1];
        const out: TestOutcome = {
          file: spec.file ?? f ?? '',
          title: [...prefix, spec.title].join(' › '),
          tags,
          clauses: clausesOf(tags),
          outcome: outcomeOf(t),
          ...(t.projectName ? { project: t.projectName } : {}),
          status: statusOf(last),
          checks: checksOf(last),
          ok: outcomeOf(t) === 'passed' || outcomeOf(t) === 'skipped',
          errors: (last?.errors ?? (last?.error ? [last.error] : [])).map(
            (e) => e.message ?? 'error without a message',
          ),
          skipReasons: (t.annotations ?? []).filter((a) => a.type === 'skip').map((a) => a.description ?? 'skipped'),
          annotations: [...(t.annotations ?? []), ...(last?.annotations ?? [])]
            .filter((a) => typeof a.type === 'string')
            .map((a) => ({ type: a.type!, ...(a.description !== undefined ? { description: a.description } : {}) })),
        };
        const err = t.results?.find((x) => x.error?.message)?.error?.message;
        if (err && out.outcome === 'failed') out.error = err.split('\n')[0]!.slice(0, 300);
        tests.push(out);
      }
    }
    for (const child of s.suites ?? [])
      walk(
        child,
        f,
        child.title && child.title !== (child.file ?? f) && !child.title.endsWith('.ts')
          ? [...prefix, child.title]
          : prefix,
      );
  };
  for (const s of r.suites!) walk(s, s.file, []);
  return { tests, errors: (r.errors ?? []).map((e) => e.message ?? String(e)) };
}

/** Parses the text of a report; tolerates noise printed before the JSON object. */
export function parseResultsText(text: string): { tests: TestOutcome[]; errors: string[] } {
  const start = text.indexOf('{');
  if (start < 0) throw ccsError('MUTANTS_RESULTS_INVALID', { problem: 'empty or not JSON' });
  try {
    return parseResults(JSON.parse(text.slice(start)));
  } catch (error) {
    if (error instanceof CcsError) throw error;
    throw ccsError('MUTANTS_RESULTS_INVALID', { problem: `not JSON (${(error as Error).message})` });
  }
}

/**
 * The traffic judge's verdicts over every worker journal of a child run (one record per project), read as
 * the matrix reads a test: the judge decides a fault's traffic whichever test caused it. Its notes on a
 * driver's part of a clause stay, so a clause it decided only in part is no disagreement (runner.ts).
 */
export function judgedOutcomes(journalDir: string): TestOutcome[] {
  return judgedJournalRecords(journalDir, { keepDriverParts: true }).map((r) => ({
    file: r.file,
    title: r.title,
    tags: [],
    clauses: r.clauses,
    outcome: r.ok ? 'passed' : 'failed',
    ...(r.errors[0] !== undefined ? { error: r.errors[0] } : {}),
    project: r.project,
    status: r.ok ? 'passed' : 'failed',
    ok: r.ok,
    checks: r.checks,
    errors: r.errors,
    skipReasons: [],
    annotations: [],
  }));
}
