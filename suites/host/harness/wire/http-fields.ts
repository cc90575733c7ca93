/**
 * The header section as a sender may write it (HOST-27): what RFC 9110 and RFC 9112 leave to the sender,
 * while every field name and value the contract fixes (section 4.1) stays what it says.
 */
import type { Draw } from './seed.ts';

/** RFC 9110 5.1: field names are case-insensitive, so any case is the same name. */
export const NAME_CASES = ['lower', 'canonical', 'upper', 'mixed'] as const;
export type NameCase = (typeof NAME_CASES)[number];

/** RFC 9110 5.3: the order of field lines with differing names is not significant. */
export const FIELD_ORDERS = ['as-listed', 'reversed', 'shuffled'] as const;
export type FieldOrder = (typeof FIELD_ORDERS)[number];

/** RFC 9112 5.1: field-line = field-name ":" OWS field-value OWS; OWS is no part of the value. */
export const VALUE_SPACES = ['none', 'space', 'tabs', 'both-sides'] as const;
export type ValueSpace = (typeof VALUE_SPACES)[number];

/**
 * Section 4.1 writes the field whole, "Content-Type: application/json": its value is the contract's, never
 * varied. A charset parameter or another case (the same media type to RFC 9110 8.3.1) is a form the contract
 * does not show, and a host that compares the value as written keeps to what the service sends.
 */
export const CONTENT_TYPES = ['application/json'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export interface FieldsForm {
  nameCase: NameCase;
  order: FieldOrder;
  space: ValueSpace;
  contentType: ContentType;
}

export function drawFieldsForm(d: Draw): FieldsForm {
  return {
    nameCase: d.pick(NAME_CASES),
    order: d.pick(FIELD_ORDERS),
    space: d.pick(VALUE_SPACES),
    contentType: d.pick(CONTENT_TYPES),
  };
}

function nameIn(name: string, c: NameCase, d: Draw): string {
  if (c === 'lower') return name.toLowerCase();
  if (c === 'upper') return name.toUpperCase();
  if (c === 'canonical')
    return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());
  return [...name].map((ch) => (d.chance(0.5) ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

function spaced(value: string, s: ValueSpace): string {
  if (s === 'space') return ` ${value}`;
  if (s === 'tabs') return `\t${value}\t`;
  if (s === 'both-sides') return ` \t${value} `;
  return value;
}

/**
 * The field lines of a request, in the form's case, order and spacing: the names and values are
 * the contract's (4.1), a Content-Type the form's. `d` draws the mixed case and the shuffle.
 */
export function fieldLines(headers: Record<string, string>, form: FieldsForm, d: Draw): Array<[string, string]> {
  const entries = Object.entries(headers).map(([n, v]): [string, string] =>
    n.toLowerCase() === 'content-type' ? [n, form.contentType] : [n, v],
  );
  const ordered =
    form.order === 'reversed' ? entries.reverse() : form.order === 'shuffled' ? d.shuffle(entries) : entries;
  return ordered.map(([n, v]) => [nameIn(n, form.nameCase, d), spaced(v, form.space)]);
}

export function fieldsInWords(f: FieldsForm): string {
  return `names ${f.nameCase}, order ${f.order}, value spaces ${f.space}, Content-Type ${JSON.stringify(f.contentType)}`;
}
