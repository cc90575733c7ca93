/**
 * The ajv instance of the spec room: JSON Schema 2020-12, strict, allErrors, ajv-formats.
 *
 * OpenAPI documents carry keywords that are not JSON Schema: `example` and `discriminator`
 * (OpenAPI base vocabulary) and our `x-*` extensions. Strict mode rejects unknown keywords, so
 * they are REGISTERED as annotation-only keywords (no validation): `example`, `discriminator`,
 * and every `x-*` name found in the loaded documents. We do not use ajv's own `discriminator`
 * option: it rejects `mapping`, which the OpenAPI document needs for event names that are not
 * schema names. The oneOf under a discriminator still selects by the `event` const.
 *
 * Schema refs: documents use '#/components/schemas/X'. Each component schema is added under
 * its own id '<prefix>X' and every such ref is rewritten to that id, so a schema compiles alone
 * without compiling the whole OpenAPI document (whose top-level members are not keywords).
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ccsError } from './errors.ts';
import { onFirstUse } from './on-first-use.ts';
import type { ValidationResult } from './types.ts';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// Loaded on first use: a process that never validates against the contract (most host workers)
// does not pay for loading ajv's 2020 dialect and ajv-formats.
const ajvModule = onFirstUse<{ Ajv2020: typeof Ajv2020 }>('ajv/dist/2020.js');
const formatsModule = onFirstUse<FormatsPlugin & { default?: FormatsPlugin }>('ajv-formats');
function addFormats(ajv: Ajv2020): Ajv2020 {
  // ajv-formats is CommonJS with a default export (and the plugin itself as module.exports).
  const m = formatsModule();
  return (m.default ?? m)(ajv);
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

export function createAjv(extensionKeywords: Iterable<string>): Ajv2020 {
  const { Ajv2020: Ajv } = ajvModule();
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const keyword of ['example', 'discriminator', ...extensionKeywords]) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  }
  return ajv;
}

/** Every `x-*` member name anywhere in the value. */
export function extensionNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) extensionNames(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) into.add(key);
      extensionNames(child, into);
    }
  }
  return into;
}

/** A deep copy with '#/components/schemas/X' refs rewritten to '<prefix>X'. */
export function rewriteRefs(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, prefix));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') {
      const m = SCHEMA_REF.exec(child);
      out[key] = m ? `${prefix}${decodePointerToken(m[1] ?? '')}` : child;
    } else {
      out[key] = rewriteRefs(child, prefix);
    }
  }
  return out;
}

export function decodePointerToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

export function encodePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Adds every component schema of a document under '<prefix>Name'; each is compiled (strict) on
 * its first use, so a process that validates a few shapes does not compile them all (the
 * self-checks compile every one). Returns the compiled validator of a name, undefined for a name
 * the document lacks.
 */
export function addComponentSchemas(
  ajv: Ajv2020,
  schemas: Record<string, unknown>,
  prefix: string,
  docLabel: string,
): (name: string) => ValidateFunction | undefined {
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema(rewriteRefs(schema, prefix) as object, `${prefix}${name}`);
  }
  const compiled = new Map<string, ValidateFunction>();
  return (name) => {
    if (!Object.hasOwn(schemas, name)) return undefined;
    let fn = compiled.get(name);
    if (!fn)
      compiled.set(
        name,
        (fn = compileOrThrow(
          () => ajv.getSchema(`${prefix}${name}`),
          `${docLabel}#/components/schemas/${encodePointerToken(name)}`,
        )),
      );
    return fn;
  };
}

/** Compiles an inline schema (refs rewritten) of a document; `where` names it in errors. */
const inlineCache = new WeakMap<Ajv2020, Map<string, ValidateFunction>>();

/**
 * Compiles an inline schema (refs rewritten) of a document; `where` names it in errors.
 * Identical inline schemas (the many `$ref: ErrorBody`) share one compiled validator.
 */
export function compileInline(ajv: Ajv2020, schema: unknown, prefix: string, where: string): ValidateFunction {
  const rewritten = rewriteRefs(schema, prefix) as object;
  const key = JSON.stringify(rewritten);
  let cache = inlineCache.get(ajv);
  if (!cache) inlineCache.set(ajv, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) return hit;
  const fn = compileOrThrow(() => ajv.compile(rewritten), where);
  cache.set(key, fn);
  return fn;
}

function compileOrThrow(compile: () => ValidateFunction | undefined, where: string): ValidateFunction {
  let fn: ValidateFunction | undefined;
  try {
    fn = compile();
  } catch (err) {
    throw ccsError('SPEC_SCHEMA_INVALID', {
      where,
      problem: `schema at ${where} does not compile (ajv strict, 2020-12): ${(err as Error).message}`,
    });
  }
  if (!fn)
    throw ccsError('SPEC_SCHEMA_INVALID', { where, problem: `schema at ${where} could not be found or compiled` });
  return fn;
}

/** Runs a compiled validator and formats its errors as "<instancePath> <message>". */
export function run(fn: ValidateFunction, value: unknown): ValidationResult {
  const valid = fn(value) === true;
  return { valid, errors: valid ? [] : formatErrors(fn.errors ?? []) };
}

export function formatErrors(errors: ErrorObject[]): string[] {
  return errors.map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${detail(e)}`);
}

function detail(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `: ${String(p.additionalProperty)}`;
  if (e.keyword === 'const') return `: ${JSON.stringify(p.allowedValue)}`;
  if (e.keyword === 'enum') return `: ${JSON.stringify(p.allowedValues)}`;
  return '';
}
