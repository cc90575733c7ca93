/**
 * Runs a fast-check property against a live target with a bounded number of runs, as checks: the
 * predicate throws a PropertyViolation naming the clause a case breaks (violation()), and the run
 * ends in one check per clause the property decides: failed with the shrunk counterexample's words
 * (seed, path, counterexample, curl line, so `CCS_SEED=<seed> CCS_SEED_PATH=<path>` replays it),
 * held for the others. A property stopped by an error no clause names fails as a precondition.
 */
import fc from 'fast-check';
import { test } from '@playwright/test';
import type { ServiceResponse } from '../clients/service-client.ts';
import { readSettings, type ClauseId } from '../../../spec/index.ts';
import { check, precondition } from '../../shared/index.ts';

/** A case of a property that breaks a rule: its clause and words (thrown by the predicate, judged once at the end). */
export class PropertyViolation extends Error {
  constructor(
    readonly clause: ClauseId,
    readonly rule: string,
    readonly expected: string,
    readonly seen: string,
  ) {
    super(`${clause}: ${rule}: expected ${expected}, got ${seen}`);
    this.name = 'PropertyViolation';
  }
}

/** Inside a predicate: throws a PropertyViolation unless `ok`. */
export function violation(
  ok: boolean,
  clause: ClauseId,
  rule: string,
  words: { expected: string; seen: string },
): void {
  if (!ok) throw new PropertyViolation(clause, rule, words.expected, words.seen);
}

export const DEFAULT_RUNS = readSettings().propertyRuns;

export interface PropertyStats {
  runs: number;
  requests: number;
  elapsedMs: number;
  requestsPerSecond: number;
}

/** Records the responses of one property run (the last one goes into the failure message). */
export class RequestRecorder {
  last: ServiceResponse | undefined;
  count = 0;
  record(r: ServiceResponse): ServiceResponse {
    this.last = r;
    this.count++;
    return r;
  }
}

export async function checkProperty<T>(
  name: string,
  /** The clauses the property decides: each gets a check, held unless the counterexample breaks it. */
  clauses: readonly ClauseId[],
  arb: fc.Arbitrary<T>,
  predicate: (value: T, rec: RequestRecorder) => Promise<void>,
  o: { numRuns?: number } = {},
): Promise<PropertyStats> {
  const rec = new RequestRecorder();
  const seed = readSettings().seed;
  const path = readSettings().seedPath;
  const numRuns = o.numRuns ?? DEFAULT_RUNS;
  const started = performance.now();
  let failingCurl: string | undefined;
  const details = await fc.check(
    fc.asyncProperty(arb, async (v) => {
      try {
        await predicate(v, rec);
      } catch (error) {
        failingCurl = rec.last?.curl;
        throw error;
      }
    }),
    {
      numRuns,
      ...(seed !== undefined ? { seed } : {}),
      ...(path ? { path } : {}),
      endOnFailure: false,
      markInterruptAsFailure: true,
    },
  );
  const elapsedMs = performance.now() - started;
  const stats: PropertyStats = {
    runs: details.numRuns,
    requests: rec.count,
    elapsedMs,
    requestsPerSecond: rec.count / (elapsedMs / 1000),
  };
  test.info().annotations.push({
    type: 'ccs-property',
    description: `${name}: ${stats.runs} runs, ${stats.requests} requests, ${stats.requestsPerSecond.toFixed(0)} req/s, seed ${details.seed}`,
  });
  const replay = () =>
    [
      `property "${name}" failed after ${details.numRuns} runs (${details.numShrinks} shrinks)`,
      `replay: CCS_SEED=${details.seed} CCS_SEED_PATH=${details.counterexamplePath ?? ''}`,
      `counterexample: ${JSON.stringify(details.counterexample?.[0])?.slice(0, 600)}`,
      failingCurl ? `request: ${failingCurl}` : '',
    ]
      .filter(Boolean)
      .join('; ');
  const broken =
    details.failed && details.errorInstance instanceof PropertyViolation ? details.errorInstance : undefined;
  if (details.failed && broken === undefined) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    precondition(false, `property "${name}" runs to its end`, {
      expected: 'no error outside its rules',
      seen: `${cause}; ${replay()}`,
    });
  }
  if (broken !== undefined) {
    // fast-check stops exploring at the first counterexample: the property's other clauses are not decided by this run.
    precondition(clauses.includes(broken.clause), `property "${name}" breaks only the clauses it decides`, {
      expected: clauses.join(', '),
      seen: `${broken.message}; ${replay()}`,
    });
    check
      .soft(broken.clause, `${name}: ${broken.rule}`)
      .that(false, { expected: broken.expected, seen: `${broken.seen} (${replay()})` });
    return stats;
  }
  for (const clause of clauses)
    check
      .soft(clause, `property "${name}" holds for ${details.numRuns} generated cases`)
      .that(true, { expected: '', seen: '' });
  return stats;
}
