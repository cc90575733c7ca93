/**
 * Runs the model-based test: random sequences of the driver's triggers and host requests (fast-check
 * commands), each against a fresh workspace, checked step by step against the model (model.ts)
 * and ending in one quiet window. Sequences run in lanes side by side (their quiet windows
 * overlap); lane i has seed base + i, so a failure replays alone from its own seed. A failure
 * shrinks to a minimal sequence, whose script (steps and curl lines) the test prints.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import type { MockHost } from '../../../mock-host/index.ts';
import type { DriverClient, TestWorkspace, Timing, WorkspaceOptions } from '../fixtures.ts';
import { test } from '@playwright/test';
import { serviceClientFor } from '../clients/for-target.ts';
import type { ServiceResponse } from '../clients/service-client.ts';
import type { ResolvedTarget } from '../../../target/service/resolve.ts';
import { sequences, type Sequence } from './arbitraries.ts';
import { Coverage } from './coverage.ts';
import { Ledger } from './ledger.ts';
import { Model } from './model.ts';
import { strayJudge, type Real } from './real.ts';
import { RecordingDriver, StepLog, logResponse } from './script.ts';
import { StepViolation, Tally } from './violation.ts';
import { projectMeta } from '../../shared/project-meta.ts';

export interface StatefulEnv {
  target: ResolvedTarget;
  host: MockHost;
  driver: DriverClient;
  timing: Timing;
  makeWorkspace: (o?: WorkspaceOptions) => Promise<TestWorkspace>;
}

export interface StatefulOptions {
  /** Sequences in all (CCS_STATEFUL_RUNS). */
  runs: number;
  /** Replays one lane from this seed (CCS_SEED). */
  seed?: number;
  /**
   * The seed of lane 0, lane i taking baseSeed + i, the lanes side by side as without it: a run whose
   * sequences are the same every time (a self test's), as a project's ccsStatefulSeed makes them.
   */
  baseSeed?: number;
  maxCommands: number;
  /** Wall time the sequences should take when none fails, the lanes sized to fit it. */
  budgetMs: number;
  /** Told every data API answer of every sequence (a self test reads the forms of the requests from it). */
  onResponse?: (r: ServiceResponse) => void;
}

export interface StatefulFailure {
  violation: StepViolation | Error;
  seed: number;
  path: string;
  script: string;
  steps: number;
  shrinks: number;
}

export interface StatefulOutcome {
  sequences: number;
  lanes: number;
  perLane: number;
  elapsedMs: number;
  leftOut: string[];
  tally: Tally;
  /** Steps run, by command. */
  counts: Map<string, number>;
  /** Rows of section 3 and event sequences of section 6 exercised. */
  coverage: Coverage;
  /** The target's driver capabilities (rows needing another are left out of the coverage). */
  capabilities: string[];
  failure?: StatefulFailure;
}

/** The most sequences side by side: each holds a workspace and its hook on the worker's mock host. */
const MAX_LANES = 48;

/** Lanes: enough for the sequences to fit the budget, each sequence costing its steps and one quiet window. */
export function lanesFor(o: StatefulOptions, timing: Timing): { lanes: number; perLane: number } {
  const perSequenceMs = timing.quietWindowMs() + 1_000;
  const rounds = Math.max(1, Math.floor(o.budgetMs / perSequenceMs));
  const lanes = Math.max(1, Math.min(MAX_LANES, Math.ceil(o.runs / rounds)));
  return { lanes, perLane: Math.ceil(o.runs / lanes) };
}

/**
 * What a project sets for every run of the test (its metadata): the data API forms run gives each
 * combination of the forms the same base seed (ccsStatefulSeed), so that the same sequences reach
 * the same clauses and its verdicts compare clause by clause with the default's, and runs its few
 * sequences side by side in one round (ccsStatefulOneRound), 13 projects of it sharing two workers
 * (suites/forms/plan.ts). Lanes stay side by side, unlike a replay from CCS_SEED.
 */
function projectSettings(): { seed?: number; oneRound: boolean } {
  const meta = projectMeta(test.info().project.metadata);
  const seed = Number(meta.ccsStatefulSeed ?? NaN);
  return { ...(Number.isInteger(seed) ? { seed } : {}), oneRound: meta.ccsStatefulOneRound === '1' };
}

interface Lane {
  index: number;
  seed: number;
  firstFailureAt?: number;
  failed?: { kind: 'stray' | 'step'; log: StepLog };
}

export async function runStateful(env: StatefulEnv, o: StatefulOptions): Promise<StatefulOutcome> {
  const { target, host, driver, timing } = env;
  const { commands, leftOut } = sequences(target.capabilities, o.maxCommands);
  const project = projectSettings();
  const wide = Math.max(1, Math.min(MAX_LANES, o.runs));
  const plan = project.oneRound ? { lanes: wide, perLane: Math.ceil(o.runs / wide) } : lanesFor(o, timing);
  const lanes = o.seed === undefined ? plan.lanes : 1;
  const base = o.seed ?? o.baseSeed ?? project.seed ?? randomBytes(4).readInt32BE(0) >>> 1;
  const tally = new Tally();
  const counts = new Map<string, number>();
  const coverage = new Coverage();
  const quietMs = timing.quietWindowMs();
  // While shrinking, a candidate waits a shorter window for a late stray (the one found arrived well within it).
  const shrinkQuietMs = Math.min(quietMs, Math.max(500, timing.scaled(5_000)));
  // A callback missing at its deadline fails only when the service had the time to send it (ledger.ts).
  const load = { roundTripMs: () => driver.roundTripMs(), extensionMs: timing.loadExtensionMs };
  let executed = 0;
  let firstFailedLane: number | undefined;
  const started = performance.now();

  const runSequence = async (lane: Lane, cmds: Sequence): Promise<void> => {
    // another lane is shrinking its failure
    if (firstFailedLane !== undefined && firstFailedLane !== lane.index) return;
    executed += 1;
    const tag = randomBytes(3).toString('hex');
    const users = [`mb-${tag}`, `mb ${tag} ü+é`];
    const log = new StepLog();
    const ws = await env.makeWorkspace({ facts: false });
    log.setup.push(
      `# workspace ${ws.workspaceKey} (its hook ${ws.hookPath}), end users ${users.map((u) => JSON.stringify(u)).join(' and ')}`,
    );
    const model = new Model(users, tag);
    // The target's declared data API forms, as every other test's client (UNSPEC-8, UNSPEC-9).
    const logged = logResponse(log);
    const onResponse = (r: ServiceResponse) => {
      logged(r);
      o.onResponse?.(r);
    };
    const svc = serviceClientFor(target, { onResponse, testInfo: test.info() });
    const ledger = new Ledger(host, ws.hookPath!, users, { tally }, strayJudge(model), load);
    const real: Real = {
      ws,
      svc,
      driver: new RecordingDriver(driver, log),
      timing,
      ledger,
      log,
      tally,
      counts,
      coverage,
      sequenceTag: tag,
      hostWrites: 0,
      stepStartedMs: Date.now(),
    };
    try {
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      const window = lane.failed === undefined ? quietMs : lane.failed.kind === 'stray' ? shrinkQuietMs : 0;
      if (window > 0) {
        log.begin(`quiet window of ${Math.round(window)} ms: nothing more may arrive`);
        await ledger.quiet(window);
      }
      // A quiet end decides the rules of what must never come: no unknown event, no onComplete without
      // a completion, no event for a host REST write.
      if (window === quietMs)
        for (const c of ['EVT-15', 'EVT-19', ...(real.hostWrites > 0 ? (['STATE-3'] as const) : [])] as const)
          tally.add(c);
    } catch (error) {
      log.note(
        error instanceof StepViolation
          ? `FAILS ${error.clause}: ${error.rule}`
          : `stopped: ${(error as Error).message}`,
      );
      // The first failure decides how shrink candidates are judged; the last one is the shrunk counterexample.
      lane.failed = { kind: lane.failed?.kind ?? (error instanceof StepViolation ? error.kind : 'step'), log };
      lane.firstFailureAt ??= performance.now();
      firstFailedLane ??= lane.index;
      throw error;
    } finally {
      ledger.close();
    }
  };

  const results = await Promise.all(
    Array.from({ length: lanes }, async (_, i) => {
      const lane: Lane = { index: i, seed: (base + i) | 0 };
      const property = fc.asyncProperty(commands, (c) => runSequence(lane, c));
      const details = await fc.check(property, { numRuns: plan.perLane, seed: lane.seed, endOnFailure: false });
      return { lane, details };
    }),
  );
  const elapsedMs = performance.now() - started;
  const failed = results
    .filter((x) => x.details.failed && x.lane.failed)
    .sort((a, b) => a.lane.firstFailureAt! - b.lane.firstFailureAt!)[0];
  const capabilities = [...target.capabilities];
  const outcome: StatefulOutcome = {
    sequences: executed,
    lanes,
    perLane: plan.perLane,
    elapsedMs,
    leftOut,
    tally,
    counts,
    coverage,
    capabilities,
  };
  if (failed) {
    const d = failed.details;
    // The last failing run is the shrunk counterexample: its script is the one kept.
    const error = d.errorInstance instanceof Error ? d.errorInstance : new Error(String(d.errorInstance));
    const log = failed.lane.failed!.log;
    outcome.failure = {
      violation: error,
      seed: failed.lane.seed,
      path: d.counterexamplePath ?? '',
      script: log.render(),
      steps: log.steps.filter((s) => !s.text.startsWith('quiet window')).length,
      shrinks: d.numShrinks,
    };
  }
  return outcome;
}
