/**
 * Builds a facts answer that is a JSON object but does not fit the FACTS class (FACTS-8: such an
 * answer is rejected whole). Every declared property gets a value of the wrong type, so no
 * partial application could look right; ajv confirms the misfit when a schema is given.
 */
import { Ajv } from 'ajv';

function wrongFor(schema: unknown): unknown {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return 'not-a-number';
    case 'boolean':
      return 'not-a-boolean';
    case 'array':
      return 'not-an-array';
    case 'object':
      return 'not-an-object';
    case 'null':
      return 0;
    default:
      return { unexpected: ['nested', 'value'] };
  }
}

export function buildFactsNotFitting(factsSchema: object | undefined): Record<string, unknown> {
  if (!factsSchema) {
    // 2.4.3: preferredLanguages is reserved as an array of language names; a number never fits.
    return { preferredLanguages: 42 };
  }
  const props = ((factsSchema as Record<string, unknown>).properties ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(props)) out[name] = wrongFor(sub);
  if (Object.keys(out).length === 0) out.__notAFactsField = { nested: true };
  try {
    const ajv = new Ajv({ strict: false, allErrors: false });
    if (ajv.validate(factsSchema, out)) {
      // the schema accepts anything we can make wrong by type: add what a closed class refuses
      out.__notAFactsField = { nested: true };
    }
  } catch {
    // an uncompilable schema: the wrong-typed object is still our best answer
  }
  return out;
}
