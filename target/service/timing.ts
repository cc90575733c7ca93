/**
 * Timing expectations derived from the contract's durations (protocol CONTRACT, section 8) and the
 * target's time scale: the one home of the suites' deadlines and tolerances. Every wait in a suite
 * takes its deadline from here (no fixed sleeps, CONTRIBUTING).
 */
import { CONTRACT } from '../../protocol/index.ts';

export interface Tolerances {
  minMs: number;
  relative: number;
}

export interface Timing {
  timeScale: number;
  /** contractMs * timeScale. */
  scaled(contractMs: number): number;
  /**
   * The one tolerance rule: max(minMs * timeScale, relative * scaled(contractMs), LOADED_MACHINE_FLOOR_MS); minMs and
   * relative from the target (DELIV-8 reading).
   */
  tolerance(contractMs: number): number;
  /** How long to wait for a callback the contract says fires: scaled(connect 5 s + request 10 s) + HARNESS_SLACK_MS. */
  deliveryDeadlineMs(): number;
  /** How long to watch when asserting that nothing arrives: the same window as deliveryDeadlineMs. */
  quietWindowMs(): number;
  /** Three attempts each held past 10 s, plus 5 s and 20 s back-off, scaled, plus tolerance and slack. */
  retryScheduleDeadlineMs(): number;
  /**
   * How much longer to wait for a callback still missing at deliveryDeadlineMs, given lagMs (the
   * longer of the service's answer to a request it answers at once, and how late the harness's own
   * timer fired) and extendedMs (what was added so far): 0 when the lag is under BUSY_LAG_MS (the
   * machine gave the service its time: the miss is the service's), else 10 x the lag, at least
   * HARNESS_SLACK_MS, at most one deliveryDeadlineMs a time and MAX_EXTENSIONS of them in all.
   */
  loadExtensionMs(lagMs: number, extendedMs: number): number;
}

/** Fixed slack for a loaded 2-core machine: event-loop jitter and process scheduling (PITFALLS: Timing). */
export const HARNESS_SLACK_MS = 2_000;

/**
 * The floor of every timing tolerance: below it a measured gap is the event-loop and scheduling
 * noise of a loaded 2-core machine, not the target's timing (PITFALLS: Timing).
 */
export const LOADED_MACHINE_FLOOR_MS = 400;

/**
 * A lag at or over this says the machine is too loaded for the fixed slack: a service that answers a
 * trivial request this late is not getting the time to send a callback either (PITFALLS: Timing).
 */
export const BUSY_LAG_MS = 100;

/** The most delivery deadlines a missing callback's wait is extended by on a loaded machine. */
export const MAX_EXTENSIONS = 3;

const [BACKOFF_1, BACKOFF_2] = CONTRACT.backoffMs;

export function makeTiming(timeScale: number, tolerances: Tolerances): Timing {
  const scaled = (ms: number) => ms * timeScale;
  const tolerance = (ms: number) =>
    Math.max(tolerances.minMs * timeScale, tolerances.relative * scaled(ms), LOADED_MACHINE_FLOOR_MS);
  const delivery = () => scaled(CONTRACT.connectTimeoutMs + CONTRACT.requestTimeoutMs) + HARNESS_SLACK_MS;
  return {
    timeScale,
    scaled,
    tolerance,
    deliveryDeadlineMs: delivery,
    quietWindowMs: delivery,
    retryScheduleDeadlineMs: () => {
      const contract = CONTRACT.maxAttempts * CONTRACT.requestTimeoutMs + BACKOFF_1! + BACKOFF_2!;
      return scaled(contract) + tolerance(BACKOFF_2!) * 2 + HARNESS_SLACK_MS * 2;
    },
    loadExtensionMs: (lagMs, extendedMs) => {
      const left = MAX_EXTENSIONS * delivery() - extendedMs;
      if (lagMs < BUSY_LAG_MS || left <= 0) return 0;
      return Math.min(left, delivery(), Math.max(HARNESS_SLACK_MS, 10 * lagMs));
    },
  };
}
