/**
 * One observed team run: the reference service (optionally with seeded faults) driven only by the
 * team's own script (team-e2e.ts), `ccs-conformance observe` listening where its callbacks go with
 * the given --inject answers, stopped by --idle; its report read back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT } from '../../../protocol/index.ts';
import { HARNESS_SLACK_MS } from '../../../target/service/timing.ts';
import { SANDBOX_KEY, playTeamTests, type TeamRun as TeamDay, type TeamSigning } from './team-e2e.ts';
import { startObserve, startReference, stop, type Child } from './children.ts';

export const SECRET = 'test-only-observe-secret';
/** The demo's secret after its mid-day rotation (SIGN-14); SECRET stays valid during the overlap. */
export const ROTATED_SECRET = 'test-only-observe-rotated-secret';
/** The sandbox's own secret (SIGN-13: secrets are per workspace and per environment). */
export const SANDBOX_SECRET = 'test-only-observe-sandbox-secret';
/** The team script plus the idle stop plus start-up, with room for a loaded machine. */
export const RUN_DEADLINE_MS = 90_000;

export interface Report {
  verdict: string;
  clauses: Array<{
    id: string;
    status: string;
    notExercisedReasons?: string[];
    exercised?: { seen: number; of: number; notSeen?: Array<{ test: string; reason: string }> };
  }>;
}

export interface TeamRun {
  code: number | null;
  report: Report;
  out: string;
  /** What the team's script did: its conversations, and in JWKS mode the kids of its rotation. */
  day: TeamDay;
}

export interface TeamRunOptions {
  faults?: string[];
  timeScale: number;
  /** --inject values, e.g. onComplete=503,503 */
  injects: string[];
  /** Read back what the callbacks name from the reference service's data API (--data-api, --token-env). */
  dataApi?: boolean;
  /** The workspaces' mode, declared to observe by its flags (signingFlags; default: HMAC). */
  signing?: 'none' | 'hmac' | 'jwks';
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

/**
 * observe's signing flags for the day, written once into dir: in HMAC mode each workspace's own secret bound
 * to it (the demo's and its sandbox's, SIGN-13), the demo's two, before and after its rotation, bound to it
 * both (a rotation, SIGN-14); in JWKS mode the service's document (SIGN-9). The same flags judge a saved
 * journal again (the summary's rerun line repeats them).
 */
export function signingFlags(dir: string, mode: TeamRunOptions['signing'], serviceUrl?: string): string[] {
  if (mode === 'none') return ['--signing', 'none'];
  if (mode === 'jwks') return ['--jwks-url', `${serviceUrl}/.well-known/service/jwks.json`];
  const [demo, rotated, sandbox] = [join(dir, 'secret'), join(dir, 'rotated-secret'), join(dir, 'sandbox-secret')];
  writeFileSync(demo, SECRET);
  writeFileSync(rotated, ROTATED_SECRET);
  writeFileSync(sandbox, SANDBOX_SECRET);
  const bound = [`demo=${demo}`, `demo=${rotated}`, `${SANDBOX_KEY}=${sandbox}`];
  return bound.flatMap((b) => ['--hmac-secret-file', b]);
}

export async function observeTeamRun(dir: string, o: TeamRunOptions): Promise<TeamRun> {
  let ref: Child | undefined;
  let obs: Child | undefined;
  try {
    const args = [
      '--hook-path',
      '/hooks/service',
      '--facts-path',
      '/user-facts',
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
    if (o.dataApi || o.signing === 'jwks') {
      // observe reads back from the reference service, or fetches its JWKS: it starts once that one has its URL
      ref = await startReference(o.timeScale, o.faults ?? []);
      const data = o.dataApi ? ['--data-api', ref.url, '--token-env', 'OBSERVE_DATA_TOKEN'] : [];
      obs = await startObserve(
        [...args, ...signingFlags(dir, o.signing, ref.url), ...data],
        o.dataApi ? DATA_TOKEN : {},
      );
    } else {
      // the two start side by side; one that started is stopped below even when the other did not
      const [r, b] = await Promise.allSettled([
        startReference(o.timeScale, o.faults ?? []),
        startObserve([...args, ...signingFlags(dir, o.signing)]),
      ]);
      ref = r.status === 'fulfilled' ? r.value : undefined;
      obs = b.status === 'fulfilled' ? b.value : undefined;
      if (r.status === 'rejected') throw r.reason;
      if (b.status === 'rejected') throw b.reason;
    }
    const [service, observer] = [ref!, obs!];
    const signing: TeamSigning =
      o.signing === 'none' || o.signing === 'jwks'
        ? { mode: o.signing }
        : { mode: 'hmac', secret: SECRET, rotatedSecret: ROTATED_SECRET, sandboxSecret: SANDBOX_SECRET };
    const day = await playTeamTests(`${service.url}/__driver`, observer.url, signing);
    const code = await observer.exited;
    const report = JSON.parse(readFileSync(join(dir, 'live', 'conformance.json'), 'utf8')) as Report;
    await o.then?.(service.url);
    return { code, report, out: observer.out(), day };
  } finally {
    stop(obs);
    stop(ref);
  }
}

export const statusOf = (r: Report, id: string) => r.clauses.find((c) => c.id === id)?.status;
export const failedOf = (r: Report) => r.clauses.filter((c) => c.status === 'failed').map((c) => c.id);
export const reasonsOf = (r: Report, id: string) =>
  (r.clauses.find((c) => c.id === id)?.notExercisedReasons ?? []).join('; ');
