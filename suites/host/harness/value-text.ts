/**
 * Classes of string values, as fast-check arbitraries over a string schema's limits (value-schema.ts):
 * each class is what some real stack mishandles (docs/values.md names the stacks and the sources).
 * Lengths are counted in characters (code points), as section 2.1's "max 255 chars" and JSON
 * Schema's maxLength count them: a class at the limit is that many characters of one UTF-8 width,
 * so 255 four-byte characters are 1020 UTF-8 bytes and 510 UTF-16 units (JavaScript and Java .length).
 */
import fc from 'fast-check';
import type { StringLimits } from './value-schema.ts';

export interface TextClass {
  /** The class's id without its field ('w4-max'); a field's class is `${field}.${id}`. */
  id: string;
  words: string;
  /** Only printable ASCII, never whitespace at either end: a header value can carry it as it is (4.1). */
  ascii?: boolean;
  arb(l: StringLimits): fc.Arbitrary<string>;
}

const hex = fc.integer({ min: 0, max: 0xffffffff }).map((n) => n.toString(16).padStart(8, '0'));
const cp = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCodePoint(c));

/** Characters by UTF-8 width, never a control character, a surrogate or a noncharacter. */
export const WIDTH: Record<1 | 2 | 3 | 4, fc.Arbitrary<string>> = {
  1: cp(0x21, 0x7e),
  // From U+00A1: no C1 control, and U+00A0 (no-break space) is the whitespace class's.
  2: cp(0xa1, 0x7ff),
  3: fc.oneof(cp(0x800, 0xd7ff), cp(0xe000, 0xfdcf), cp(0xfdf0, 0xfffd)),
  // Emoji, CJK extension B and the rest of the planes above the BMP (surrogate pairs in UTF-16).
  4: fc.oneof(
    cp(0x1f300, 0x1faff),
    cp(0x20000, 0x2a6df),
    cp(0x10000, 0x10fffd).filter((c) => (c.codePointAt(0)! & 0xfffe) !== 0xfffe),
  ),
};

const AT_LEAST = 12;
/** A length at the schema's limit, or, where it sets none, as long as a handle may be (2.1: 255). */
const limitOf = (l: StringLimits) => l.max ?? 255;
const core = (l: StringLimits) =>
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: l.min, maxLength: 6 });

/** A value of a class with a unique tail, so that parallel tests never share it. */
const tailed = (body: fc.Arbitrary<string>) => fc.tuple(body, hex).map(([b, t]) => `${b}${t}`);

const atLimit = (w: 1 | 2 | 3 | 4): TextClass => ({
  id: `w${w}-max`,
  words: `${w}-byte characters only, as many as the limit allows (${w * 255} UTF-8 bytes for 255)`,
  ...(w === 1 ? { ascii: true } : {}),
  arb: (l) => fc.string({ unit: WIDTH[w], minLength: limitOf(l), maxLength: limitOf(l) }),
});

const WHITESPACE = [' ', '\t', '\n', '\u00a0', '\u2003', '\u3000'];
const INVISIBLE = ['\u200d', '\u200c', '\u200b', '\u2060', '\u00ad', '\ufeff'];
const BIDI = ['\u200e', '\u200f', '\u202e', '\u202c', '\u2067', '\u2069'];
const RTL_LETTERS = cp(0x5d0, 0x5ea);
const COMBINING = ['\u0301', '\u0300', '\u0303', '\u0308', '\u0327', '\u030a'];
const COMPOSABLE = [...'aeiouncAEIOUNC'];
const ENCODER_CHARS = [..."+%/?#&=;,:@$~*'()! "];

/** Strings a loose parser takes for a number, a boolean or nothing (JSON, YAML, query coercion). */
export const NUMBER_LIKE = ['0', '1', '-1', '-0', '007', '1e3', '1E+3', '0x1F', '1.0', 'NaN', 'Infinity', '2147483648'];
export const NOTHING_LIKE = ['true', 'false', 'null', 'undefined', 'None', 'nil', 'NULL', 'True', '[]', '{}'];

/** The classes, in a fixed order (a class's position decides nothing but the order of the report). */
export const TEXT_CLASSES: readonly TextClass[] = [
  { id: 'plain', words: 'letters, digits and a hyphen', ascii: true, arb: (l) => tailed(core(l).map((c) => `u-${c}`)) },
  // Encoders disagree: %20 (encodeURIComponent, RFC 3986) or + (application/x-www-form-urlencoded).
  { id: 'space', words: 'a space inside', ascii: true, arb: () => tailed(fc.constant('Ana Lima ')) },
  // encodeURIComponent leaves ~ * ( ) ! as they are, a form encoder escapes ~ ( ) !.
  { id: 'sub-delims', words: "~ * ' ( ) !", ascii: true, arb: () => tailed(fc.constant("u~*'()!-")) },
  // A form decoder reads + as a space.
  { id: 'plus', words: 'a plus sign', ascii: true, arb: () => tailed(fc.constant('a+b-')) },
  // A double decoder turns %25 into %, and a lone % is no escape at all.
  {
    id: 'percent',
    words: "'%' alone and '%25', '%20' as text",
    ascii: true,
    arb: () => tailed(fc.constant('100%-%25%20')),
  },
  { id: 'reserved', words: '/ ? # & = ; , : @ $', ascii: true, arb: () => tailed(fc.constant('u/?#&=;,:@$-')) },
  {
    id: 'encoder-mix',
    words: "a random run of + % / ? # & = ; , : @ $ ~ * ' ( ) ! and spaces",
    ascii: true,
    arb: () => tailed(fc.string({ unit: fc.constantFrom(...ENCODER_CHARS), minLength: 1, maxLength: AT_LEAST })),
  },
  {
    id: 'number-like',
    words: 'a string a loose parser reads as a number',
    ascii: true,
    arb: () => fc.constantFrom(...NUMBER_LIKE),
  },
  {
    id: 'nothing-like',
    words: 'a string a loose parser reads as a boolean, null or an empty value',
    ascii: true,
    arb: () => fc.constantFrom(...NOTHING_LIKE),
  },
  {
    id: 'one-char',
    words: 'one character (the shortest the schema allows), of any UTF-8 width',
    arb: (l) =>
      fc.string({
        unit: fc.oneof(WIDTH[1], WIDTH[2], WIDTH[3], WIDTH[4]),
        minLength: Math.max(1, l.min),
        maxLength: Math.max(1, l.min),
      }),
  },
  atLimit(1),
  atLimit(2),
  atLimit(3),
  atLimit(4),
  {
    id: 'mixed-widths',
    words: 'characters of every UTF-8 width mixed (josé, 東京, 😀, 𝄞)',
    arb: () =>
      tailed(
        fc
          .string({ unit: fc.oneof(WIDTH[1], WIDTH[2], WIDTH[3], WIDTH[4]), minLength: 4, maxLength: AT_LEAST })
          .map((s) => `${s}-`),
      ),
  },
  {
    id: 'nfd',
    words: 'letters in decomposed form (e + U+0301), which NFC normalization changes',
    arb: () =>
      tailed(
        fc
          .array(fc.tuple(fc.constantFrom(...COMPOSABLE), fc.constantFrom(...COMBINING)), {
            minLength: 2,
            maxLength: 6,
          })
          .map((ps) => `${ps.map(([b, m]) => b + m).join('')}-`),
      ).filter((s) => s.normalize('NFC') !== s),
  },
  {
    id: 'nfc',
    words: 'precomposed letters (é, ñ, ü), which NFD normalization (macOS file names) changes',
    arb: () =>
      tailed(
        fc
          .array(fc.tuple(fc.constantFrom(...COMPOSABLE), fc.constantFrom(...COMBINING)), {
            minLength: 2,
            maxLength: 6,
          })
          .map((ps) => `${ps.map(([b, m]) => (b + m).normalize('NFC')).join('')}-`),
      ).filter((s) => s.normalize('NFD') !== s),
  },
  {
    id: 'edge-whitespace',
    words: 'whitespace at either end (space, tab, line feed, no-break space, em space, ideographic space)',
    arb: (l) =>
      fc
        .tuple(fc.constantFrom(...WHITESPACE), tailed(core(l).map((c) => `w-${c}`)), fc.constantFrom(...WHITESPACE))
        .map(([a, b, c]) => `${a}${b}${c}`),
  },
  {
    id: 'invisible',
    words: 'invisible characters: zero-width joiner and space, word joiner, soft hyphen, a leading byte order mark',
    arb: (l) =>
      fc
        .tuple(fc.boolean(), tailed(core(l).map((c) => `z-${c}`)), fc.subarray(INVISIBLE, { minLength: 1 }))
        .map(([bom, b, zs]) => `${bom ? '\ufeff' : ''}${b.slice(0, 2)}${zs.join('')}${b.slice(2)}`),
  },
  {
    id: 'bidi',
    words: 'right-to-left letters and bidirectional marks and overrides (RLM, RLO, RLI)',
    arb: () =>
      fc
        .tuple(fc.constantFrom(...BIDI), fc.string({ unit: RTL_LETTERS, minLength: 2, maxLength: 6 }), hex)
        .map(([m, rtl, t]) => `b-${m}${rtl}\u202c-${t}`),
  },
];
