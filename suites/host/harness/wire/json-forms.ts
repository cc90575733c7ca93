/**
 * A payload's JSON text as a sender may write it (HOST-27): the same JSON value in other bytes, signed
 * as sent. RFC 8259 4: an object is an unordered collection of members, so any member order is the
 * same object; 7: any character of a string (a member name too) may be written as a \u escape, a
 * character outside the BMP as the escaped UTF-16 surrogate pair, the hex digits in either case, and
 * / may be written \/. Numbers are written by JSON.stringify alone: the contract says integer (2.1,
 * 2.2), and RFC 8259 6's int grammar has no fraction and no exponent, so 1.0 and 1e2 are never sent.
 * No member name is written twice (RFC 8259 4: names SHOULD be unique). Whitespace is HOST-24's
 * (generated.ts spaced()).
 */
import type { Draw } from './seed.ts';

export const MEMBER_ORDERS = ['as-built', 'reversed', 'shuffled'] as const;
export type MemberOrder = (typeof MEMBER_ORDERS)[number];

/**
 * none: JSON.stringify's escapes; solidus: every / as \/; non-ascii: every character above U+007F as
 * \u escapes (surrogate pairs for those outside the BMP); every-char: every character of every string and
 * member name as a \u escape; some: a drawn third of the characters, hex digits of either case.
 */
export const ESCAPES = ['none', 'solidus', 'non-ascii', 'every-char', 'some'] as const;
export type Escapes = (typeof ESCAPES)[number];

export interface JsonForm {
  order: MemberOrder;
  escapes: Escapes;
}

const hex4 = (code: number, upper: boolean): string => {
  const h = code.toString(16).padStart(4, '0');
  return `\\u${upper ? h.toUpperCase() : h}`;
};

/** A string literal with the form's escapes; UTF-16 code units, so a non-BMP character is a surrogate pair. */
function stringLiteral(s: string, escapes: Escapes, d: Draw): string {
  if (escapes === 'none') return JSON.stringify(s);
  let out = '"';
  for (const ch of s) {
    const plain = JSON.stringify(ch).slice(1, -1);
    const code = ch.codePointAt(0)!;
    const escape =
      escapes === 'every-char' || (escapes === 'non-ascii' && code > 0x7f) || (escapes === 'some' && d.int(3) === 0);
    if (escapes === 'solidus' && ch === '/') out += '\\/';
    else if (!escape) out += plain;
    else for (let i = 0; i < ch.length; i++) out += hex4(ch.charCodeAt(i), escapes === 'some' ? d.chance(0.5) : false);
  }
  return `${out}"`;
}

/** The value written compactly in the form's member order and escapes. */
export function jsonText(value: unknown, form: JsonForm, d: Draw): string {
  const out = (v: unknown): string => {
    if (typeof v === 'string') return stringLiteral(v, form.escapes, d);
    if (Array.isArray(v)) return `[${v.map(out).join(',')}]`;
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      const ordered =
        form.order === 'reversed' ? entries.reverse() : form.order === 'shuffled' ? d.shuffle(entries) : entries;
      return `{${ordered.map(([k, x]) => `${stringLiteral(k, form.escapes, d)}:${out(x)}`).join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return out(value);
}

export function jsonInWords(f: JsonForm): string {
  return `members ${f.order}, escapes ${f.escapes}`;
}
