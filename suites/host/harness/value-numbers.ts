/**
 * Classes of integer values (conversationId of every callback, count and page of a bulk page: 2.1,
 * 2.2), the edges of every common integer width on both signs, within the bounds the schema leaves
 * (value-schema.ts integerBounds: +-(2^53 - 1) where the contract sets none, HOST-26 reading), and
 * the timestamps of 2.1 at the edges of the calendar. docs/values.md names the stacks each breaks.
 */
import fc from 'fast-check';
import { formatCallbackTimestamp } from '../../../protocol/index.ts';

export interface IntegerEdge {
  value: number;
  /** Just past a width's edge (a parser of that width overflows), else just inside it. */
  past: boolean;
}

export interface IntegerClass {
  id: string;
  words: string;
  edges: readonly IntegerEdge[];
}

const inside = (value: number): IntegerEdge => ({ value, past: false });
const past = (value: number): IntegerEdge => ({ value, past: true });

/** Signed and unsigned edges of a width of `bits` bits: its largest and smallest values, and one past each. */
function widthEdges(bits: 8 | 16 | 32): IntegerEdge[] {
  const max = 2 ** (bits - 1) - 1;
  return [inside(max), past(max + 1), inside(-max - 1), past(-max - 2), inside(2 ** bits - 1), past(2 ** bits)];
}

export const INTEGER_CLASSES: readonly IntegerClass[] = [
  { id: 'int.zero-one', words: '0, 1 and -1 (a falsy 0, a sign)', edges: [inside(0), inside(1), inside(-1)] },
  { id: 'int.8', words: 'the edges of int8 and uint8 (127, 128, -128, -129, 255, 256)', edges: widthEdges(8) },
  {
    id: 'int.16',
    words: 'the edges of int16 and uint16 (32767, 32768, -32768, -32769, 65535, 65536)',
    edges: widthEdges(16),
  },
  {
    id: 'int.32',
    words: 'the edges of int32 and uint32 (2^31 - 1, 2^31, -2^31, -2^31 - 1, 2^32 - 1, 2^32)',
    edges: widthEdges(32),
  },
  {
    id: 'int.53',
    words: 'the largest integers a JSON number carries exactly, 2^53 - 1 and -(2^53 - 1), and their neighbours',
    edges: [
      inside(Number.MAX_SAFE_INTEGER),
      inside(-Number.MAX_SAFE_INTEGER),
      inside(Number.MAX_SAFE_INTEGER - 1),
      inside(-Number.MAX_SAFE_INTEGER + 1),
    ],
  },
];

/** n edges of a class, chosen by the seed (all of them when n is at least their number). */
export function edgesOf(c: IntegerClass, seed: number, n: number): IntegerEdge[] {
  if (n >= c.edges.length) return [...c.edges];
  return fc.sample(fc.shuffledSubarray([...c.edges], { minLength: n, maxLength: n }), { seed, numRuns: 1 })[0]!;
}

/**
 * The edge moved by `by` away from its width's boundary (into the width for an inside edge, further out
 * for a past one), so that the same class can be sent again under another delivery id (lc-<id>-<event>).
 */
export function moved(e: IntegerEdge, by: number, bounds: { min: number; max: number }): number {
  const sign = e.value < 0 ? -1 : 1;
  const toward = e.past ? sign : -sign;
  const v = e.value + toward * by;
  return Math.min(bounds.max, Math.max(bounds.min, v));
}

/** An edge an onComplete may carry: one moved by up to 1023 stays past int16 (value-callbacks.ts). */
export const ONCOMPLETE_EDGE = (e: IntegerEdge): boolean => Math.abs(e.value) >= 2 ** 16;

/** Delivery ids (conversationId, event) this process has sent a value class under: never twice. */
const taken = new Set<string>();

/**
 * The conversationId of an edge for an event, unique in this process. An onComplete is moved by a
 * random step (up to 1023) even the first time: a receiver that keeps its delivery ids across runs
 * (HOST-11) would take an exact edge sent by an earlier run for a redelivery and never read its keys.
 * So an onComplete carries only the edges that such a step keeps in their class (ONCOMPLETE_EDGE).
 */
export function conversationIdOf(e: IntegerEdge, event: string, bounds: { min: number; max: number }): number {
  const jitter = event === 'onComplete' ? 1 + Math.floor(Math.random() * 1023) : 0;
  for (let by = jitter; ; by++) {
    const v = moved(e, by, bounds);
    if (!taken.has(`${v}|${event}`)) {
      taken.add(`${v}|${event}`);
      return v;
    }
  }
}

/**
 * Timestamps (2.1: date-time with milliseconds, no zone offset): the calendar's edges a date parser
 * trips on (a leap day, the last millisecond of a year, midnight, .000 and .999, an hour that a
 * European clock read as local time skips), and now.
 */
export const TIMESTAMP_EDGES: readonly string[] = [
  '2028-02-29T12:00:00.000',
  '2026-12-31T23:59:59.999',
  '2027-01-01T00:00:00.000',
  '2026-03-29T02:30:00.500',
];

export const TIMESTAMP: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null).map(() => formatCallbackTimestamp(new Date())) },
  { weight: 1, arbitrary: fc.constantFrom(...TIMESTAMP_EDGES) },
);

/** changedFields (2.2): dotted field paths, none empty; the list may be empty (no field is named). */
export const CHANGED_FIELDS: fc.Arbitrary<string[]> = fc.array(
  fc.constantFrom('label', 'address.city', 'items.0.name', '0', 'true', 'ü.名前', 'a b', 'x'.repeat(255)),
  { maxLength: 4 },
);
