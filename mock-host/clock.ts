/**
 * The moments an entry keeps until it is settled, as small integers: the monotonic clock as whole
 * seconds and the nanoseconds past them, the wall clock as milliseconds since this module loaded.
 * A BigInt or a fractional number held in an object is a heap object of its own, and a journal of
 * many thousand unread entries makes every garbage collection copy each one; small integers live
 * inside the entry. The journal's text is the same: monoNs is the same nanosecond count as
 * process.hrtime.bigint() (both read one clock), wallMs the same Date.now() value.
 */
const WALL_BASE_MS = Date.now();

/**
 * The monotonic clock now: [seconds, nanoseconds past them]. `| 0` makes each a small integer:
 * node computes them in floating point, and one such number stored in a field turns that field
 * of every entry into a boxed number.
 */
export function monoNow(): [number, number] {
  const [s, ns] = process.hrtime();
  return [s! | 0, ns! | 0];
}

/** The wall clock now, in milliseconds since WALL_BASE_MS: a small integer for 24 days, then a plain number. */
export function wallNow(): number {
  const ms = Date.now() - WALL_BASE_MS;
  return ms <= 0x7fffffff ? ms | 0 : ms;
}

export function wallMsOf(wallOffMs: number): number {
  return WALL_BASE_MS + wallOffMs;
}

/** The journal's monoNs text of a moment: decimal nanoseconds, as process.hrtime.bigint() gives. */
export function monoText(s: number, ns: number): string {
  // exact in floating point while the count is a safe integer (s under 104 days); BigInt past that
  const total = s * 1e9 + ns;
  if (total <= Number.MAX_SAFE_INTEGER) return String(total);
  return (BigInt(s) * 1_000_000_000n + BigInt(ns)).toString();
}

/** Whole milliseconds from one moment to a later one (truncated, as BigInt division does). */
export function monoMsBetween(s0: number, ns0: number, s1: number, ns1: number): number {
  return Math.floor(((s1 - s0) * 1e9 + (ns1 - ns0)) / 1e6);
}
