/**
 * Pure: tests + clauses -> conformance report. Each test speaks of a clause through the checks
 * that name it (reports/attribution.ts); across the tests citing a clause it is failed when any
 * check of it failed, else blocked when a test that would check it stopped first, else passed
 * when at least one check of it ran and every one held, else not-exercised (with the skip reasons,
 * the tests' own not-exercised notes, or the clause's `unobservable` note). unspecified when the
 * contract says "not shown" (never asserted). A decided clause (passed or failed) says how much of it
 * its tests exercised (`exercised`, reports/exercised.ts): a passed one with a part not seen passed partly.
 */
import type {
  ClauseInput,
  ClauseLevel,
  ClauseStatus,
  ClauseRecord,
  ConformanceReport,
  ExpectedOutcomes,
  StatusTotals,
  TestRecord,
} from './model.ts';
import { RUN_SIDE_OF_PROJECT, areaOf } from './model.ts';
import { Redactor, hintWords, type DataApiForms } from '../spec/index.ts';
import { reproductionFor, type ReproContext } from './repro.ts';
import { attributeTest, citedClauses, uniqueHints, type TestClauseOutcome } from './attribution.ts';
import { groupFailedChecks } from './failure-lines.ts';
import { exercisedOf } from './exercised.ts';

export interface BuildInput {
  runId: string;
  startedAt: string;
  endedAt: string;
  targetDescription: string;
  projects: string[];
  /**
   * The sides the run tested. Default: the sides of the counted projects that had tests in the run
   * (RUN_SIDE_OF_PROJECT), or every side of the clause list when no test ran at all.
   */
  sides?: string[];
  clauses: ClauseInput[];
  tests: TestRecord[];
  expected?: ExpectedOutcomes;
  repro?: ReproContext;
  redactor?: Redactor;
  seededFaults?: Array<{ name: string; clause: string }>;
  versions?: { harness: string; clauses: string };
  /** The data API forms the service side's requests were written in (kept when the run tested the service side). */
  dataApi?: DataApiForms;
  /** Defects of the harness's own tests (reports/check-clause-ids.ts): no verdict on the target. */
  harnessErrors?: string[];
}

const LEVELS: ClauseLevel[] = ['MUST', 'SHOULD', 'MAY', 'UNSPECIFIED'];
const STATUSES: ClauseStatus[] = ['passed', 'failed', 'blocked', 'not-exercised', 'unspecified', 'not-in-run'];

/** A hint written after a stopped precondition's or a failed check's words ("... Hint: <hint>"). */
const HINT_IN_ERROR = /\. Hint: ([^\n]+)/;

/**
 * The hints of the tests that did not pass, each once, in the order met: a failed check's, naming
 * its clauses; one written in an error (a stopped precondition), naming the test's clauses.
 */
export function runHints(tests: readonly TestRecord[]): Array<{ hint: string; clauses: string[] }> {
  const out = new Map<string, Set<string>>();
  const add = (hint: string, clauses: readonly string[]) => {
    const set = out.get(hint) ?? new Set<string>();
    for (const c of clauses) set.add(c);
    out.set(hint, set);
  };
  for (const t of tests) {
    if (t.ok) continue;
    for (const c of t.checks) if (c.outcome === 'failed' && c.hint) add(c.hint, c.clauses);
    for (const e of t.errors) {
      const m = HINT_IN_ERROR.exec(stripAnsi(e));
      // A failed check's words carry its hint with the recipe (spec/checks.ts checkWords): that hint is the check's,
      // said above.
      if (m && !t.checks.some((c) => c.hint !== undefined && hintWords(c.hint, c.recipe) === m[1]!.trim()))
        add(m[1]!.trim(), t.clauses);
    }
  }
  return [...out].map(([hint, clauses]) => ({ hint, clauses: [...clauses].sort() }));
}

function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
}

export function emptyTotals(): StatusTotals {
  return Object.fromEntries(STATUSES.map((s) => [s, 0])) as StatusTotals;
}

/** The sides a run tested, from the projects its tests belong to (a merged or combined run may have both). */
export function runSides(projects: string[], clauses: ClauseInput[]): string[] {
  const sides = [...new Set(projects.map((p) => RUN_SIDE_OF_PROJECT[p]).filter((s): s is string => s !== undefined))];
  return sides.length > 0 ? sides : [...new Set(clauses.map((c) => c.side))];
}

interface Citation {
  test: TestRecord;
  outcome: TestClauseOutcome;
}

function decide(clause: ClauseInput, citing: Citation[], repro: ReproContext, sides: string[]): ClauseRecord {
  const record: ClauseRecord = {
    id: clause.id,
    area: areaOf(clause.id),
    section: String(clause.section),
    level: clause.level,
    side: clause.side,
    text: clause.text,
    ...(clause.reading ? { reading: clause.reading } : {}),
    status: 'not-exercised',
    tests: citing.map(({ test: t, outcome }) => ({
      title: t.title,
      project: t.project,
      file: t.file,
      status: t.status,
      verdict: outcome.status,
    })),
    evidence: [],
  };
  if (!sides.includes(clause.side)) {
    record.status = 'not-in-run';
    return record;
  }
  if (clause.level === 'UNSPECIFIED') {
    record.status = 'unspecified';
    return record;
  }
  const warnings = [...new Set(citing.flatMap((c) => c.outcome.warnings))];
  if (warnings.length > 0) record.warnings = warnings;
  const withStatus = (s: TestClauseOutcome['status']) => citing.filter((c) => c.outcome.status === s);
  const failing = withStatus('failed');
  const blocked = withStatus('blocked');
  const passed = withStatus('passed');
  const exercised = () => exercisedOf(citing.map((c) => ({ title: c.test.title, outcome: c.outcome })));
  if (failing.length > 0) {
    record.status = 'failed';
    record.exercised = exercised();
    // The words of the failed checks: the rule, what was expected, what was seen.
    record.failures = failing.map((c) => ({ test: c.test.title, error: c.outcome.failures.join('\n') }));
    const checks = failing.flatMap((c) => c.outcome.failedChecks.map((r) => ({ ...r, test: c.test.title })));
    record.failedChecks = groupFailedChecks(checks);
    const hints = uniqueHints(failing.flatMap((c) => c.outcome.hints));
    if (hints.length > 0) record.hints = hints;
    record.evidence = failing.flatMap((c) => c.test.evidence);
    record.reproduction = reproductionFor(
      clause.id,
      failing.map((c) => c.test),
      repro,
      clause.side,
    );
  } else if (blocked.length > 0) {
    record.status = 'blocked';
    record.blockedReasons = [...new Set(blocked.flatMap((c) => c.outcome.reasons))];
    record.evidence = blocked.flatMap((c) => c.test.evidence);
  } else if (passed.length > 0) {
    record.status = 'passed';
    record.exercised = exercised();
    record.evidence = passed.flatMap((c) => c.test.evidence);
  } else {
    const reasons = [...new Set(citing.flatMap((c) => c.outcome.reasons))];
    if (clause.unobservable) reasons.push(`unobservable: ${clause.unobservable}`);
    if (reasons.length === 0)
      reasons.push(citing.length === 0 ? 'no test citing this clause ran' : 'the tests citing this clause did not run');
    record.notExercisedReasons = reasons;
  }
  return record;
}

/** Expected-outcomes file: known failures pass, a known failure that passes is stale. */
function applyExpected(records: ClauseRecord[], expected: ExpectedOutcomes | undefined): string[] {
  const stale: string[] = [];
  for (const { clause, reason } of expected?.expectedFailures ?? []) {
    const r = records.find((c) => c.id === clause);
    if (!r) continue; // the loader rejects unknown ids before the run
    if (r.status === 'failed') {
      r.status = 'passed';
      r.expectedFailure = { reason };
      // Passed by the file, not by its checks: never "passed (partly)".
      delete r.exercised;
    } else if (r.status === 'passed') {
      r.status = 'failed';
      r.staleExpectation = { reason };
      r.failures = [
        {
          test: '(expected-outcomes file)',
          error: `expected to fail (${reason}) but every test citing it passed: remove ${clause} from the expected-outcomes file`,
        },
      ];
      stale.push(clause);
    }
  }
  return stale;
}

function coverageOfRun(tests: readonly TestRecord[]): Pick<ConformanceReport, 'coverage'> {
  const coverage = tests
    .filter((t) => t.coverage !== undefined && t.coverage.length > 0)
    .map((t) => ({ test: t.title, lines: [...t.coverage!] }));
  return coverage.length > 0 ? { coverage } : {};
}

export function buildReport(input: BuildInput): ConformanceReport {
  const redactor = input.redactor ?? new Redactor();
  const counted = input.tests.filter((t) => input.projects.includes(t.project));
  const hints = runHints(counted).slice(0, 10);
  const byClause = new Map<string, Citation[]>();
  const verdictsOf = new Map<TestRecord, Map<string, TestClauseOutcome>>();
  for (const t of counted) {
    const outcomes = attributeTest(t);
    verdictsOf.set(t, outcomes);
    for (const id of citedClauses(t))
      byClause.set(id, [...(byClause.get(id) ?? []), { test: t, outcome: outcomes.get(id)! }]);
  }

  const repro = input.repro ?? {};
  const sides = input.sides ?? runSides([...new Set(counted.map((t) => t.project))], input.clauses);
  const records = input.clauses.map((c) => decide(c, byClause.get(c.id) ?? [], repro, sides));
  const stale = applyExpected(records, input.expected);

  const totals = {
    ...emptyTotals(),
    byLevel: Object.fromEntries(LEVELS.map((l) => [l, emptyTotals()])) as Record<ClauseLevel, StatusTotals>,
  };
  for (const r of records) {
    totals[r.status] += 1;
    totals.byLevel[r.level][r.status] += 1;
  }
  // The verdict fails on a failed MUST clause, on a blocked one (it was not decided, so it cannot
  // pass), on a stale expected failure whatever its level (a stale list must not hide a
  // regression the next time it fails), and on a defect of the harness's own tests (a clause id
  // that names no clause): a run that says "the run fails" never says PASS.
  const harnessErrors = input.harnessErrors ?? [];
  const mustOpen = records.some((r) => r.level === 'MUST' && (r.status === 'failed' || r.status === 'blocked'));
  const verdict = mustOpen || stale.length > 0 || harnessErrors.length > 0 ? 'fail' : 'pass';

  const report: ConformanceReport = {
    schemaVersion: 1,
    runId: input.runId,
    startedAt: input.startedAt,
    endedAt: input.endedAt,
    target: {
      description: input.targetDescription,
      ...(input.dataApi && sides.includes('service') ? { dataApi: { ...input.dataApi } } : {}),
    },
    ...(input.versions ? { versions: input.versions } : {}),
    projects: input.projects,
    sides,
    verdict,
    totals,
    staleExpectations: stale,
    ...(harnessErrors.length > 0 ? { harnessErrors: [...harnessErrors] } : {}),
    ...(hints.length > 0 ? { hints } : {}),
    ...(input.seededFaults && input.seededFaults.length > 0 ? { seededFaults: input.seededFaults } : {}),
    ...coverageOfRun(counted),
    clauses: records,
    tests: counted.map((t) => ({
      title: t.title,
      project: t.project,
      file: t.file,
      line: t.line,
      clauses: t.clauses,
      status: t.status,
      ok: t.ok,
      durationMs: t.durationMs,
      errors: t.errors,
      verdicts: Object.fromEntries([...(verdictsOf.get(t) ?? new Map())].map(([id, o]) => [id, o.status])),
    })),
  };
  return redactor.value(report);
}
