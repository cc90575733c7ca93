/**
 * One request's wire form (HOST-27): its header section (http-fields.ts), its framing and connection
 * (framing.ts) and its JSON text (json-forms.ts), drawn from the run's seed (seed.ts) and a key naming
 * the request, and the run's seed recorded with every test whose requests were varied, so that
 * `ccs-conformance host --seed N` sends a failing test's forms again.
 */
import { test } from '@playwright/test';
import { carryInWords, drawCarryForm, type CarryForm } from './framing.ts';
import { drawFieldsForm, fieldLines, fieldsInWords, type FieldsForm } from './http-fields.ts';
import { jsonInWords, jsonText, MEMBER_ORDERS, type JsonForm } from './json-forms.ts';
import { Draw, wireSeed } from './seed.ts';

export interface WireForm {
  fields: FieldsForm;
  carry: CarryForm;
}

/** What send() is given: the field lines exactly as written, and how to carry the body. */
export interface SendWire {
  fields: Array<[string, string]>;
  carry: CarryForm;
  words: string;
}

/**
 * The form the contract writes (4.1: the field names as spelled there, in its order, Content-Type
 * application/json), framed by Content-Length on a new connection: the wire spec varies one freedom
 * of it at a time, so a refusal names the freedom that caused it.
 */
export const PLAIN_FORM: WireForm = {
  fields: { nameCase: 'canonical', order: 'as-listed', space: 'none', contentType: 'application/json' },
  carry: { framing: 'content-length', connection: 'new', chunks: 1 },
};

const counters = new WeakMap<object, number>();

/** The key of the next request of the running test: its title and the request's place in it. */
function nextRequestKey(kind: string): string {
  try {
    const info = test.info();
    const n = counters.get(info) ?? 0;
    counters.set(info, n + 1);
    if (n === 0) {
      const seed = wireSeed();
      const line = `${seed} (replay: ccs-conformance host --seed ${seed})`;
      info.annotations.push({ type: 'ccs-wire-seed', description: line });
    }
    return `${info.titlePath.join(' > ')}\u0000${kind}\u0000${n}`;
  } catch {
    // Outside a test (a self test driving the harness): a fresh draw each time.
    return `${kind}\u0000${Math.random()}`;
  }
}

/** The wire form of a request given as a whole (`form`), or drawn for the next request of the test. */
export function wireFor(headers: Record<string, string>, kind: string, form?: Partial<WireForm>): SendWire {
  const d = new Draw(nextRequestKey(kind));
  const fields = { ...drawFieldsForm(d), ...form?.fields };
  const carry = { ...drawCarryForm(d), ...form?.carry };
  return {
    fields: fieldLines(headers, fields, d),
    carry,
    words: `${fieldsInWords(fields)}; ${carryInWords(carry)}`,
  };
}

/**
 * The JSON text of a callback the host suites send: its members in a drawn order, keyed by its value, so
 * that the same payload sent again (a redelivery, a retry: the same bytes, DELIV-11) is the same text.
 * String escapes stay JSON.stringify's here: other clauses' tests rely on raw UTF-8 bytes (HOST-4 proves
 * a re-serializing verifier on them); the wire spec sends every escape form (HOST-27).
 */
export function callbackJson(payload: Record<string, unknown>): { text: string; words: string } {
  const plain = JSON.stringify(payload);
  const d = new Draw(`json\u0000${plain}`);
  const form: JsonForm = { order: d.pick(MEMBER_ORDERS), escapes: 'none' };
  return { text: jsonText(payload, form, d), words: jsonInWords(form) };
}

/** The JSON text of a value in a given form (the wire spec's escapes), drawn under the run's seed. */
export function jsonIn(payload: Record<string, unknown>, form: JsonForm): string {
  return jsonText(payload, form, new Draw(`json-form\u0000${JSON.stringify(payload)}\u0000${form.escapes}`));
}
