/**
 * Values that break EXACTLY ONE rule of a JSON Schema (compile.ts invalidArbitrary), labelled with the rule and
 * the path (type, pattern, length, required, extra field, enum, ...). A candidate kind that rarely breaks only its
 * own rule is dropped at compile time (sampled).
 */
import fc from 'fast-check';
import { ccsError } from '../../../spec/index.ts';
import { jsonType, regex, showPath, violations, type RuleName, type Schema, type Violation } from './validate.ts';
import {
  ANY_SCALAR,
  anyJson,
  ctxOf,
  extraKeyArb,
  feasible,
  objectArb,
  valid,
  type CompileOptions,
  type Ctx,
} from './arbitrary-valid.ts';

export interface InvalidValue {
  value: unknown;
  rule: RuleName;
  path: string;
  detail: string;
}

const OTHER_TYPE_VALUES: unknown[] = [null, true, 0, 1.5, 'x', [], {}];

function candidates(schema: Schema, c: Ctx): fc.Arbitrary<unknown>[] {
  if (typeof schema !== 'object') return schema === true ? [] : [anyJson(c)];
  const s = schema;
  const out: fc.Arbitrary<unknown>[] = [];
  const d = { ...c, depth: c.depth + 1 };
  if (typeof s.$ref === 'string') out.push(...candidates(c.resolve(s.$ref), c));
  // type: a value of another JSON type
  if (s.type !== undefined || s.properties || s.items || s.pattern) out.push(fc.constantFrom(...OTHER_TYPE_VALUES));
  if ('const' in s || Array.isArray(s.enum)) {
    const t = jsonType('const' in s ? s.const : (s.enum as unknown[])[0]);
    out.push(
      t === 'string'
        ? fc.string({ maxLength: 12 })
        : t === 'number'
          ? fc.integer()
          : fc.constantFrom(...OTHER_TYPE_VALUES),
    );
  }
  const hasString =
    s.type === 'string' ||
    (Array.isArray(s.type) && s.type.includes('string')) ||
    (s.type === undefined && (s.pattern || s.minLength !== undefined || s.maxLength !== undefined));
  if (hasString) {
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    if (typeof s.pattern === 'string')
      out.push(fc.string({ unit: c.unit, minLength: Math.max(min, 1), maxLength: min + 12 }));
    if (min > 0) {
      const short = fc.string({ unit: c.unit, maxLength: min - 1 });
      out.push(short);
      if (typeof s.pattern === 'string')
        out.push(fc.stringMatching(regex(s.pattern)).map((x) => [...x].slice(0, min - 1).join('')));
    }
    if (typeof s.maxLength === 'number') {
      const max = s.maxLength;
      // Exactly one past the limit, and a little further (EMBED-2: 256 is the first rejected).
      const over = fc.integer({ min: max + 1, max: max + 8 });
      out.push(
        fc
          .tuple(fc.constantFrom(max + 1), fc.string({ unit: c.unit, minLength: 1, maxLength: 1 }))
          .map(([n, ch]) => ch.repeat(n)),
      );
      out.push(
        fc
          .tuple(over, fc.string({ unit: c.unit, minLength: max + 8, maxLength: max + 8 }))
          .map(([n, x]) => [...x].slice(0, n).join('')),
      );
      if (typeof s.pattern === 'string')
        out.push(
          fc
            .tuple(fc.stringMatching(regex(s.pattern)), over)
            .map(([m, n]) => (m + 'a'.repeat(n)).slice(0, Math.max(n, m.length))),
        );
    }
    if (typeof s.format === 'string') out.push(fc.string({ maxLength: 12 }));
  }
  const isNum = s.type === 'integer' || s.type === 'number';
  if (isNum) {
    if (typeof s.minimum === 'number')
      out.push(fc.integer({ min: Math.floor(s.minimum) - 100, max: Math.ceil(s.minimum) - 1 }));
    if (typeof s.maximum === 'number')
      out.push(fc.integer({ min: Math.floor(s.maximum) + 1, max: Math.floor(s.maximum) + 100 }));
    if (typeof s.exclusiveMinimum === 'number') out.push(fc.constantFrom(s.exclusiveMinimum, s.exclusiveMinimum - 1));
    if (typeof s.exclusiveMaximum === 'number') out.push(fc.constantFrom(s.exclusiveMaximum, s.exclusiveMaximum + 1));
    if (s.type === 'integer')
      out.push(fc.double({ min: -1000, max: 1000, noNaN: true }).filter((x) => !Number.isInteger(x)));
  }
  const isArr = s.type === 'array' || (s.type === undefined && s.items !== undefined);
  if (isArr) {
    const item = s.items !== undefined ? valid(s.items as Schema, d) : anyJson(d);
    if (typeof s.minItems === 'number' && s.minItems > 0) out.push(fc.array(item, { maxLength: s.minItems - 1 }));
    if (typeof s.maxItems === 'number')
      out.push(fc.array(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 2 }));
    if (s.items !== undefined) {
      const bad = invalidInner(s.items as Schema, d);
      if (bad)
        out.push(
          fc
            .tuple(
              valid(
                { ...s, minItems: 0, maxItems: Math.max(0, (typeof s.maxItems === 'number' ? s.maxItems : 3) - 1) },
                d,
              ) as fc.Arbitrary<unknown[]>,
              bad,
              fc.nat(),
            )
            .map(([arr, b, i]) => {
              const a = [...arr];
              a.splice(i % (a.length + 1), 0, b);
              return a;
            }),
        );
    }
  }
  const isObj =
    s.type === 'object' ||
    (s.type === undefined && (s.properties || s.required || s.additionalProperties !== undefined));
  if (isObj) {
    const props = (s.properties ?? {}) as Record<string, Schema>;
    const req = Array.isArray(s.required) ? (s.required as string[]) : [];
    const whole = objectArb(s, d);
    if (req.length)
      out.push(
        fc.tuple(whole, fc.constantFrom(...req)).map(([o, k]) => {
          const x = { ...o };
          delete x[k];
          return x;
        }),
      );
    if (s.additionalProperties === false)
      out.push(fc.tuple(whole, extraKeyArb(s), ANY_SCALAR).map(([o, k, v]) => ({ ...o, [k]: v })));
    else if (s.additionalProperties && s.additionalProperties !== true) {
      const bad = invalidInner(s.additionalProperties as Schema, d);
      if (bad) out.push(fc.tuple(whole, extraKeyArb(s), bad).map(([o, k, v]) => ({ ...o, [k]: v })));
    }
    for (const [k, sub] of Object.entries(props)) {
      const bad = invalidInner(sub, d);
      if (bad) out.push(fc.tuple(whole, bad).map(([o, v]) => ({ ...o, [k]: v })));
    }
  }
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (Array.isArray(branches)) for (const b of branches) out.push(...candidates(b, d));
  if (s.not !== undefined) {
    // A value the `not` schema accepts that satisfies everything else.
    // (Generating from the other keywords and filtering on `not` would rarely succeed: a filter
    // that never passes loops forever, so candidates are built, never searched for.)
    out.push(valid(s.not as Schema, d));
  }
  return out;
}

function invalidInner(schema: Schema, c: Ctx): fc.Arbitrary<unknown> | undefined {
  if (c.depth > 6) return undefined;
  const exactlyOne = (v: unknown) => violations(schema, v, c.resolve).length === 1;
  const kept = candidates(schema, c)
    .map((a) => feasible(a, exactlyOne))
    .filter((a): a is fc.Arbitrary<unknown> => !!a);
  return kept.length ? fc.oneof(...kept) : undefined;
}

/** Values that break exactly one rule of the schema, each labelled with that rule and its path. */
export function invalidArbitrary(schema: Schema, o: CompileOptions = {}): fc.Arbitrary<InvalidValue> {
  const c = ctxOf(o);
  const arb = invalidInner(schema, c);
  if (!arb)
    throw ccsError('PROPERTY_SCHEMA_UNSUPPORTED', {
      problem: 'the schema has no value that breaks exactly one rule (nothing to test)',
    });
  return arb.map((value) => {
    const [v] = violations(schema, value, c.resolve) as [Violation];
    return { value, rule: v.rule, path: showPath(v.path), detail: v.detail };
  });
}
