/**
 * The value classes the contract's words allow, generated from spec/openapi.yaml (value-schema.ts):
 * for each field of the callbacks (2.1, 2.2, 6), of the data API's envelope (2.3) and of the facts
 * GET's request line (4.1, 5.2 item 6), the kinds of value a service may send, as fast-check
 * arbitraries biased toward what real stacks mishandle (value-text.ts, value-numbers.ts,
 * value-envelopes.ts; docs/values.md is the catalogue). A run samples each class with its seed
 * (valueSeed, replayable with --seed) and CCS_PROPERTY_RUNS / 60 values of each (one by default).
 * A form the contract says is "not shown" or forbids is never generated: NOT_SERVED lists it with
 * the words that leave it out.
 */
import fc from 'fast-check';
import { readSettings } from '../../../spec/index.ts';
import { runSeed } from './generated.ts';
import { dotSegment } from './payloads.ts';
import { componentSchema, conforms, stringLimits } from './value-schema.ts';
import { TEXT_CLASSES } from './value-text.ts';

export { ENVELOPE_CLASSES, edgeEnvelope, envelope, envelopeKey, envelopeOfKey } from './value-envelopes.ts';
export type { EnvelopeClass } from './value-envelopes.ts';
export { INTEGER_CLASSES, TIMESTAMP_EDGES, type IntegerClass } from './value-numbers.ts';

export interface FieldClass {
  /** The class's id, in check rules and evidence ('handle.w4-max'). */
  id: string;
  words: string;
  /** Printable ASCII with no whitespace at either end: 4.1's X-Service-End-User header carries it as it is. */
  headerSafe: boolean;
  arb: fc.Arbitrary<string>;
}

/** The seed of this run's values (CCS_SEED, `--seed`), printed by the tests that use it. */
export function valueSeed(): number {
  return runSeed();
}

/** Values of each class a run sends: CCS_PROPERTY_RUNS / 60, at least one (depth by setting, not by default). */
export function valuesPerClass(): number {
  return Math.max(1, Math.round(readSettings().propertyRuns / 60));
}

/** Never an org handle (2.1), in any case, nor one a trim, NFKC or the removal of invisible characters makes one. */
function orgLike(v: string): boolean {
  return v
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .trim()
    .toLowerCase()
    .startsWith('org-');
}

const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function fieldClasses(field: 'handle' | 'key', schemaName: 'EndUserHandle' | 'ServiceKey'): FieldClass[] {
  const schema = componentSchema(schemaName);
  const limits = stringLimits(schema);
  const legal = (v: string) => conforms(schema, v) && !dotSegment(v) && (field === 'key' || !orgLike(v));
  return TEXT_CLASSES.map((c) => ({
    id: `${field}.${c.id}`,
    words: c.words,
    headerSafe: c.ascii === true,
    arb: c.arb(limits).filter(legal),
  }));
}

/** endUserHandle (2.1): a string of at most 255 characters, not starting with org-; nothing more of its characters. */
export const HANDLE_CLASSES: readonly FieldClass[] = fieldClasses('handle', 'EndUserHandle');
/** serviceKey (2.1): a string, non-empty since it addresses a record; no rule on its characters or length. */
export const KEY_CLASSES: readonly FieldClass[] = fieldClasses('key', 'ServiceKey');

/** A seed of its own for each class, so that adding a class changes no other class's values. */
export function classSeed(seed: number, id: string): number {
  let h = seed | 0;
  for (const ch of id) h = (Math.imul(h, 31) + ch.codePointAt(0)!) | 0;
  return h;
}

/** n values of a class, the same for the same seed (but for the tails that keep parallel tests apart). */
export function sampleClass(c: FieldClass, seed: number, n = 1): string[] {
  return fc.sample(c.arb, { seed: classSeed(seed, c.id), numRuns: n });
}

/** A header-safe value of a class whose values are (4.1: the facts GET carries the handle in a header). */
export function sampleHeaderSafe(c: FieldClass, seed: number, n = 1): string[] {
  return fc.sample(
    c.arb.filter((v) => HEADER_SAFE.test(v)),
    { seed: classSeed(seed, c.id), numRuns: n },
  );
}

/** The handle classes a facts GET carries (NOT_SERVED: a non-ASCII handle or whitespace at its ends). */
export function headerSafe(): FieldClass[] {
  return HANDLE_CLASSES.filter((c) => c.headerSafe);
}

/**
 * The facts GET's query (4.1: ?endUserHandle=<endUserHandle>; 5.2 item 6: signed as sent). How the
 * service percent-encodes it is not said, so every common encoding is legal and is sent.
 */
export interface QueryEncoding {
  id: string;
  words: string;
  encode(value: string): string;
}

export const QUERY_ENCODINGS: readonly QueryEncoding[] = [
  {
    id: 'query.form',
    words: 'application/x-www-form-urlencoded (a space as +, ~ ( ) ! escaped)',
    encode: (v) => new URLSearchParams({ v }).toString().slice(2),
  },
  {
    id: 'query.rfc3986',
    words: "encodeURIComponent (a space as %20, ~ * ( ) ! as they are, ' as %27 on the wire)",
    encode: (v) => encodeURIComponent(v),
  },
  {
    id: 'query.lowercase-hex',
    words: 'encodeURIComponent with lowercase hex digits (%c3%a9)',
    encode: (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  },
];

/**
 * Callback bodies: JSON allows one string to be written several ways; the bytes are what is signed
 * (5.2). The same payload written with \u escapes for every non-ASCII character and \/ for '/'.
 */
export function escapedJson(payload: Record<string, unknown>): string {
  return JSON.stringify(payload)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

/** Forms the contract's words leave out, with the words: never served. */
export const NOT_SERVED: readonly { form: string; because: string }[] = [
  {
    form: 'a record envelope member beyond those listed',
    because: '2.3: "Fields of a stored record beyond those listed: not shown"',
  },
  {
    form: 'a callback payload member beyond those listed',
    because: '2.2 lists the members of each event; 9 item 2: the versioning of payloads is not shown',
  },
  {
    form: 'an integer written 42.0 or 4.2e1 in a callback',
    because:
      '2.1: conversationId is an integer; a typed parser may refuse another form (served in the known-answer vectors, whose bytes a verifier never parses)',
  },
  {
    form: 'a conversationId beyond +-(2^53 - 1), the edges of int64 (2^63 - 1) among them',
    because:
      '2.1 says integer and bounds it on neither side, but a JSON number past 2^53 is not exact in JavaScript and other double-based parsers (RFC 8259 section 6, I-JSON RFC 7493 section 2.2): HOST-26 reading',
  },
  {
    form: 'an endUserHandle starting org- (any case), or one a trim, NFKC or the removal of invisible characters makes so',
    because: '2.1: must not start with the reserved prefix org-, and never an org handle',
  },
  {
    form: 'an endUserHandle longer than 255 characters, or empty; an empty serviceKey or changedFields entry',
    because:
      '2.1: max 255 characters; an empty handle is not shown; a key addresses a record (spec/openapi.yaml minLength 1)',
  },
  {
    form: 'a non-ASCII endUserHandle, or one with whitespace at either end, in the facts GET',
    because:
      '4.1 sends the handle in the X-Service-End-User header too; how a non-ASCII one is written there is not shown, and a header value loses the whitespace at its ends (RFC 9110 section 5.5)',
  },
  {
    form: "an endUserHandle or serviceKey '.' or '..'",
    because:
      'a read path holds the handle and the key as segments (4.2), and URL parsers treat a dot segment, %2E%2E too, as a move up',
  },
  {
    form: 'an empty string, a lone surrogate or a noncharacter where a string is required',
    because:
      'JSON text is UTF-8 (RFC 8259 section 8.1): a lone surrogate has no UTF-8 form, and 2.1 names no empty value',
  },
];
