/**
 * The worker of a fault project of the mutation matrix (suites/mutants/) outlives a failing test.
 * There a failure is the outcome the project exists to produce, yet Playwright starts a new worker
 * after every failed test, and a worker's start (its fixtures, the faulty reference among them)
 * costs more than most tests of a fault take: about 1.7 s, over 300 times a matrix. So a failure in
 * a fault project is made its expected status before the test ends: the worker goes on, and the
 * result keeps status 'failed' with its errors and checks, which is what the matrix reads
 * (suites/mutants/results.ts). A timed-out test still restarts its worker (it may hold it); a clean
 * project is left alone (its failure is the harness's, and is reported as one).
 */
import type { TestInfo } from '@playwright/test';
import { projectMeta, type ProjectMeta } from './project-meta.ts';

/**
 * The project metadata key naming a matrix fault, per direction: the matrix writes it
 * (suites/mutants/runner.ts planProjects), the worker fixtures seed the fault it names.
 */
export const FAULT_META = { service: 'ccsFault', host: 'ccsHostFault' } as const satisfies Record<
  string,
  keyof ProjectMeta
>;

/** The seeded fault a project's metadata names for a direction, if any. */
export function faultOf(metadata: unknown, direction: keyof typeof FAULT_META): string | undefined {
  const v = projectMeta(metadata)[FAULT_META[direction]];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function inFaultProject(testInfo: TestInfo): boolean {
  return (
    faultOf(testInfo.project.metadata, 'service') !== undefined ||
    faultOf(testInfo.project.metadata, 'host') !== undefined
  );
}

/**
 * Runs a fixture's end-of-test work (which may fail the test itself: judged checks, the observer),
 * then keeps the worker of a fault project whose test failed.
 */
export async function keepingMatrixWorker(testInfo: TestInfo, teardown: () => Promise<void>): Promise<void> {
  let threw = false;
  try {
    await teardown();
  } catch (error) {
    threw = true;
    throw error;
  } finally {
    const failed = threw ? testInfo.status !== 'timedOut' : testInfo.status === 'failed';
    if (failed && testInfo.expectedStatus === 'passed' && inFaultProject(testInfo)) {
      testInfo.expectedStatus = 'failed';
    }
  }
}
