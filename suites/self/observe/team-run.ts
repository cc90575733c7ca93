/**
 * One observed team run: the reference service (optionally with seeded faults) driven only by the
 * team's own script (team-e2e.ts), `ccs-conformance observe` listening where its callbacks go with
 * the given --inject answers, stopped by --idle; its report read back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT } from '../../../protocol/index.ts';
import { HARNESS_SLACK_MS } from '../../../target/service/timing.ts';
import { playTeamTests } from './team-e2e.ts';
import { startObserve, startReference, stop, type Child } from './children.ts';

export const SECRET = 'test-only-observe-secret';
/** The team script plus the idle stop plus start-up, with room for a loaded machine. */
export const RUN_DEADLINE_MS = 90_000;

export interface Report {
  verdict: string;
  clauses: Array<{ id: string; status: string; notExercisedReasons?: string[] }>;
}

export interface TeamRun {
  code: number | null;
  report: Report;
  out: string;
}

export interface TeamRunOptions {
  faults?: string[];
  timeScale: number;
  /** --inject values, e.g. onComplete=503,503 */
  injects: string[];
  /** Read back what the callbacks name from the reference service's data API (--data-api, --token-env). */
  dataApi?: boolean;
  /** The workspace's mode, declared to observe with --signing (default: HMAC, implied by the secret file). */
  signing?: 'none' | 'hmac';
  /** Runs once observe has written its reports, while the reference service still answers (its base URL). */
  then?: (serviceUrl: string) => Promise<void>;
}

/** The demo workspace's test-only Bearer token (fixtures/workspaces/default.yaml), passed as --token-env names. */
export const DATA_TOKEN = { OBSERVE_DATA_TOKEN: 'bt_test_fixture_demo_production' };

/**
 * --idle: as long as the judge's quiet window after the last callback (connect 5 s + request 10 s,
 * scaled, plus the harness's slack), so every "no retry" window closes before observe stops (the idle
 * timer never fires early), and longer than the 20 s back-off scaled, so no retry comes after the stop.
 * No more: each second of it is waited by every row.
 */
export function idleSeconds(timeScale: number): number {
  const quiet = (CONTRACT.connectTimeoutMs + CONTRACT.requestTimeoutMs) * timeScale + HARNESS_SLACK_MS;
  const backoff = CONTRACT.backoffMs[1]! * timeScale + HARNESS_SLACK_MS;
  return Math.ceil(Math.max(quiet, backoff) / 1000);
}

export async function observeTeamRun(dir: string, o: TeamRunOptions): Promise<TeamRun> {
  const secretFile = join(dir, 'secret');
  writeFileSync(secretFile, SECRET);
  let ref: Child | undefined;
  let obs: Child | undefined;
  try {
    const args = [
      '--hook-path',
      '/hooks/service',
      '--facts-path',
      '/user-facts',
      ...(o.signing === 'none' ? ['--signing', 'none'] : ['--hmac-secret-file', secretFile]),
      '--time-scale',
      String(o.timeScale),
      ...o.injects.flatMap((i) => ['--inject', i]),
      '--idle',
      String(idleSeconds(o.timeScale)),
      '--duration',
      String(RUN_DEADLINE_MS / 1000),
      '--report-dir',
      join(dir, 'live'),
    ];
    if (o.dataApi) {
      // observe reads back from the reference service: it starts once that one has its URL
      ref = await startReference(o.timeScale, o.faults ?? []);
      obs = await startObserve([...args, '--data-api', ref.url, '--token-env', 'OBSERVE_DATA_TOKEN'], DATA_TOKEN);
    } else {
      // the two start side by side; one that started is stopped below even when the other did not
      const [r, b] = await Promise.allSettled([startReference(o.timeScale, o.faults ?? []), startObserve(args)]);
      ref = r.status === 'fulfilled' ? r.value : undefined;
      obs = b.status === 'fulfilled' ? b.value : undefined;
      if (r.status === 'rejected') throw r.reason;
      if (b.status === 'rejected') throw b.reason;
    }
    const [service, observer] = [ref!, obs!];
    const signing = o.signing === 'none' ? { mode: 'none' as const } : { mode: 'hmac' as const, secret: SECRET };
    await playTeamTests(`${service.url}/__driver`, observer.url, signing);
    const code = await observer.exited;
    const report = JSON.parse(readFileSync(join(dir, 'live', 'conformance.json'), 'utf8')) as Report;
    await o.then?.(service.url);
    return { code, report, out: observer.out() };
  } finally {
    stop(obs);
    stop(ref);
  }
}

export const statusOf = (r: Report, id: string) => r.clauses.find((c) => c.id === id)?.status;
export const failedOf = (r: Report) => r.clauses.filter((c) => c.status === 'failed').map((c) => c.id);
export const reasonsOf = (r: Report, id: string) =>
  (r.clauses.find((c) => c.id === id)?.notExercisedReasons ?? []).join('; ');
