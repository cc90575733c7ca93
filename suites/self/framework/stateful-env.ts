/**
 * The model-based test's environment outside its Playwright fixtures: the embedded reference service
 * (serving `served` forms, with the `faults` seeded, none by default), a mock host and a driver, as
 * suites/service/fixtures.ts builds them, for the self tests that run `runStateful` directly.
 */
import { MockHost } from '../../../mock-host/index.ts';
import type { DataApiForms } from '../../../spec/index.ts';
import { resolveTarget, type ResolvedTarget } from '../../../target/service/resolve.ts';
import { makeTiming } from '../../../target/service/timing.ts';
import { EvidenceCollector } from '../../service/clients/evidence.ts';
import { createTestWorkspace, type WorkspaceContext, type WorkspaceOptions } from '../../service/clients/workspace.ts';
import { TestDriverClient } from '../../service/fixtures.ts';
import type { StatefulEnv } from '../../service/stateful/index.ts';

export interface StatefulEnvOptions {
  /** The forms the reference serves (default: its defaults). */
  served?: DataApiForms;
  /** The forms the target declares (default: the served ones). */
  declared?: DataApiForms;
  /** Seeded faults of the reference (default: none). */
  faults?: readonly string[];
}

/** Runs `use` with a fresh environment against the embedded reference, closed afterwards. */
export async function withStatefulEnv<T>(
  o: StatefulEnvOptions,
  use: (env: StatefulEnv, capabilities: string[]) => Promise<T>,
): Promise<T> {
  const env = { ...process.env, CCS_TARGET: '', CCS_FAULTS: (o.faults ?? []).join(',') };
  const session = await resolveTarget({ ...(o.served ? { dataApi: o.served } : {}), env });
  const host = await MockHost.start({ host: '127.0.0.1', port: 0, maxHeaderSize: 1024 * 1024 });
  try {
    const target: ResolvedTarget = o.declared ? { ...session.target, dataApi: o.declared } : session.target;
    const driver = new TestDriverClient(target.driverUrl);
    const capabilities = [...target.capabilities];
    driver.setCapabilities({ timeScale: target.timeScale, capabilities, jwksUrl: target.jwksUrl ?? '' });
    const timing = makeTiming(target.timeScale, target.tolerances);
    const ctx: WorkspaceContext = { target, host, driver, timing, evidence: new EvidenceCollector() };
    driver.bind(ctx);
    const makeWorkspace = (w?: WorkspaceOptions) => createTestWorkspace(ctx, w);
    return await use({ target, host, driver, timing, makeWorkspace }, capabilities);
  } finally {
    await host.close();
    await session.close();
  }
}
