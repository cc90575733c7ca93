/**
 * Runs the host model: random sequences (arbitraries.ts) against the receiver(s) under test, each in one
 * signing mode with its own users and conversations, each step's answer checked against the model
 * (expect.ts) and each sequence judged at its end by the host judge (verdict.ts). Sequences run in lanes side
 * by side (a redelivery's quiet window is the longest wait, and the lanes' windows overlap); lane i has seed
 * base + i, so a failure replays alone from its own seed, exactly with its path. A failure shrinks to a
 * minimal sequence, whose script (steps, answers and curl lines) the test prints.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import type { ClauseId } from '../../../spec/index.ts';
import type { HostHarness, ModeEndpoint } from '../harness/harness.ts';
import { hostSequences } from './arbitraries.ts';
import { HostCoverage } from './coverage.ts';
import { Model, type Offers } from './model.ts';
import { closeSequence, judgeSequence } from './verdict.ts';
import { judgeRefusedReads } from './read-evidence.ts';
import { ExplorationEnded, HostStepViolation, HostTally } from './violation.ts';
import { World } from './world.ts';

export interface HostModelOptions {
  /** Sequences in all (CCS_HOST_MODEL_RUNS). */
  runs: number;
  maxCommands: number;
  /** Replays one lane from this seed (CCS_SEED), exactly with path (CCS_SEED_PATH). */
  seed?: number;
  path?: string;
  /** The seed of lane 0 (lane i: baseSeed + i), the lanes side by side: a self test's fixed sequences. */
  baseSeed?: number;
  /** The most sequences side by side (default: every sequence in one round). */
  maxLanes?: number;
  /** The clauses the test is tagged with: a condition of another clause is not judged. */
  clauses: readonly ClauseId[];
}

export interface HostModelFailure {
  violation: Error;
  seed: number;
  path: string;
  script: string;
  steps: number;
  shrinks: number;
}

export interface HostModelOutcome {
  sequences: number;
  lanes: number;
  perLane: number;
  elapsedMs: number;
  tally: HostTally;
  counts: Map<string, number>;
  coverage: HostCoverage;
  offers: Offers[];
  failure?: HostModelFailure;
}

/** The most sequences side by side: each holds a few users' reads on the one receiver per mode. */
const MAX_LANES = 24;

const offersOf = (ep: ModeEndpoint): Offers => ({
  mode: ep.mode,
  previousSecret: ep.previousSecret !== undefined,
  facts: ep.factsUrl !== undefined,
  sandbox: ep.sandbox !== undefined,
});

interface Lane {
  index: number;
  seed: number;
  firstFailureAt?: number;
  failed?: World;
}

export async function runHostModel(h: HostHarness, testId: string, o: HostModelOptions): Promise<HostModelOutcome> {
  const endpoints = (['hmac', 'jwks', 'none'] as const)
    .map((m) => h.endpoints[m])
    .filter((e): e is ModeEndpoint => e !== undefined);
  const wide = Math.max(1, Math.min(o.maxLanes ?? MAX_LANES, o.runs));
  const lanes = o.seed === undefined ? wide : 1;
  const perLane = Math.ceil(o.runs / lanes);
  const base = o.seed ?? o.baseSeed ?? randomBytes(4).readInt32BE(0) >>> 1;
  const tagged = new Set(o.clauses);
  const tally = new HostTally();
  const counts = new Map<string, number>();
  const coverage = new HostCoverage();
  // A replay's path: fast-check's path, then '@' and the commands' replayPath (a failure's replay line).
  const [fcPath, replayPath] = (o.seed === undefined ? '' : (o.path ?? '')).split('@');
  const sequences = hostSequences(endpoints.length, o.maxCommands, replayPath);
  let executed = 0;
  let firstFailedLane: number | undefined;
  let sideBySide = lanes > 1;
  // A callback left unanswered (HOST-1): the receiver does not answer; a shorter sequence would only wait the
  // same 10 s again, so no candidate runs after it (none shrinks) and the lane does not run again alone.
  let unanswered = false;
  const started = performance.now();

  const runSequence = async (lane: Lane, [modeIndex, cmds]: [number, Iterable<fc.AsyncCommand<Model, World>>]) => {
    // Side by side, a failure ends the exploration: its lane shrinks once alone (below). Alone, only it runs.
    if (firstFailedLane !== undefined && (sideBySide || unanswered || firstFailedLane !== lane.index)) return;
    executed += 1;
    const ep = endpoints[modeIndex % endpoints.length]!;
    await h.service.sync();
    const w = new World(h, ep, coverage, tally, counts, h.observer.ledger.localSeq());
    const model = new Model(offersOf(ep));
    // Side by side, another lane's failure ends this sequence before its next step (it decides nothing).
    w.ended = () => firstFailedLane !== undefined && firstFailedLane !== lane.index && (sideBySide || unanswered);
    try {
      await fc.asyncModelRun(() => ({ model, real: w }), cmds);
      w.step('end of the sequence: the judge waits for the reads its deliveries call for');
      await judgeSequence(w, testId, tagged);
    } catch (error) {
      if (error instanceof ExplorationEnded) {
        await closeSequence(w, testId);
        return;
      }
      w.lines.push(
        error instanceof HostStepViolation
          ? `FAILS ${error.clause}: ${error.rule}`
          : `stopped: ${(error as Error).message}`,
      );
      await closeSequence(w, testId);
      // The last failure of a lane is its shrunk counterexample.
      if (error instanceof HostStepViolation && error.id === 'ack.answered') unanswered = true;
      lane.failed = w;
      lane.firstFailureAt ??= performance.now();
      firstFailedLane ??= lane.index;
      throw error;
    }
  };

  const runLane = async (lane: Lane) => {
    const property = fc.asyncProperty(sequences, (s) => runSequence(lane, s));
    const details = await fc.check(property, {
      numRuns: perLane,
      seed: lane.seed,
      ...(fcPath ? { path: fcPath } : {}),
      endOnFailure: false,
    });
    return { lane, details };
  };
  const results = await Promise.all(
    Array.from({ length: lanes }, (_, i) => runLane({ index: i, seed: (base + i) | 0 })),
  );
  // A failure beside other lanes may need their traffic (one receiver serves every lane): the failing lane runs
  // again alone, so the failure kept is one its seed and path replay, shrunk without interference.
  const first = results
    .filter((x) => x.details.failed && x.lane.failed)
    .sort((a, b) => a.lane.firstFailureAt! - b.lane.firstFailureAt!)[0];
  let failed = first;
  if (first !== undefined && lanes > 1 && !unanswered) {
    sideBySide = false;
    const again = await runLane({ index: first.lane.index, seed: first.lane.seed });
    if (again.details.failed && again.lane.failed) failed = again;
    else
      first.lane.failed!.lines.unshift(
        '# this failure needed the traffic of the sequences beside it: alone, its seed passes',
      );
  }
  // HOST-22's no-retry windows of the scripted 400 and 401 reads, watched to their end (read-evidence.ts).
  if (tagged.has('HOST-22')) await judgeRefusedReads(h, tally);
  const outcome: HostModelOutcome = {
    sequences: executed,
    lanes,
    perLane,
    elapsedMs: performance.now() - started,
    tally,
    counts,
    coverage,
    offers: endpoints.map(offersOf),
  };
  if (failed) {
    const d = failed.details;
    const w = failed.lane.failed!;
    outcome.failure = {
      violation: d.errorInstance instanceof Error ? d.errorInstance : new Error(String(d.errorInstance)),
      seed: failed.lane.seed,
      path: replayOf(d),
      script: w.lines.join('\n'),
      // The steps of the sequence, the judge's end not counted.
      steps: w.steps - (w.lines.some((l) => l.includes('end of the sequence')) ? 1 : 0),
      shrinks: d.numShrinks,
    };
  }
  return outcome;
}

/** The replay path of a failure: fast-check's path, then '@' and the commands' replayPath when it has one. */
function replayOf(d: { counterexample: unknown; counterexamplePath: string | null }): string {
  const commands = /replayPath=\\?"([^"\\]*)\\?"/.exec(fc.stringify(d.counterexample))?.[1];
  const path = d.counterexamplePath ?? '';
  return commands === undefined ? path : `${path}@${commands}`;
}
