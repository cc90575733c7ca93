/**
 * Timing expectations derived from the contract's durations and the target's time scale.
 * Every wait in a suite takes its deadline from here (no fixed sleeps, CONTRIBUTING).
 */
export interface Tolerances { minMs: number; relative: number }

export interface Timing {
  timeScale: number;
  /** contractMs * timeScale. */
  scaled(contractMs: number): number;
  /** max(minMs * timeScale, relative * scaled(contractMs), JITTER_FLOOR_MS): explicit, from the target (DELIV-8 reading). */
  tolerance(contractMs: number): number;
  /** How long to wait for a callback the contract says fires: scaled(connect 5 s + request 10 s) + fixed harness slack. */
  deliveryDeadlineMs(): number;
  /** How long to watch when asserting that nothing arrives: the same window as deliveryDeadlineMs. */
  quietWindowMs(): number;
  /** Three attempts each held past 10 s, plus 5 s and 20 s back-off, scaled, plus slack. */
  retryScheduleDeadlineMs(): number;
}

/** Fixed slack for a loaded 2-core machine: event-loop jitter and process scheduling (PITFALLS: Timing). */
export const HARNESS_SLACK_MS = 2_000;

/** Event-loop jitter floor for any timing tolerance (PITFALLS: tens of ms on a loaded 2-core machine). */
export const JITTER_FLOOR_MS = 100;

/** The contract's durations (section 8), in ms. */
export const CONTRACT_MS = { connect: 5_000, request: 10_000, backoff1: 5_000, backoff2: 20_000, factsTimeout: 10_000 } as const;

export function makeTiming(timeScale: number, tolerances: Tolerances): Timing {
  const scaled = (ms: number) => ms * timeScale;
  // JITTER_FLOOR_MS: below it a measured gap is noise of the harness's own machine, not the target's timing.
  const tolerance = (ms: number) => Math.max(tolerances.minMs * timeScale, tolerances.relative * scaled(ms), JITTER_FLOOR_MS);
  const delivery = () => scaled(CONTRACT_MS.connect + CONTRACT_MS.request) + HARNESS_SLACK_MS;
  return {
    timeScale,
    scaled,
    tolerance,
    deliveryDeadlineMs: delivery,
    quietWindowMs: delivery,
    retryScheduleDeadlineMs: () => {
      const contract = 3 * CONTRACT_MS.request + CONTRACT_MS.backoff1 + CONTRACT_MS.backoff2;
      return scaled(contract) + tolerance(CONTRACT_MS.backoff2) * 2 + HARNESS_SLACK_MS * 2;
    },
  };
}
