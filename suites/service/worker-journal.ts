/**
 * A worker's end: every request its mock host received, saved as the run's journal of that worker, and
 * the one traffic judge's checks over it (judge/service/run-journal.ts), which the clause reporter and
 * the mutation matrix read as the verdict of the traffic whichever test caused it.
 */
import type { WorkerInfo } from '@playwright/test';
import type { MockHost } from '../../mock-host/index.ts';
import { keepRunJournal } from '../../judge/service/index.ts';
import type { ResolvedTarget } from '../../target/service/resolve.ts';
import { runJournalDir } from '../../spec/index.ts';

export function keepWorkerJournal(host: MockHost, target: ResolvedTarget, workerInfo: WorkerInfo): void {
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
    });
  } catch (error) {
    // The journal is the run's evidence: a failure to keep it is said, never swallowed.
    process.stderr.write(`ccs-conformance: the worker's journal was not kept: ${(error as Error).message}\n`);
    throw error;
  }
}
