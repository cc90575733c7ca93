/**
 * The JSON-Schema-to-fast-check compiler against ajv as the oracle: every
 * generated valid value validates, every generated invalid value does not, and each invalid
 * value breaks exactly the one rule it is labelled with.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { loadSpec } from '../../../spec/index.ts';
import { validArbitrary, invalidArbitrary, inlineRefs } from '../../service/property/compile.ts';
import { violations, type Schema } from '../../service/property/validate.ts';

const RUNS = Number(process.env.CCS_COMPILER_RUNS ?? 300);
const seed = process.env.CCS_SEED ? Number(process.env.CCS_SEED) : undefined;
const ajv = new Ajv({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its default export is the function itself or under .default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv,
) => void;
addFormats(ajv);

const SYNTHETIC: Record<string, Schema> = {
  'string with length and not': { type: 'string', minLength: 1, maxLength: 255, not: { pattern: '^org-' } },
  'pattern and length': { type: 'string', pattern: '^/[a-z]+$', maxLength: 20 },
  'integer bounds': { type: 'integer', minimum: 1, maximum: 500 },
  'exclusive number bounds': { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
  'enum and const': {
    type: 'object',
    required: ['a', 'b'],
    additionalProperties: false,
    properties: { a: { enum: ['PENDING', 'DELIVERED'] }, b: { const: 'onStart' } },
  },
  'array bounds and items': { type: 'array', minItems: 1, maxItems: 5, items: { type: 'string', minLength: 2 } },
  'nullable union': { type: ['string', 'null'], maxLength: 3 },
  'closed object with nested open map': {
    type: 'object',
    additionalProperties: false,
    required: ['endUserHandle'],
    properties: {
      endUserHandle: { type: 'string', minLength: 1, maxLength: 255, not: { pattern: '^org-' } },
      data: {
        type: 'object',
        additionalProperties: {
          oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
        },
      },
    },
  },
  'anyOf branches': {
    anyOf: [
      { type: 'string', pattern: '^a' },
      { type: 'integer', minimum: 10 },
    ],
  },
  'format uri': { type: 'string', format: 'uri' },
};

async function specSchemas(): Promise<Record<string, Schema>> {
  const spec = await loadSpec();
  const names = [
    'EmbedTokenRequest',
    'OnStartPayload',
    'OnCompletePayload',
    'ConfigSavedPayload',
    'ConfigBulkDeletedPayload',
    'OpeningContext',
    'EndUserHandle',
    'CallbackTimestamp',
    'SignatureHeader',
    'Jwks',
  ];
  const out: Record<string, Schema> = {};
  for (const n of names) {
    try {
      out[`spec ${n}`] = inlineRefs(spec.schema(n) as Schema, (ref) => spec.resolveRef(ref) as Schema);
    } catch {
      // a schema the spec does not have (yet) is skipped, not failed
    }
  }
  return out;
}

function cases(): Array<[string, Schema]> {
  return Object.entries(SYNTHETIC);
}

for (const [name, schema] of cases()) {
  test(`generated valid values of "${name}" all validate with ajv`, () => {
    const check = ajv.compile(schema as object);
    fc.assert(
      fc.property(validArbitrary(schema), (v) => {
        expect(check(v), JSON.stringify(check.errors)).toBe(true);
      }),
      { numRuns: RUNS, ...(seed !== undefined ? { seed } : {}) },
    );
  });
  test(`generated invalid values of "${name}" all fail ajv and break exactly one rule`, () => {
    const check = ajv.compile(schema as object);
    fc.assert(
      fc.property(invalidArbitrary(schema), (iv) => {
        expect(check(iv.value), `labelled ${iv.rule} at ${iv.path}: ${JSON.stringify(iv.value).slice(0, 200)}`).toBe(
          false,
        );
        expect(violations(schema, iv.value, () => true)).toHaveLength(1);
      }),
      { numRuns: RUNS, ...(seed !== undefined ? { seed } : {}) },
    );
  });
}

test('the compiler agrees with ajv on the schemas of spec/openapi.yaml, valid and invalid', async () => {
  test.setTimeout(180_000);
  const schemas = await specSchemas();
  expect(Object.keys(schemas).length, 'spec/openapi.yaml schemas were found').toBeGreaterThan(3);
  const rules = new Set<string>();
  for (const [name, schema] of Object.entries(schemas)) {
    const check = ajv.compile(schema as object);
    fc.assert(
      fc.property(validArbitrary(schema), (v) => {
        expect(check(v), `${name}: ${JSON.stringify(check.errors)} for ${JSON.stringify(v).slice(0, 300)}`).toBe(true);
      }),
      { numRuns: Math.ceil(RUNS / 3), ...(seed !== undefined ? { seed } : {}) },
    );
    fc.assert(
      fc.property(invalidArbitrary(schema), (iv) => {
        rules.add(iv.rule);
        expect(
          check(iv.value),
          `${name}: labelled ${iv.rule} at ${iv.path} but ajv accepts ${JSON.stringify(iv.value).slice(0, 300)}`,
        ).toBe(false);
      }),
      { numRuns: Math.ceil(RUNS / 3), ...(seed !== undefined ? { seed } : {}) },
    );
  }
  // The invalid values cover every kind of rule the spec's schemas use: type, required, closed objects, length and
  // pattern.
  for (const r of ['type', 'required', 'additionalProperties', 'maxLength', 'pattern'])
    expect([...rules], `rule ${r} generated`).toContain(r);
});

test('an invalid value is labelled with the rule it breaks and its path', () => {
  const schema: Schema = SYNTHETIC['closed object with nested open map']!;
  const seen = new Map<string, number>();
  for (const iv of fc.sample(invalidArbitrary(schema), { numRuns: 400, seed: 7 })) {
    const key = `${iv.rule}@${iv.path}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const keys = [...seen.keys()];
  expect(keys).toContain('required@endUserHandle');
  expect(keys).toContain('maxLength@endUserHandle');
  expect(keys).toContain('not@endUserHandle');
  expect(keys.some((k) => k.startsWith('additionalProperties@'))).toBe(true);
  expect(keys.some((k) => k.startsWith('oneOf@data.'))).toBe(true);
});
