/**
 * Runs a fast-check property against a live target with a bounded number of runs. A failure
 * prints the seed, the path and the counterexample, and the curl line of the last request, so
 * `CCS_SEED=<seed> CCS_SEED_PATH=<path>` replays it exactly.
 */
import fc from 'fast-check';
import { test } from '@playwright/test';
import type { ServiceResponse } from '../clients/service-client.ts';
import { readSettings } from '../../../spec/index.ts';

export const DEFAULT_RUNS = readSettings().propertyRuns;

export interface PropertyStats { runs: number; requests: number; elapsedMs: number; requestsPerSecond: number }

/** Records the responses of one property run (the last one goes into the failure message). */
export class RequestRecorder {
  last: ServiceResponse | undefined;
  count = 0;
  record(r: ServiceResponse): ServiceResponse { this.last = r; this.count++; return r; }
}

export async function checkProperty<T>(
  name: string,
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
  const details = await fc.check(fc.asyncProperty(arb, async (v) => {
    try {
      await predicate(v, rec);
    } catch (error) {
      failingCurl = rec.last?.curl;
      throw error;
    }
  }), { numRuns, ...(seed !== undefined ? { seed } : {}), ...(path ? { path } : {}), endOnFailure: false, markInterruptAsFailure: true });
  const elapsedMs = performance.now() - started;
  const stats: PropertyStats = { runs: details.numRuns, requests: rec.count, elapsedMs, requestsPerSecond: rec.count / (elapsedMs / 1000) };
  test.info().annotations.push({ type: 'ccs-property', description: `${name}: ${stats.runs} runs, ${stats.requests} requests, ${stats.requestsPerSecond.toFixed(0)} req/s, seed ${details.seed}` });
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    const message = [
      `property "${name}" failed after ${details.numRuns} runs (${details.numShrinks} shrinks)`,
      `replay: CCS_SEED=${details.seed} CCS_SEED_PATH=${details.counterexamplePath ?? ''}`,
      `counterexample: ${JSON.stringify(details.counterexample?.[0])?.slice(0, 600)}`,
      failingCurl ? `request: ${failingCurl}` : '',
      `cause: ${cause}`,
    ].filter(Boolean).join('\n');
    throw new Error(message);
  }
  return stats;
}
