/**
 * One injectable clock and the time scale. Contract timers (connect 5 s, request 10 s, back-off,
 * facts timeout) are multiplied by timeScale; the facts cache (24 h, FACTS-6) and the idle TTL
 * follow the service clock, which the driver's clock/advance moves forward. Signature t and
 * payload timestamps stay real wall-clock time (SIGN-4, EVT-14).
 */
export interface ServiceClock {
  /** Service clock in ms since the epoch (wall clock plus every advance). */
  now(): number;
  advance(ms: number): number;
  /** A contract duration scaled by the time scale. */
  scaled(ms: number): number;
  readonly timeScale: number;
}

export function createClock(timeScale: number, base: () => number = Date.now): ServiceClock {
  let offset = 0;
  return {
    timeScale,
    now: () => base() + offset,
    advance(ms: number) {
      offset += ms;
      return base() + offset;
    },
    scaled: (ms: number) => Math.max(1, Math.round(ms * timeScale)),
  };
}

/** EVT-14: date-time with milliseconds and no zone offset. */
export function contractTimestamp(ms: number = Date.now(), withZone = false): string {
  const iso = new Date(ms).toISOString();
  return withZone ? iso : iso.slice(0, 23);
}
