/**
 * A failure on a mixed-scope trigger shrinks: against the reference service with a seeded fault that
 * only a trigger over a mixed scope shows (spec/faults/service.yaml), the model-based test's default
 * run fails the clause of the fault's row with its check, on a sequence shrunk to the few steps that
 * reach the trigger (the steered steps resolve from the model, so shrinking drops them like any
 * other command).
 */
import { test, expect } from '@playwright/test';
import { StepViolation, runStateful } from '../../service/stateful/index.ts';
import { withStatefulEnv } from './stateful-env.ts';

/** Each mixed-scope row's fault, the clause and check its row names, and the fewest steps that reach it. */
const CASES = [
  // open, turn, complete, open, turn (or a REST write), scope delete
  { row: 'M1', fault: 'scope-delete-keeps-delivered', clause: 'STATE-8', id: 'model.scope-removed', steps: 6 },
  // open, turn of two new instances, chat delete of one, complete
  { row: 'M2', fault: 'oncomplete-lists-deleted-keys', clause: 'EVT-6', id: 'model.oncomplete-keys', steps: 4 },
  // open, turn, interrupt, a read of the draft (here, or in the next step's read-back)
  { row: 'M3', fault: 'interrupt-finalizes-drafts', clause: 'STATE-1', id: 'model.draft-status', steps: 4 },
] as const;

/** Room over the fewest steps: shrinking stops at a local minimum, a step or two above it at worst. */
const SLACK = 2;

for (const c of CASES) {
  const title = `${c.fault} (breaking ${c.row}) fails a default run on a sequence shrunk to at most ${c.steps + SLACK} steps`;
  test(`${title} (${c.clause})`, async () => {
    test.setTimeout(240_000);
    await withStatefulEnv({ faults: [c.fault] }, async (env) => {
      const outcome = await runStateful(env, { runs: 48, maxCommands: 160, budgetMs: 12_000 });
      const f = outcome.failure;
      expect(f, 'the default run fails').toBeDefined();
      const v = f!.violation;
      expect(v, f!.script).toBeInstanceOf(StepViolation);
      expect((v as StepViolation).clause, f!.script).toBe(c.clause);
      expect((v as StepViolation).id, f!.script).toBe(c.id);
      console.log(`${c.fault}: ${f!.steps} step(s) after ${f!.shrinks} shrink(s), seed ${f!.seed}\n${f!.script}`);
      expect(f!.steps, f!.script).toBeLessThanOrEqual(c.steps + SLACK);
    });
  });
}
