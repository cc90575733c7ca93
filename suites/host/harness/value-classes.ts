/**
 * The value classes the contract's words allow, as data: for each field of the callbacks (2.1,
 * 2.2), of the data API's envelope (2.3) and of the facts GET's request line (4.1, 5.2 item 6),
 * the kinds of value a service may send, each served on every request kind it applies to
 * (values.spec.ts). A form the contract says is "not shown" is left out and listed in NOT_SERVED
 * with the words that leave it out.
 */
import { randomBytes } from 'node:crypto';
import type { RecordEnvelope } from '../../../spec/index.ts';

export interface TextClass {
  /** The class's id, in check rules and evidence ('handle.space'). */
  id: string;
  words: string;
  /** A fresh value of the class: unique per call, so parallel tests never share a handle or key. */
  make(): string;
}

const tail = (): string => randomBytes(4).toString('hex');

/**
 * endUserHandle (2.1): a string of at most 255 characters, not starting with org-; nothing more is
 * said of its characters. Classes by what an encoder does with them in a path segment or a query.
 */
export const HANDLE_CLASSES: readonly TextClass[] = [
  { id: 'handle.plain', words: 'letters, digits and a hyphen', make: () => `u-${tail()}` },
  // Encoders disagree: %20 (encodeURIComponent, RFC 3986) or + (application/x-www-form-urlencoded).
  { id: 'handle.space', words: 'a space', make: () => `Ana Lima ${tail()}` },
  // Encoders disagree: encodeURIComponent leaves ~ * ( ) ! as they are, a form encoder escapes ~ ( ) !.
  { id: 'handle.sub-delims', words: "~ * ' ( ) !", make: () => `u~*'()!-${tail()}` },
  // A form decoder reads + as a space.
  { id: 'handle.plus', words: 'a plus sign', make: () => `a+b-${tail()}` },
  // A double decoder turns %25 into %, and a lone % is no escape at all.
  { id: 'handle.percent', words: "'%' alone and '%25' as text", make: () => `100%-%25-${tail()}` },
  { id: 'handle.reserved', words: '/ ? # & = ; , : @ $', make: () => `u/?#&=;,:@$-${tail()}` },
  { id: 'handle.non-ascii', words: 'non-ASCII letters (2- and 3-byte UTF-8)', make: () => `josé-東京-${tail()}` },
  { id: 'handle.astral', words: 'characters outside the BMP (4-byte UTF-8)', make: () => `u-😀𝄞-${tail()}` },
  {
    id: 'handle.max-length',
    words: '255 characters, mixed classes',
    make: () => {
      const h = `Ana Lima~*()!+%é-${tail()}-`;
      return h + 'x'.repeat(255 - h.length);
    },
  },
];

/** serviceKey (2.1): a string, with no rule on its characters. */
export const KEY_CLASSES: readonly TextClass[] = [
  { id: 'key.plain', words: 'letters, digits and a hyphen', make: () => `sk-${tail()}` },
  { id: 'key.slash', words: "a '/' inside the key", make: () => `sk/${tail()}/a` },
  { id: 'key.space', words: 'a space', make: () => `sk ${tail()}` },
  { id: 'key.sub-delims', words: "~ * ' ( ) !", make: () => `sk~*'()!${tail()}` },
  { id: 'key.plus', words: 'a plus sign', make: () => `sk+${tail()}` },
  { id: 'key.percent', words: "'%' alone and '%20' as text", make: () => `sk%%20${tail()}` },
  { id: 'key.non-ascii', words: 'non-ASCII letters and an emoji', make: () => `sk-ü東-😀${tail()}` },
];

/**
 * conversationId (2.1): an integer. The edges of what a JSON number carries exactly, both signs:
 * the contract bounds neither (HOST-26 reading). Near each edge, so that delivery ids stay unique.
 */
export const CONVERSATION_ID_CLASSES: readonly { id: string; words: string; make(): number }[] = [
  { id: 'conversation.max-safe', words: '2^53 - 1 and just below', make: () => Number.MAX_SAFE_INTEGER - near() },
  { id: 'conversation.min-safe', words: '-(2^53 - 1) and just above', make: () => -Number.MAX_SAFE_INTEGER + near() },
  { id: 'conversation.small', words: 'a one- to three-digit integer', make: () => 1 + near(999) },
];
function near(n = 1_000_000): number {
  return Math.floor(Math.random() * n);
}

/**
 * The record envelope (2.3): data "object or null", "fields that could not be populated are null",
 * errors and warnings maps (empty or filled), callbackStatus PENDING or DELIVERED, completedAt
 * non-null on drafts too. Rule 2: a record that does not bind is still returned, errors filled.
 */
export interface EnvelopeClass {
  id: string;
  words: string;
  envelope(serviceKey: string): RecordEnvelope;
}

const at = (): string => new Date().toISOString().replace('Z', '');

export const ENVELOPE_CLASSES: readonly EnvelopeClass[] = [
  {
    id: 'envelope.fields-null',
    words: 'a field that could not be populated, null, with its reason in errors',
    envelope: () => ({
      data: { label: null },
      errors: { label: 'could not be populated' },
      warnings: {},
      callbackStatus: 'DELIVERED',
      completedAt: at(),
    }),
  },
  {
    id: 'envelope.data-null',
    words: 'data null, errors and warnings empty maps',
    envelope: () => ({ data: null, errors: {}, warnings: {}, callbackStatus: 'DELIVERED', completedAt: at() }),
  },
  {
    id: 'envelope.data-empty',
    words: 'data an empty object',
    envelope: () => ({ data: {}, errors: {}, warnings: {}, callbackStatus: 'DELIVERED', completedAt: at() }),
  },
  {
    id: 'envelope.unbound',
    words: 'a record that does not bind: data null, errors filled, DELIVERED (rule 2)',
    envelope: () => ({
      data: null,
      errors: { label: 'value does not bind to the host class', 'address.city': 'missing' },
      warnings: {},
      callbackStatus: 'DELIVERED',
      completedAt: at(),
    }),
  },
  {
    id: 'envelope.pending-warnings',
    words: 'a PENDING draft with warnings filled and completedAt set',
    envelope: (k) => ({
      data: { label: `record ${k}`, note: 'ü 東京 😀' },
      errors: {},
      warnings: { note: 'in progress' },
      callbackStatus: 'PENDING',
      completedAt: at(),
    }),
  },
];

/**
 * A key whose read the data API answers with an envelope class: the class is in the key, so every
 * process serving reads (a worker's own service side, or one shared by workers) knows it.
 */
export function envelopeKey(c: EnvelopeClass, key: TextClass = KEY_CLASSES[0]!): string {
  return `sk-${c.id}.${key.make()}`;
}

/** The envelope of a key made by envelopeKey, undefined for any other key. */
export function envelopeOfKey(serviceKey: string): RecordEnvelope | undefined {
  return ENVELOPE_CLASSES.find((c) => serviceKey.startsWith(`sk-${c.id}.`))?.envelope(serviceKey);
}

/** What a scripted 200 answers (HOST-13's held first key): section 2.3's edges, data null and empty maps. */
export function edgeEnvelope(): RecordEnvelope {
  return { data: null, errors: {}, warnings: {}, callbackStatus: 'PENDING', completedAt: at() };
}

/** The envelope of a key: its value class, else placeholder values (EVT-2: values are never in a callback). */
export function envelope(serviceKey: string): RecordEnvelope {
  return (
    envelopeOfKey(serviceKey) ?? {
      data: { label: `record ${serviceKey}` },
      errors: {},
      warnings: {},
      callbackStatus: 'DELIVERED',
      completedAt: at(),
    }
  );
}

/**
 * The handle classes a facts GET carries: 4.1 sends endUserHandle in the X-Service-End-User header
 * too, and how a non-ASCII one is written there is not shown (NOT_SERVED).
 */
export function headerSafe(): TextClass[] {
  return HANDLE_CLASSES.filter((c) => /^[\x20-\x7e]*$/.test(c.make()));
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
    form: 'an endUserHandle starting org- (any case)',
    because: '2.1: must not start with the reserved prefix org-, and never an org handle',
  },
  {
    form: 'an endUserHandle longer than 255 characters, or empty',
    because: '2.1: max 255 characters; an empty handle is not shown',
  },
  {
    form: 'a non-ASCII endUserHandle in the facts GET',
    because:
      '4.1 sends the handle in the X-Service-End-User header too; how a non-ASCII one is written there is not shown',
  },
  {
    form: "a serviceKey '.' or '..'",
    because:
      'a read path holds the key as a segment (4.2), and URL parsers treat a dot segment, %2E%2E too, as a move up',
  },
];
