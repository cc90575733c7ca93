/**
 * What a shrink self test asks of a model-based test's failure, in either direction: the run failed, on the
 * clause and check of the seeded fault's row, with a sequence of at most maxSteps steps.
 */
import { expect } from '@playwright/test';

interface Violation {
  clause: string;
  id?: string;
}

interface ShrunkFailure {
  violation: Error;
  script: string;
  steps: number;
  shrinks: number;
  seed: number;
}

export function expectShrunk<V extends Violation>(
  f: ShrunkFailure | undefined,
  kind: abstract new (...args: never[]) => V,
  c: { fault: string; clause: string; id: string },
  maxSteps: number,
): ShrunkFailure {
  expect(f, 'the run fails').toBeDefined();
  const v = f!.violation;
  expect(v, f!.script).toBeInstanceOf(kind);
  expect((v as unknown as V).clause, f!.script).toBe(c.clause);
  expect((v as unknown as V).id, f!.script).toBe(c.id);
  console.log(`${c.fault}: ${f!.steps} step(s) after ${f!.shrinks} shrink(s), seed ${f!.seed}\n${f!.script}`);
  expect(f!.steps, f!.script).toBeLessThanOrEqual(maxSteps);
  return f!;
}
