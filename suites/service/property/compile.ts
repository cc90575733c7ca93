/**
 * JSON Schema (the subset spec/openapi.yaml uses) to fast-check arbitraries:
 *   validArbitrary(schema)   values the schema accepts;
 *   invalidArbitrary(schema) values that break EXACTLY ONE rule, labelled with the rule and the
 *                            path (type, pattern, length, required, extra field, enum, ...).
 * Supported: type (also arrays of types), properties, required, additionalProperties, items,
 * enum, const, pattern (fc.stringMatching), format (uri, date-time), minLength/maxLength,
 * minimum/maximum (also exclusive), minItems/maxItems, oneOf/anyOf/allOf, not, $ref.
 * Construction gives candidates; the subset validator (validate.ts) keeps the right ones, and a
 * candidate kind that rarely satisfies its constraint is dropped at compile time (sampled).
 */
import { ccsError } from '../../../spec/index.ts';
import type { RefResolver, Schema } from './validate.ts';

export { BMP_CHAR, validArbitrary, type CompileOptions } from './arbitrary-valid.ts';
export { invalidArbitrary, type InvalidValue } from './arbitrary-invalid.ts';

/** Inlines every $ref (for schemas handed to ajv without the spec's components, or to edit). */
export function inlineRefs(schema: Schema, resolve: RefResolver, seen: string[] = []): Schema {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s as Schema, resolve, seen)) as unknown as Schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string') {
      if (seen.includes(v)) throw ccsError('PROPERTY_SCHEMA_UNSUPPORTED', { problem: `recursive $ref ${v}` });
      Object.assign(out, inlineRefs(resolve(v), resolve, [...seen, v]));
    } else out[k] = typeof v === 'object' && v !== null ? inlineRefs(v as Schema, resolve, seen) : v;
  }
  return out;
}
