/**
 * A failure on a mixed-scope trigger shrinks: against the reference service with a seeded fault that
 * only a trigger over a mixed scope shows (spec/faults/service.yaml), the model-based test fails the
 * clause of the fault's row with its check, on a sequence shrunk to the few steps that reach the
 * trigger (the steered steps resolve from the model, so shrinking drops them like any other command).
 *
 * Shrinking stops at a local minimum, which depends on the sequence that failed first: some random
 * sequences shrink to a step or two over the bar (one through a scope delete to 8 steps for M2). So each
 * case runs fixed sequences, from a base seed measured to shrink within the bar, in one lane: with lanes
 * side by side, which lane fails first is a matter of timing, in one lane it is the same every run.
 */
import { test, expect } from '@playwright/test';
import { StepViolation, lanesFor, runStateful } from '../../service/stateful/index.ts';
import { withStatefulEnv } from './stateful-env.ts';
import { expectShrunk } from '../shrunk-failure.ts';

/**
 * Each mixed-scope row's fault, the clause and check its row names, the fewest steps that reach it, and the base
 * seed of its sequences (measured: the first of them fails, and shrinks to the steps in the comment).
 */
const CASES = [
  // open, turn, complete, open, turn (or a REST write), scope delete
  { row: 'M1', fault: 'scope-delete-keeps-delivered', clause: 'STATE-8', id: 'model.scope-removed', steps: 6, seed: 3 },
  // open, turn of two new instances, chat delete of one, complete naming the keys or not
  {
    row: 'M2',
    fault: 'oncomplete-lists-deleted-keys',
    clause: 'EVT-6',
    id: 'model.oncomplete-keys',
    steps: 4,
    seed: 2,
  },
  // the same, the completion leaving its keys to the service
  {
    row: 'M2',
    fault: 'touched-list-keeps-chat-deleted',
    clause: 'EVT-6',
    id: 'model.oncomplete-keys',
    steps: 4,
    seed: 5,
  },
  // open, turn, interrupt, a read of the draft (here, or in the next step's read-back)
  { row: 'M3', fault: 'interrupt-finalizes-drafts', clause: 'STATE-1', id: 'model.draft-status', steps: 4, seed: 1 },
] as const;

/** Room over the fewest steps: shrinking stops at a local minimum, a step or two above it at worst. */
const SLACK = 2;
/** Sequences of the lane: the seeds' first one fails; the others are room, never needed so far. */
const RUNS = 4;

for (const c of CASES) {
  const title = `${c.fault} (breaking ${c.row}) fails a run of fixed sequences on one shrunk to at most ${c.steps + SLACK} steps`;
  test(`${title} (${c.clause})`, async () => {
    test.setTimeout(240_000);
    await withStatefulEnv({ faults: [c.fault] }, async (env) => {
      // A budget that fits every sequence in one lane (run.ts lanesFor: a sequence costs a quiet window and 1 s).
      const o = {
        runs: RUNS,
        maxCommands: 160,
        budgetMs: RUNS * (env.timing.quietWindowMs() + 1_000),
        baseSeed: c.seed,
      };
      expect(lanesFor(o, env.timing).lanes, 'one lane').toBe(1);
      const outcome = await runStateful(env, o);
      expectShrunk(outcome.failure, StepViolation, c, c.steps + SLACK);
    });
  });
}
