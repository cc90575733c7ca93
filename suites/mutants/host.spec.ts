/**
 * The host direction of the mutation matrix (issue 6 item 4): every faulty variant of the
 * reference host receiver must be caught by a failing test citing the clause it breaks, and the
 * reference receiver must pass every host test. Runs on the shared runner (runner.ts); each fault's
 * child runs only the tests citing its clause (host-direction.ts says why that is enough).
 * Tagged @mutant only: not conformance evidence.
 */
import { test, expect } from '@playwright/test';
import { runClean, runFault, DEFAULT_FAULT_DEADLINE_MS } from './index.ts';
import { hostDirection, clauseGrepArgs } from './host-direction.ts';

test.describe.configure({ mode: 'parallel' });

test('the reference host receiver passes every host test (mutation matrix)', { tag: ['@mutant'] }, async () => {
  test.setTimeout(DEFAULT_FAULT_DEADLINE_MS + 60_000);
  const r = await runClean(hostDirection);
  expect(r.timedOut, 'the clean host run did not finish in time').toBe(false);
  expect(r.failures.map((f) => f.title), 'host tests failing against the reference receiver').toEqual([]);
  expect(r.ok, r.error ?? 'the clean host run passed no test').toBe(true);
});

for (const fault of hostDirection.faults) {
  test(`faulty receiver ${fault.name} is caught by a test citing ${fault.clause} (mutation matrix)`, { tag: ['@mutant'] }, async () => {
    test.setTimeout(DEFAULT_FAULT_DEADLINE_MS + 60_000);
    const r = await runFault(hostDirection, fault, { extraArgs: clauseGrepArgs(fault.clause) });
    expect(r.timedOut, `the run against ${fault.name} did not finish in time`).toBe(false);
    expect(r.caughtBy.length, `${fault.name} (${fault.sentence ?? ''}) was not caught by a failing test citing ${fault.clause}: ${r.status}${r.error ? `, ${r.error}` : ''}`).toBeGreaterThan(0);
  });
}
