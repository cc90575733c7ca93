/**
 * The end of a stateful run, as checks: a failure is one failed check of the clause the broken
 * step's own condition decides (its words, the shrunk script and the replay line); a run without
 * failure holds every clause one of its conditions checked, and says which it never reached.
 */
import { test } from '@playwright/test';
import type { ClauseId } from '../../../spec/index.ts';
import { COVERAGE_ANNOTATION, reproContextFromEnv, reproductionFor } from '../../../reports/index.ts';
import { check, notExercised, precondition, warnCheck } from '../../shared/index.ts';
import { summarize } from './coverage.ts';
import type { EvidenceLog } from '../fixtures.ts';
import type { StatefulOutcome } from './run.ts';
import { StepViolation } from './violation.ts';

/**
 * The rerun line of a failure: the clause alone, the run's target and the faults seeded in the
 * worker's reference service (the matrix seeds them per project, not through the environment),
 * from the failing lane's seed (run --seed).
 */
export function rerunLine(clause: string, seed: number, faults: readonly string[] = []): string {
  const ctx = reproContextFromEnv();
  return reproductionFor(clause, [], {
    ...ctx,
    ...(faults.length > 0 ? { faults: [...faults] } : {}),
    seed: String(seed),
  }).command;
}

export function judgeStateful(
  outcome: StatefulOutcome,
  clauses: readonly ClauseId[],
  evidence: EvidenceLog,
  faults: readonly string[] = [],
): void {
  const info = test.info();
  const rate = outcome.sequences / (outcome.elapsedMs / 1000);
  info.annotations.push({
    type: 'ccs-stateful',
    description: `${outcome.sequences} sequences in ${(outcome.elapsedMs / 1000).toFixed(1)} s (${rate.toFixed(2)}/s) over ${outcome.lanes} lane(s) of ${outcome.perLane}; steps ${[...outcome.counts].map(([k, n]) => `${k} ${n}`).join(', ')}${outcome.leftOut.length ? `; left out for missing capabilities: ${outcome.leftOut.join(', ')}` : ''}`,
  });
  const f = outcome.failure;
  if (f === undefined) reportCoverage(outcome, clauses, evidence);
  if (f === undefined) {
    for (const clause of clauses) {
      const n = outcome.tally.held.get(clause) ?? 0;
      if (n > 0)
        check
          .soft(clause, `the model of sections 2.3, 3 and 6 held over ${outcome.sequences} generated sequences`)
          .that(true, { expected: '', seen: '' });
      else
        notExercised(
          clause,
          `no generated sequence reached a step that decides ${clause}${outcome.leftOut.length ? ` (left out: ${outcome.leftOut.join(', ')})` : ''}`,
        );
    }
    return;
  }
  const clause = f.violation instanceof StepViolation ? f.violation.clause : undefined;
  const header = `a sequence of ${f.steps} step(s), shrunk ${f.shrinks} time(s), seed ${f.seed}`;
  const rerun = rerunLine(clause ?? 'STATE-1', f.seed, faults);
  const script = `${header}\nrerun: ${rerun}\n${f.script}`;
  void info.attach('ccs-stateful-script', { body: script, contentType: 'text/plain' });
  evidence.add({
    sentence: `The model-based test failed on ${header}: ${f.violation.message}. Replay: ${rerun}.\n${f.script}`,
  });
  // The replay words carry fast-check's "seed: N, path: ..." so the report's rerun line takes the seed
  // (reports/repro.ts).
  const replay = `{ seed: ${f.seed}, path: "${f.path}" }; rerun: ${rerun}; the sequence:\n${f.script}`;
  if (!(f.violation instanceof StepViolation)) {
    precondition(false, 'the generated sequence runs to its end', {
      expected: "no error outside the contract's rules",
      seen: `${f.violation.message}; ${replay}`,
    });
    return;
  }
  const v = f.violation;
  const seen = `${v.seen}, at the last step of ${header} ${replay}`;
  const words = { expected: v.expected, seen, ...(v.hint ? { hint: v.hint } : {}) };
  check.soft(v.clause, `stateful, ${v.rule}`, v.id ? { id: v.id } : {}).that(false, words);
}

/**
 * The rows of section 3 and the event sequences of section 6 the run exercised, printed and in the
 * evidence. Below 100% the rows not reached are named, as a warning beside STATE-1: the harness's own
 * coverage is never a failure of the service.
 */
function reportCoverage(outcome: StatefulOutcome, clauses: readonly ClauseId[], evidence: EvidenceLog): void {
  const c = summarize(outcome.coverage, outcome.capabilities);
  const text = [c.headline, ...c.lines].join('\n');
  console.log(`model-based test coverage over ${outcome.sequences} sequences:\n${text}`);
  const table = `${text}\n\nrows (times exercised):\n${c.rows.join('\n')}\n`;
  void test.info().attach('ccs-stateful-coverage', { body: table, contentType: 'text/plain' });
  // One annotation per line: the report's coverage section (reports/collect.ts COVERAGE_ANNOTATION).
  for (const line of [c.headline, ...c.lines])
    test.info().annotations.push({ type: COVERAGE_ANNOTATION, description: line });
  const over = `over ${outcome.sequences} sequences`;
  // The evidence of every clause the run decides, so conformance.json and the clause matrix carry it.
  evidence.add({ sentence: `Coverage of the model-based test ${over}: ${c.headline}. Rows: ${c.rows.join('; ')}.` });
  if (!c.complete && clauses.includes('STATE-1')) {
    warnCheck(
      'STATE-1',
      "the sequences exercise every row of section 3 the target's driver can reach",
      `not reached in this run: ${c.missed.join('; ')}`,
    );
  }
}
