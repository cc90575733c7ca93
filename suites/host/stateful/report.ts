/**
 * The end of a host model run, as checks: a failure is one failed check of the clause the broken condition
 * decides, with the check id of its fault-model row, the shrunk script and the replay line (seed and path); a
 * run without failure holds every clause one of its conditions checked, says which it never reached, and
 * reports the coverage of the model's transitions (an annotation per line, as the service side's model does,
 * and the table as an attachment).
 */
import { test } from '@playwright/test';
import { COVERAGE_ANNOTATION, reproContextFromEnv, reproductionFor } from '../../../reports/index.ts';
import { EVIDENCE_ATTACHMENT, processRedactor, type ClauseId, type Evidence } from '../../../spec/index.ts';
import { check, notExercised, precondition } from '../../shared/index.ts';
import { summarizeHost } from './coverage.ts';
import type { HostModelOutcome } from './run.ts';
import { HostStepViolation } from './violation.ts';

/**
 * The rerun line of a failure: the clause alone, the flags that chose the receiver (the reference receiver's
 * fault too, which the mutation matrix seeds per project), the failing lane's seed, and its path.
 */
export function hostRerunLine(clause: string, seed: number, path: string, fault?: string): string {
  const ctx = reproContextFromEnv();
  const args = ctx.hostArgs ?? [];
  const withFault = fault !== undefined && !args.includes(fault) ? [...args, '--fault', fault] : args;
  const command = reproductionFor(clause, [], { ...ctx, hostArgs: withFault, seed: String(seed) }, 'host').command;
  return path === '' ? command : `CCS_SEED_PATH='${path}' ${command}`;
}

async function attachEvidence(sentence: string, seed?: number, path?: string): Promise<void> {
  const evidence: Evidence = {
    sentence,
    ...(seed === undefined ? {} : { seed }),
    ...(path === undefined ? {} : { path }),
  };
  await test.info().attach(EVIDENCE_ATTACHMENT, {
    body: JSON.stringify(processRedactor.value(evidence)),
    contentType: 'application/json',
  });
}

export async function reportHostModel(
  outcome: HostModelOutcome,
  clauses: readonly ClauseId[],
  fault?: string,
): Promise<void> {
  const info = test.info();
  const rate = outcome.sequences / Math.max(0.001, outcome.elapsedMs / 1000);
  const steps = [...outcome.counts].map(([k, n]) => `${k} ${n}`).join(', ');
  info.annotations.push({
    type: 'ccs-stateful',
    description:
      `${outcome.sequences} host sequences in ${(outcome.elapsedMs / 1000).toFixed(1)} s (${rate.toFixed(2)}/s) ` +
      `over ${outcome.lanes} lane(s) of ${outcome.perLane}; steps ${steps}`,
  });
  const f = outcome.failure;
  if (f === undefined) {
    await reportCoverage(outcome);
    reportHeld(outcome, clauses);
    return;
  }
  const v = f.violation;
  const clause = v instanceof HostStepViolation ? v.clause : 'HOST-1';
  // the other clauses keep the verdict of the steps that decided them before the failure: each held
  if (v instanceof HostStepViolation)
    reportHeld(
      outcome,
      clauses.filter((c) => c !== clause),
    );
  const header = `a host sequence of ${f.steps} step(s), shrunk ${f.shrinks} time(s), seed ${f.seed}`;
  const rerun = hostRerunLine(clause, f.seed, f.path, fault);
  const script = `${header}\nrerun: ${rerun}\n${f.script}`;
  console.log(`host model-based test failed: ${script}`);
  await info.attach('ccs-stateful-script', { body: processRedactor.text(script), contentType: 'text/plain' });
  await attachEvidence(
    `The host model failed on ${header}: ${v.message}. Replay: ${rerun}.\n${f.script}`,
    f.seed,
    f.path,
  );
  // fast-check's "seed: N, path: ..." words: the report's rerun line takes the seed from them (reports/repro.ts).
  const replay = `{ seed: ${f.seed}, path: "${f.path}" }; rerun: ${rerun}; the sequence:\n${f.script}`;
  if (!(v instanceof HostStepViolation)) {
    precondition(false, 'the generated host sequence runs to its end', {
      expected: "no error outside the contract's rules",
      seen: `${v.message}; ${replay}`,
    });
    return;
  }
  check
    .soft(v.clause, `host model, ${v.rule}`, { id: v.id })
    .that(false, { expected: v.expected, seen: `${v.seen}, at the end of ${header} ${replay}` });
}

/** Each clause a step of the model decided and that held, passed on those steps; the others not exercised. */
function reportHeld(outcome: HostModelOutcome, clauses: readonly ClauseId[]): void {
  for (const clause of clauses) {
    const held = outcome.tally.held.get(clause) ?? 0;
    if (held > 0)
      check
        .soft(clause, `the host model of sections 4.1, 5.2, 6 and 7 held over ${outcome.sequences} sequences`)
        .that(true, { expected: `${held} step(s) of the model deciding ${clause}`, seen: 'each held' });
    else notExercised(clause, `no generated host sequence reached a step that decides ${clause}`);
  }
}

async function reportCoverage(outcome: HostModelOutcome): Promise<void> {
  const c = summarizeHost(outcome.coverage, outcome.offers);
  console.log(`host model-based test coverage over ${outcome.sequences} sequences:\n${c.headline}`);
  const table = `${c.headline}\n\nrows (times exercised):\n${c.rows.join('\n')}\n`;
  await test.info().attach('ccs-stateful-coverage', { body: table, contentType: 'text/plain' });
  test.info().annotations.push({ type: COVERAGE_ANNOTATION, description: c.headline });
  await attachEvidence(`Coverage of the host model over ${outcome.sequences} sequences: ${c.headline}.`);
}
