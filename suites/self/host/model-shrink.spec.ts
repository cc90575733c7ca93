/**
 * A host model failure shrinks: against the reference receiver with a fault that only a sequence shows
 * (spec/faults/host.yaml), the host model-based test (suites/host/stateful/) fails the clause of the fault's row
 * with its check, on a sequence shrunk to at most 6 steps, and its replay line carries the seed and the path.
 *
 * Shrinking stops at a local minimum, which depends on the sequence that failed first, so each case runs fixed
 * sequences from a base seed in one lane: which sequence fails first is then the same every run.
 */
import { test, expect } from '@playwright/test';
import { startHostHarness } from '../../host/harness/harness.ts';
import { expectShrunk } from '../shrunk-failure.ts';
import { reproductionFor } from '../../../reports/index.ts';
import { HostStepViolation, hostModelClauses, hostRerunLine, runHostModel } from '../../host/stateful/index.ts';

/**
 * Each fault, the clause and check its row names, and the base seed of its sequences (measured: its first
 * failure shrinks within the bar).
 */
const CASES = [
  // an onComplete, another delivery, the onComplete again (seed 2: 3 steps in about 20 s)
  { fault: 'dedupe-keeps-last', clause: 'HOST-11', id: 'delivery.redelivery-deduped', seed: 2 },
  // a config.deleted of a user, a facts GET of that user (seed 3: 2 steps)
  { fault: 'facts-change-after-delete', clause: 'HOST-15', id: 'facts.matches-class', seed: 3 },
  // two rotations (the first after an onStart under the current kid), then a callback under the first rotation's
  // kid, still published (seed 4: 3 steps)
  { fault: 'jwks-cache-drops-old-kid', clause: 'HOST-8', id: 'jwks.published-kid-accepted', seed: 4 },
] as const;

/** The most steps a shrunk failure may have. */
const MAX_STEPS = 6;
/** Sequences of the lane: room for the first failing one. */
const RUNS = 8;

for (const c of CASES) {
  const title = `${c.fault} fails a host model run of fixed sequences on one shrunk to at most ${MAX_STEPS} steps`;
  test(`${title} (${c.clause})`, async ({}, testInfo) => {
    test.setTimeout(240_000);
    const env: NodeJS.ProcessEnv = { ...process.env, CCS_HOST_FAULT: c.fault };
    delete env.CCS_HOST_TARGET;
    delete env.CCS_SERVICE_CONTROL;
    const h = await startHostHarness(env);
    try {
      const outcome = await runHostModel(h, testInfo.testId, {
        runs: RUNS,
        maxCommands: 24,
        baseSeed: c.seed,
        maxLanes: 1,
        clauses: hostModelClauses(env),
      });
      expectShrunk(outcome.failure, HostStepViolation, c, MAX_STEPS);
      const f = outcome.failure!;
      const rerun = hostRerunLine(c.clause, f.seed, f.path, c.fault);
      expect(rerun, 'the replay line names the seed, the path and the fault').toContain(`--seed ${f.seed}`);
      expect(rerun).toContain(`CCS_SEED_PATH='${f.path}'`);
      expect(rerun).toContain(`--fault ${c.fault}`);
      // The summary's rerun line (reports/render-summary.ts: the clause's reproduction command) of the failed
      // test as report.ts records it (its evidence's seed and path, fast-check's words in its error) replays
      // the shrunk sequence: the seed and its path.
      const failed = {
        ...{
          title: title,
          file: 'suites/host/callback-sequences.spec.ts',
          line: 1,
          project: 'host',
          clauses: [c.clause],
        },
        ...{ status: 'failed' as const, ok: false, durationMs: 0, skipReasons: [], checks: [] },
        errors: [`{ seed: ${f.seed}, path: "${f.path}" }; rerun: ${rerun}`],
        evidence: [{ sentence: 'the host model failed', seed: f.seed, path: f.path }],
      };
      const ctx = { hostArgs: ['--fault', c.fault] };
      const summaryLine = reproductionFor(c.clause, [failed], ctx, 'host').command;
      expect(summaryLine, 'the summary line carries the path').toContain(`CCS_SEED_PATH='${f.path}' `);
      expect(summaryLine).toContain(`--seed ${f.seed}`);
    } finally {
      await h.close();
    }
  });
}
