/**
 * The Playwright fixture of the host project: one HostHarness per worker (service side, keys,
 * receiver(s) under test), and helpers to pick the endpoint of a signing mode.
 */
import { test as base } from '@playwright/test';
import { startHostHarness, type HostHarness, type Mode, type ModeEndpoint } from './harness/harness.ts';
import { attachChecks, faultOf, keepingMatrixWorker } from '../shared/index.ts';
import { settleAnswers } from './harness/ack.ts';
import { ccsError } from '../../spec/index.ts';

export { hostTags } from './harness/host-tags.ts';

export const test = base.extend<{ ccsChecks: void }, { host: HostHarness }>({
  // Every test's checks, each naming its clauses, attached when it ends (suites/shared/checks.ts);
  // first the held-back passes (ack.ts), then every request the receiver made to the service side in the test
  // is judged (observer.ts).
  ccsChecks: [
    async ({ host }, use, testInfo) => {
      await use();
      await keepingMatrixWorker(testInfo, async () => {
        settleAnswers(testInfo);
        await host.observer.judge(testInfo);
        await attachChecks(testInfo);
      });
    },
    { auto: true },
  ],
  host: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      // The mutation matrix seeds a faulty receiver per project (suites/mutants/matrix.config.ts).
      const fault = faultOf(workerInfo.project.metadata, 'host');
      const h = await startHostHarness(fault ? { ...process.env, CCS_HOST_FAULT: fault } : process.env);
      await use(h);
      await h.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

export { expect } from '@playwright/test';

/** The endpoint of a mode, or skips the test: a mode the target does not sign in is not exercised. */
export function modeEndpoint(h: HostHarness, mode: Mode): ModeEndpoint {
  const ep = h.endpoints[mode];
  test.skip(
    ep === undefined,
    `capability signing mode ${mode} not offered by the target (its signing.mode is ${h.target.signing.mode})`,
  );
  return ep as ModeEndpoint;
}

/** Every endpoint under test (the reference runs one receiver per signing mode). */
export function allEndpoints(h: HostHarness): ModeEndpoint[] {
  return (['hmac', 'jwks', 'none'] as const)
    .map((m) => h.endpoints[m])
    .filter((e): e is ModeEndpoint => e !== undefined);
}

/** The endpoint of a test whose clause does not depend on the signing mode. */
export function firstEndpoint(h: HostHarness): ModeEndpoint {
  const ep = allEndpoints(h)[0];
  if (ep === undefined) throw ccsError('HOST_HARNESS_DEFECT', { problem: 'the host harness has no endpoint' });
  return ep;
}
