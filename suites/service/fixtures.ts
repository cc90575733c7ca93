/**
 * Fixtures of the service conformance suites. Worker-scoped: the
 * target (the embedded reference service unless CCS_TARGET names a target file) and a mock host
 * on loopback. Test-scoped: a fresh workspace, the service and driver clients, timing derived
 * from the target's time scale, and an evidence log attached as 'ccs-evidence' at test end.
 *
 * Real time: in the service-realtime project the embedded reference is a
 * separate one started at timeScale 1, so the same test code runs at both scales.
 */
import { test as base, expect } from '@playwright/test';
import { MockHost } from '../../mock-host/index.ts';
import { ServiceClient, type ServiceResponse } from './clients/service-client.ts';
import { DATA_FORMS_ANNOTATION, serviceClientFor } from './clients/for-target.ts';
import { DriverClient } from '../../target/clients/driver-client.ts';
import { EvidenceCollector, type EvidenceLog } from './clients/evidence.ts';
import {
  createTestWorkspace,
  patchTestWorkspace,
  type TestWorkspace,
  type WorkspaceOptions,
  type WorkspaceContext,
} from './clients/workspace.ts';
import { resolveTarget, type ResolvedTarget } from '../../target/service/resolve.ts';
import { makeTiming, type Timing } from '../../target/service/timing.ts';
import { attachChecks, faultOf, keepingMatrixWorker, projectMeta } from '../shared/index.ts';
import { keepWorkerJournal } from './worker-journal.ts';
import { parseDataApiForms } from '../../spec/index.ts';

export { expect };
export type { ResolvedTarget, TestWorkspace, WorkspaceOptions, ServiceResponse, Timing, EvidenceLog };
export { DEFAULT_CLASSES, DEFAULT_FACTS_FIELDS } from './clients/workspace.ts';
export type { ClassDef, FieldDef } from './clients/workspace.ts';
export type { MultipartPart } from './clients/multipart.ts';

/** The project that runs the @realtime tests at time scale 1. */
export const REALTIME_PROJECT = 'service-realtime';

/** Annotation of a test in a data API forms project: the target fields its data API requests depended on. */
export { DATA_FORMS_ANNOTATION };

/** The driver client of a test, with patchWorkspace bound to that test's mock host routes. */
export class TestDriverClient extends DriverClient {
  #ctx: WorkspaceContext | undefined;
  bind(ctx: WorkspaceContext): this {
    this.#ctx = ctx;
    return this;
  }
  patchWorkspace(ws: TestWorkspace, patch: Parameters<typeof patchTestWorkspace>[2]): Promise<TestWorkspace> {
    return patchTestWorkspace(this.#ctx!, ws, patch);
  }
  /** A capability the target does not offer skips the test: its clauses are not exercised, never passed. */
  protected override notOffered(reason: string): void {
    test.skip(true, reason);
  }
}

/** The driver API client as the fixtures hand it out. */
export type { TestDriverClient as DriverClient };
export { ServiceClient };

export interface WorkerFixtures {
  target: ResolvedTarget;
  host: MockHost;
}
export interface ServiceFixtures {
  ws: TestWorkspace;
  makeWorkspace: (o?: WorkspaceOptions) => Promise<TestWorkspace>;
  svc: ServiceClient;
  driver: TestDriverClient;
  timing: Timing;
  evidence: EvidenceLog;
}

interface InternalFixtures {
  evidenceCollector: EvidenceCollector;
  wsContext: WorkspaceContext;
  ccsChecks: void;
}

/** Mock host body/header limits: a 500-key bulk page signed in JWKS mode has a header far over 16 KB (PITFALLS). */
const MOCK_HOST_MAX_HEADER = 1024 * 1024;
const MOCK_HOST_BODY_LIMIT = 4 * 1024 * 1024;

export const test = base.extend<ServiceFixtures & InternalFixtures, WorkerFixtures>({
  target: [
    async ({}, use, workerInfo) => {
      // The mutation matrix seeds a fault per project (suites/mutants/matrix.config.ts); the data API
      // forms run starts the reference in declared forms per project (suites/forms/).
      const meta = projectMeta(workerInfo.project.metadata);
      const fault = faultOf(meta, 'service');
      const env = fault ? { ...process.env, CCS_FAULTS: fault } : process.env;
      const dataApi = parseDataApiForms(meta.ccsDataApi);
      const session = await resolveTarget({
        realtime: workerInfo.project.name === REALTIME_PROJECT,
        env,
        ...(dataApi ? { dataApi } : {}),
      });
      try {
        await use(session.target);
      } finally {
        await session.close();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  host: [
    async ({ target }, use, workerInfo) => {
      // A fixed port in the target file gives worker n the port + n (parallel workers each need one).
      const port = target.mockHost.port === 0 ? 0 : target.mockHost.port + workerInfo.parallelIndex;
      const host = await MockHost.start({
        host: target.mockHost.listenHost,
        port,
        maxHeaderSize: MOCK_HOST_MAX_HEADER,
        bodyLimit: MOCK_HOST_BODY_LIMIT,
        maxEntries: 100_000,
      });
      try {
        await use(host);
      } finally {
        // The one judge sees every exchange of the worker, whichever test caused it (DESIGN.md): its
        // journal and the judge's checks over it are left in the run's journal folder for the reports.
        await keepWorkerJournal(host, target, workerInfo);
        await host.close();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  // Every test's checks, each naming its clauses, attached when it ends (suites/shared/checks.ts).
  ccsChecks: [
    async ({}, use, testInfo) => {
      await use();
      await keepingMatrixWorker(testInfo, () => attachChecks(testInfo));
    },
    { auto: true },
  ],

  timing: async ({ target }, use) => {
    await use(makeTiming(target.timeScale, target.tolerances));
  },

  evidenceCollector: async ({}, use, testInfo) => {
    const collector = new EvidenceCollector();
    await use(collector);
    const body = collector.toJSON(testInfo.title);
    if (body.items.length || body.requests.length) {
      await testInfo.attach('ccs-evidence', { body: JSON.stringify(body), contentType: 'application/json' });
    }
    // The same spec check runs on every response a suite sees: a response that
    // does not match spec/openapi.yaml is reported on the test even when its own assertions pass.
    const mismatches = collector.requests.filter((r) => r.specValid === false);
    if (mismatches.length) {
      testInfo.annotations.push({
        type: 'ccs-spec-mismatch',
        description: mismatches
          .slice(0, 5)
          .map((r) => `${r.method} ${r.status}: ${r.curl}`)
          .join('\n'),
      });
    }
    // A failure prints the reproducible requests (curl lines, credentials as $CCS_* variables).
    if (testInfo.status !== 'passed' && testInfo.status !== 'skipped' && body.requests.length) {
      const lines = body.requests
        .slice(-5)
        .map((r) => `  ${r.status} ${r.curl}`)
        .join('\n');
      await testInfo.attach('ccs-curl', { body: lines, contentType: 'text/plain' });
    }
  },

  evidence: async ({ evidenceCollector }, use) => {
    await use(evidenceCollector);
  },

  svc: async ({ target, evidenceCollector }, use, testInfo) => {
    // Built from the target in the one place (clients/for-target.ts): the declared data API forms, and
    // in a forms project the annotation of the forms the test's requests depended on.
    await use(serviceClientFor(target, { onResponse: (r) => evidenceCollector.recordRequest(r), testInfo }));
  },

  driver: async ({ target }, use) => {
    const d = new TestDriverClient(target.driverUrl);
    d.setCapabilities({
      timeScale: target.timeScale,
      capabilities: [...target.capabilities],
      jwksUrl: target.jwksUrl ?? '',
    });
    await use(d);
  },

  wsContext: async ({ target, host, driver, timing, evidence }, use) => {
    const ctx: WorkspaceContext = { target, host, driver, timing, evidence };
    driver.bind(ctx);
    await use(ctx);
    // A worker runs one test at a time: the test's response scripts end with it. Its routes stay (each
    // workspace has paths of its own): a retry after the test's end is still a callback to its hook, judged
    // with the rest of the worker's traffic.
    try {
      host.clearScripts();
    } catch {
      /* nothing to clear */
    }
  },

  makeWorkspace: async ({ wsContext }, use) => {
    await use((o?: WorkspaceOptions) => createTestWorkspace(wsContext, o));
  },

  ws: async ({ makeWorkspace }, use) => {
    await use(await makeWorkspace());
  },
});
