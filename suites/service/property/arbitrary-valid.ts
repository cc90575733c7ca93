/**
 * Values a JSON Schema (the subset spec/openapi.yaml uses) accepts, as fast-check arbitraries (compile.ts
 * validArbitrary). Construction gives candidates; the subset validator (validate.ts) keeps the right ones.
 */
import fc from 'fast-check';
import { ccsError } from '../../../spec/index.ts';
import { codePoints, regex, violations, type RefResolver, type Schema } from './validate.ts';

export interface CompileOptions {
  resolveRef?: RefResolver;
  /** Upper bound on generated array lengths beyond minItems (keeps runs small). */
  maxExtraItems?: number;
  /** Extra members added to open objects (additionalProperties absent or true). */
  openObjectExtras?: boolean;
  /** Characters of generated free strings: BMP only by default, so code points = UTF-16 units. */
  stringUnit?: fc.Arbitrary<string>;
}

const noRef: RefResolver = (ref) => {
  throw ccsError('PROPERTY_SCHEMA_UNSUPPORTED', { problem: `cannot resolve $ref ${ref}: no resolver given` });
};

/** Printable BMP characters without surrogates (JSON and URLs carry them; lengths are unambiguous). */
export const BMP_CHAR = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xd7ff }).map((c) => String.fromCharCode(c)) },
);

export interface Ctx {
  resolve: RefResolver;
  extra: number;
  openExtras: boolean;
  unit: fc.Arbitrary<string>;
  depth: number;
}

export function ctxOf(o: CompileOptions = {}): Ctx {
  return {
    resolve: o.resolveRef ?? noRef,
    extra: o.maxExtraItems ?? 4,
    openExtras: o.openObjectExtras ?? true,
    unit: o.stringUnit ?? BMP_CHAR,
    depth: 0,
  };
}

const isValid = (schema: Schema, resolve: RefResolver) => (v: unknown) => violations(schema, v, resolve).length === 0;

/** Keeps candidates of which enough satisfy `pred` (sampled with a fixed seed); others are dropped. */
export function feasible<T>(arb: fc.Arbitrary<T>, pred: (v: T) => boolean, minRate = 0.1): fc.Arbitrary<T> | undefined {
  let ok = 0;
  const n = 24;
  try {
    for (const v of fc.sample(arb, { numRuns: n, seed: 4242 })) if (pred(v)) ok++;
  } catch {
    return undefined;
  }
  return ok / n >= minRate ? arb.filter(pred) : undefined;
}

function stringArb(s: Record<string, unknown>, c: Ctx): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Math.max(min + 12, 12);
  if (typeof s.pattern === 'string') {
    // No maxLength: the pattern decides the length (a fixed-shape timestamp is 23 characters).
    const max = typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY;
    const lengthOk = (x: string) => {
      const n = codePoints(x);
      return n >= min && n <= max;
    };
    // Pad a pattern match up to minLength when the pattern is not anchored at its end.
    const padded = fc
      .tuple(
        fc.stringMatching(regex(s.pattern)),
        fc.string({ unit: c.unit, minLength: min, maxLength: Math.min(max, min + 8) }),
      )
      .map(([m, pad]) => (codePoints(m) >= min ? m : m + pad.slice(0, Math.max(0, min - codePoints(m)) + 0)));
    return fc
      .oneof(fc.stringMatching(regex(s.pattern)), padded)
      .filter((x) => lengthOk(x) && regex(s.pattern as string).test(x));
  }
  if (s.format === 'uri') return fc.webUrl().filter((x) => codePoints(x) >= min && codePoints(x) <= max);
  if (s.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  // Bias to the boundaries: exactly min and exactly max are where implementations slip (EMBED-2).
  const bounded = fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: c.unit, minLength: min, maxLength: Math.min(max, min + 16) }) },
    { weight: 1, arbitrary: fc.string({ unit: c.unit, minLength: max, maxLength: max }) },
  );
  return bounded;
}

function numberArb(s: Record<string, unknown>, integer: boolean): fc.Arbitrary<number> {
  const lo =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum + (integer ? 1 : 1e-6)
        : -1e6;
  const hi =
    typeof s.maximum === 'number'
      ? s.maximum
      : typeof s.exclusiveMaximum === 'number'
        ? s.exclusiveMaximum - (integer ? 1 : 1e-6)
        : 1e6;
  if (integer)
    return fc.oneof(
      fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }),
      fc.constantFrom(Math.ceil(lo), Math.floor(hi)),
    );
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
}

export const ANY_SCALAR: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.string({ maxLength: 8 }),
);

export function anyJson(c: Ctx): fc.Arbitrary<unknown> {
  return c.depth > 2
    ? ANY_SCALAR
    : fc.oneof(
        { weight: 4, arbitrary: ANY_SCALAR },
        fc.array(ANY_SCALAR, { maxLength: 3 }),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), ANY_SCALAR, { maxKeys: 3 }),
      );
}

function typedArb(t: string, s: Record<string, unknown>, c: Ctx): fc.Arbitrary<unknown> {
  const d = { ...c, depth: c.depth + 1 };
  switch (t) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'string':
      return stringArb(s, c);
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = typeof s.maxItems === 'number' ? Math.min(s.maxItems, min + c.extra) : min + c.extra;
      const item = s.items !== undefined ? valid(s.items as Schema, d) : anyJson(d);
      return fc.array(item, { minLength: min, maxLength: max });
    }
    case 'object':
      return objectArb(s, d);
    default:
      throw ccsError('PROPERTY_SCHEMA_UNSUPPORTED', { problem: `type ${t} is not supported` });
  }
}

export function extraKeyArb(s: Record<string, unknown>): fc.Arbitrary<string> {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  return fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !(k in props) && k !== '__proto__');
}

export function objectArb(s: Record<string, unknown>, c: Ctx): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, sub] of Object.entries(props)) model[k] = valid(sub, c);
  for (const k of required) if (!(k in model)) model[k] = anyJson(c);
  const base = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  const ap = s.additionalProperties;
  if (ap === false) return base as fc.Arbitrary<Record<string, unknown>>;
  const extraValue = ap === undefined || ap === true ? (c.openExtras ? ANY_SCALAR : undefined) : valid(ap as Schema, c);
  if (!extraValue) return base as fc.Arbitrary<Record<string, unknown>>;
  return fc
    .tuple(base, fc.dictionary(extraKeyArb(s), extraValue, { maxKeys: ap === undefined || ap === true ? 1 : 3 }))
    .map(([b, extra]) => ({ ...extra, ...(b as Record<string, unknown>) }));
}

function baseArb(s: Record<string, unknown>, c: Ctx): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (typeof s.$ref === 'string') return valid(c.resolve(s.$ref), c);
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((b) => valid(mergeSiblings(s, b), c)));
  if (Array.isArray(s.allOf) && s.allOf.length) return valid((s.allOf as Schema[])[0]!, c);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    return fc.oneof(...types.map((t) => typedArb(t, s, c)));
  }
  if (s.properties || s.required || s.additionalProperties !== undefined) return objectArb(s, c);
  if (s.items) return typedArb('array', s, c);
  if (s.pattern || s.minLength !== undefined || s.maxLength !== undefined) return stringArb(s, c);
  return anyJson(c);
}

/** A oneOf/anyOf branch with the keywords beside the oneOf (type, properties...) folded in. */
function mergeSiblings(parent: Record<string, unknown>, branch: Schema): Schema {
  if (typeof branch !== 'object') return branch;
  const { oneOf: _o, anyOf: _a, not: _n, ...rest } = parent;
  void _o;
  void _a;
  void _n;
  const keys = Object.keys(rest).filter(
    (k) => !k.startsWith('x-') && !['description', 'examples', 'title', 'discriminator', 'default'].includes(k),
  );
  return keys.length ? { allOf: [branch], ...Object.fromEntries(keys.map((k) => [k, rest[k]])) } : branch;
}

export function valid(schema: Schema, c: Ctx): fc.Arbitrary<unknown> {
  if (schema === true) return anyJson(c);
  if (schema === false) throw ccsError('PROPERTY_SCHEMA_UNSUPPORTED', { problem: 'schema false has no valid value' });
  const s = schema;
  if (Array.isArray(s.allOf) && Object.keys(s).some((k) => k !== 'allOf' && !k.startsWith('x-'))) {
    const { allOf, ...rest } = s;
    // Generate from the sibling keywords, keep what every allOf member accepts too.
    return baseArb(rest, c).filter(isValid({ allOf: allOf as Schema[] } as Schema, c.resolve));
  }
  return baseArb(s, c).filter(isValid(schema, c.resolve));
}

export function validArbitrary(schema: Schema, o: CompileOptions = {}): fc.Arbitrary<unknown> {
  return valid(schema, ctxOf(o));
}
