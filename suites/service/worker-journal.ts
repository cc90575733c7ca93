/**
 * A worker's end: every request its mock host received, saved as the run's journal of that worker, and
 * the one traffic judge's checks over it (judge/service/run-journal.ts), which the clause reporter and
 * the mutation matrix read as the verdict of the traffic whichever test caused it.
 */
import type { WorkerInfo } from '@playwright/test';
import type { MockHost } from '../../mock-host/index.ts';
import { keepRunJournal } from '../../judge/service/index.ts';
import type { ResolvedTarget } from '../../target/service/resolve.ts';
import { makeTiming } from '../../target/service/timing.ts';
import { runJournalDir } from '../../spec/index.ts';

/** Whether a request has arrived whose body the mock host has not read yet (its checks are made then). */
function bodyPending(host: MockHost): boolean {
  return host.journal.entries().some((e) => e.finished === undefined && e.checks.length === 0 && e.kind !== 'admin');
}

/**
 * A callback whose headers came as the worker ends is judged once its body is read: waited for at most a
 * delivery deadline (the contract's connect and request timeouts, scaled, and the harness's slack).
 */
function bodiesRead(host: MockHost, deadlineMs: number): Promise<void> {
  if (!bodyPending(host)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, deadlineMs);
    const off = host.journal.subscribe(() => {
      if (!bodyPending(host)) done();
    });
  });
}

export async function keepWorkerJournal(host: MockHost, target: ResolvedTarget, workerInfo: WorkerInfo): Promise<void> {
  await bodiesRead(host, makeTiming(target.timeScale, target.tolerances).deliveryDeadlineMs());
  const endNs = process.hrtime.bigint();
  const hookPaths = host
    .listRoutes()
    .filter((r) => r.kind === 'lifecycle')
    .map((r) => r.path);
  try {
    keepRunJournal(runJournalDir(), host.journal.entries(), endNs, {
      project: workerInfo.project.name,
      worker: workerInfo.workerIndex,
      timeScale: target.timeScale,
      tolerances: target.tolerances,
      hookPaths,
      refusals: host.refusals(),
      dropped: host.journal.dropped,
      jwksDocuments: host.jwksDocuments(),
    });
  } catch (error) {
    // The journal is the run's evidence: a failure to keep it is said, never swallowed.
    process.stderr.write(`ccs-conformance: the worker's journal was not kept: ${(error as Error).message}\n`);
    throw error;
  }
}
