/**
 * The data API forms run: the service tests that read or write the data API (plan.ts), once
 * against the embedded reference as the service project starts it and once per combination of
 * the forms the contract leaves open (UNSPEC-8, UNSPEC-9), the reference then serving only those
 * forms and the harness writing in them. All in one child Playwright run (forms.config.ts). A
 * combination passes when every test it ran gives each clause it cites the verdict the same test
 * gives it in the default project (reports/attribution.ts): a form the contract allows never changes
 * a verdict. The default project also shows which forms each test's requests depended on; a test
 * that depends on a form its plan entry does not vary is a gap of the plan.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { childEnv, readChildResults, REPO_ROOT, runChildPlaywright, type TestOutcome } from '../mutants/index.ts';
import { attributeTest } from '../../reports/index.ts';
import { ccsError, type DataApiForms } from '../../spec/index.ts';
import { DEFAULT_FORMS_PROJECT, FORMS_ENTRIES, planFormsProjects, unvaried, type FormsProject } from './plan.ts';

// The published package runs compiled JavaScript: the child's config is then forms.config.js.
export const FORMS_CONFIG = `suites/forms/forms.config.${import.meta.url.endsWith('.js') ? 'js' : 'ts'}`;
/** The annotation the service fixtures add in a forms project (suites/service/fixtures.ts DATA_FORMS_ANNOTATION). */
const USED = 'ccs-data-forms';
/** Runs of each property test in the forms run (the service project keeps CCS_PROPERTY_RUNS, default 60). */
export const FORMS_PROPERTY_RUNS = 20;
/**
 * The whole child run: 13 short projects on two workers take about a minute when their tests pass;
 * each failing test restarts its worker, so a broken build takes longer. A hang ends here.
 */
export const DEFAULT_FORMS_DEADLINE_MS = 20 * 60_000;

/** A clause whose verdict in a combination differs from the default's, for one test. */
export interface VerdictDifference {
  test: string;
  clause: string;
  expected: string;
  seen: string;
  words: string[];
}
export interface CombinationResult {
  project: string;
  forms: DataApiForms;
  /** Tests that ran in it, and clause verdicts compared. */
  tests: number;
  clauses: number;
  differences: VerdictDifference[];
  /** Tests the default project did not run (the plan's selection differs): none expected. */
  unmatched: string[];
  error?: string;
}
/** A test that depended on a form its plan entry does not vary. */
export interface PlanGap {
  test: string;
  file: string;
  fields: string[];
}
export interface FormsResult {
  ok: boolean;
  /** The default project: its tests and the verdicts the combinations are compared with. */
  defaults: { tests: number; clauses: number; failedOrBlocked: string[] };
  combinations: CombinationResult[];
  gaps: PlanGap[];
  durationMs: number;
  error?: string;
}

const keyOf = (t: TestOutcome): string => `${t.file.split(/[\\/]/).pop()} › ${t.title}`;

function verdicts(t: TestOutcome): Map<string, { status: string; words: string[] }> {
  const out = new Map<string, { status: string; words: string[] }>();
  for (const [id, o] of attributeTest(t))
    out.set(id, { status: o.status, words: [...o.failures, ...o.reasons].slice(0, 3) });
  return out;
}

/**
 * Judges a child run's tests: each combination against the default project, and the plan against what the tests used.
 */
export function judgeForms(
  projects: readonly FormsProject[],
  tests: readonly TestOutcome[],
  error?: string,
): Omit<FormsResult, 'durationMs'> {
  const byProject = new Map<string, TestOutcome[]>();
  for (const t of tests) byProject.set(t.project ?? '', [...(byProject.get(t.project ?? '') ?? []), t]);
  const defaults = byProject.get(DEFAULT_FORMS_PROJECT) ?? [];
  const baseline = new Map(defaults.map((t) => [keyOf(t), verdicts(t)]));
  const failedOrBlocked = [
    ...new Set(
      defaults.flatMap((t) =>
        [...verdicts(t)].filter(([, v]) => v.status === 'failed' || v.status === 'blocked').map(([id]) => id),
      ),
    ),
  ].sort();
  const gaps: PlanGap[] = [];
  for (const t of defaults) {
    const file = t.file.split(/[\\/]/).pop() ?? t.file;
    const entry = FORMS_ENTRIES.find((e) => e.file === file);
    const used = t.annotations
      .filter((a) => a.type === USED)
      .flatMap((a) => (a.description ?? '').split(','))
      .filter(Boolean);
    const outside = entry ? used.filter((f) => unvaried(entry).includes(f as never)) : used;
    if (outside.length > 0) gaps.push({ test: keyOf(t), file, fields: [...new Set(outside)].sort() });
  }
  const combinations: CombinationResult[] = [];
  for (const p of projects) {
    if (!p.forms) continue;
    const ran = byProject.get(p.name) ?? [];
    const differences: VerdictDifference[] = [];
    const unmatched: string[] = [];
    let clauses = 0;
    for (const t of ran) {
      const expected = baseline.get(keyOf(t));
      if (!expected) {
        unmatched.push(keyOf(t));
        continue;
      }
      for (const [id, v] of verdicts(t)) {
        clauses++;
        const want = expected.get(id)?.status ?? 'not cited';
        if (v.status !== want)
          differences.push({ test: keyOf(t), clause: id, expected: want, seen: v.status, words: v.words });
      }
    }
    combinations.push({
      project: p.name,
      forms: p.forms,
      tests: ran.length,
      clauses,
      differences,
      unmatched,
      ...(ran.length === 0 ? { error: error ?? 'no test of this combination ran' } : {}),
    });
  }
  const ok =
    !error &&
    defaults.length > 0 &&
    gaps.length === 0 &&
    combinations.every((c) => !c.error && c.differences.length === 0 && c.unmatched.length === 0);
  return {
    ok,
    defaults: {
      tests: defaults.length,
      clauses: [...baseline.values()].reduce((n, m) => n + m.size, 0),
      failedOrBlocked,
    },
    combinations,
    gaps,
    ...(error ? { error } : {}),
  };
}

/** One line per combination and the plan's gaps, for the console. */
export function renderForms(r: FormsResult): string {
  const lines = [
    `default forms: ${r.defaults.tests} tests, ${r.defaults.clauses} clause verdicts${r.defaults.failedOrBlocked.length ? ` (failed or blocked there: ${r.defaults.failedOrBlocked.join(', ')})` : ''}`,
  ];
  for (const c of r.combinations) {
    const verdict = c.error
      ? `ERROR: ${c.error}`
      : c.differences.length || c.unmatched.length
        ? `${c.differences.length} verdicts differ from the default`
        : 'same verdicts as the default';
    lines.push(`${c.project.padEnd(32)} ${String(c.tests).padStart(3)} tests  ${verdict}`);
    for (const d of c.differences.slice(0, 5))
      lines.push(
        `    ${d.clause} in ${d.test}: ${d.expected} by default, ${d.seen} here${d.words[0] ? `: ${d.words[0]}` : ''}`,
      );
  }
  for (const g of r.gaps)
    lines.push(
      `plan gap: ${g.test} depends on ${g.fields.join(', ')}, which the plan does not vary for ${g.file} (suites/forms/plan.ts)`,
    );
  return lines.join('\n');
}

/**
 * Runs the plan in one child `playwright test --config suites/forms/forms.config.ts` and judges it; writes
 * <reportDir>/data-forms.json.
 */
export async function runFormsMatrix(o: {
  reportDir: string;
  workers?: number;
  deadlineMs?: number;
  onProgress?: (line: string) => void;
}): Promise<FormsResult> {
  const reportDir = resolve(REPO_ROOT, o.reportDir);
  const dir = join(reportDir, 'forms');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const resultsPath = join(dir, 'results.json');
  const projects = planFormsProjects();
  const deadlineMs = o.deadlineMs ?? DEFAULT_FORMS_DEADLINE_MS;
  const env = childEnv(
    process.env,
    {
      CCS_MATRIX_PLAN: JSON.stringify(projects),
      CCS_MATRIX_RESULTS: resultsPath,
      CCS_WORKERS: String(o.workers ?? 2),
      CCS_REPORT_DIR: dir,
      // The property tests are here for the forms their requests are written in, not to explore their
      // input space again (the service project does that): fewer runs each, the same in every project.
      CCS_PROPERTY_RUNS: String(FORMS_PROPERTY_RUNS),
    },
    ['CCS_FAULTS', 'CCS_HOST_FAULT', 'CCS_TARGET', 'CCS_HOST_TARGET', 'CCS_TIME_SCALE', 'CCS_SEED', 'CCS_SEED_PATH'],
  );
  const run = await runChildPlaywright({
    config: FORMS_CONFIG,
    env,
    deadlineMs,
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });
  const { tests, error } = readChildResults(resultsPath, run, deadlineMs);
  const result: FormsResult = { ...judgeForms(projects, tests, error), durationMs: run.durationMs };
  writeFileSync(
    join(reportDir, 'data-forms.json'),
    JSON.stringify({ generatedAt: new Date().toISOString(), ...result }, null, 2),
  );
  return result;
}

/** Reads the data-forms.json a forms run wrote (the per-combination tests of the test command read it). */
export function readFormsReport(reportDir: string): FormsResult & { path: string } {
  const path = join(resolve(REPO_ROOT, reportDir), 'data-forms.json');
  if (!existsSync(path)) throw ccsError('FORMS_REPORT_MISSING', { path });
  return { ...(JSON.parse(readFileSync(path, 'utf8')) as FormsResult), path };
}
