/**
 * Walks an OpenAPI document for what the self-checks and tools need: every schema node (with
 * its JSON pointer), every `x-clauses` reference, every `x-unspecified` node. Also compiles
 * every schema of a document in a fresh strict ajv (compileDocumentSchemas).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { addComponentSchemas, compileInline, createAjv, encodePointerToken, extensionNames } from './ajv.ts';
import { readOpenApi } from './documents.ts';
import { ccsError } from './errors.ts';

export interface Located<T> {
  pointer: string;
  value: T;
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMA_ONE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const SUBSCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const join = (base: string, ...tokens: string[]): string => `${base}/${tokens.map(encodePointerToken).join('/')}`;

function walkSchema(schema: unknown, pointer: string, out: Located<Record<string, unknown>>[]): void {
  if (!isObject(schema)) return;
  out.push({ pointer, value: schema });
  for (const k of SUBSCHEMA_MAPS) {
    const m = schema[k];
    if (isObject(m)) for (const [name, sub] of Object.entries(m)) walkSchema(sub, join(pointer, k, name), out);
  }
  for (const k of SUBSCHEMA_ONE) if (k in schema) walkSchema(schema[k], join(pointer, k), out);
  for (const k of SUBSCHEMA_LISTS) {
    const l = schema[k];
    if (Array.isArray(l)) l.forEach((sub, i) => walkSchema(sub, join(pointer, k, String(i)), out));
  }
}

function walkContent(content: unknown, pointer: string, out: Located<Record<string, unknown>>[]): void {
  if (!isObject(content)) return;
  for (const [mt, media] of Object.entries(content))
    if (isObject(media)) walkSchema(media.schema, join(pointer, mt, 'schema'), out);
}

function walkOperationLike(node: unknown, pointer: string, out: Located<Record<string, unknown>>[]): void {
  if (!isObject(node)) return;
  const params = node.parameters;
  if (Array.isArray(params))
    params.forEach((p, i) => {
      if (isObject(p)) walkSchema(p.schema, join(pointer, 'parameters', String(i), 'schema'), out);
    });
  if (isObject(node.requestBody)) walkContent(node.requestBody.content, join(pointer, 'requestBody', 'content'), out);
  if (isObject(node.responses)) {
    for (const [key, res] of Object.entries(node.responses)) {
      if (!isObject(res)) continue;
      walkContent(res.content, join(pointer, 'responses', key, 'content'), out);
      if (isObject(res.headers))
        for (const [h, hdr] of Object.entries(res.headers))
          if (isObject(hdr)) walkSchema(hdr.schema, join(pointer, 'responses', key, 'headers', h, 'schema'), out);
    }
  }
}

function walkPathItems(items: unknown, base: string, out: Located<Record<string, unknown>>[]): void {
  if (!isObject(items)) return;
  for (const [name, item] of Object.entries(items)) {
    if (!isObject(item)) continue;
    const p = join(base, name);
    walkOperationLike({ parameters: item.parameters }, p, out);
    for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
      walkOperationLike(item[m], join(p, m), out);
  }
}

/** Every schema node of the document (components, paths, webhooks, nested subschemas), with its pointer. */
export function schemaNodes(doc: OpenAPIV3_1.Document): Located<Record<string, unknown>>[] {
  const out: Located<Record<string, unknown>>[] = [];
  const c = (doc.components ?? {}) as Record<string, unknown>;
  if (isObject(c.schemas))
    for (const [n, s] of Object.entries(c.schemas)) walkSchema(s, join('#', 'components', 'schemas', n), out);
  if (isObject(c.parameters))
    for (const [n, p] of Object.entries(c.parameters))
      if (isObject(p)) walkSchema(p.schema, join('#', 'components', 'parameters', n, 'schema'), out);
  if (isObject(c.headers))
    for (const [n, h] of Object.entries(c.headers))
      if (isObject(h)) walkSchema(h.schema, join('#', 'components', 'headers', n, 'schema'), out);
  if (isObject(c.responses))
    for (const [n, r] of Object.entries(c.responses))
      if (isObject(r)) walkContent(r.content, join('#', 'components', 'responses', n, 'content'), out);
  if (isObject(c.requestBodies))
    for (const [n, r] of Object.entries(c.requestBodies))
      if (isObject(r)) walkContent(r.content, join('#', 'components', 'requestBodies', n, 'content'), out);
  walkPathItems(doc.paths, '#/paths', out);
  walkPathItems((doc as { webhooks?: unknown }).webhooks, '#/webhooks', out);
  return out;
}

/** Every node (any object of the document) carrying the given member, with its pointer. */
export function nodesWith(
  doc: unknown,
  member: string,
  pointer = '#',
  out: Located<Record<string, unknown>>[] = [],
): Located<Record<string, unknown>>[] {
  if (Array.isArray(doc)) doc.forEach((v, i) => nodesWith(v, member, join(pointer, String(i)), out));
  else if (isObject(doc)) {
    if (member in doc) out.push({ pointer, value: doc });
    for (const [k, v] of Object.entries(doc)) nodesWith(v, member, join(pointer, k), out);
  }
  return out;
}

/** Every clause id named by an `x-clauses` member, with the pointer of its node. */
export function clauseReferences(doc: unknown): Located<string>[] {
  const out: Located<string>[] = [];
  for (const { pointer, value } of nodesWith(doc, 'x-clauses')) {
    const ids = value['x-clauses'];
    if (!Array.isArray(ids)) out.push({ pointer, value: String(ids) });
    else for (const id of ids) out.push({ pointer, value: String(id) });
  }
  return out;
}

/**
 * Compiles every schema node of spec/<file> (component schemas first, then every top-level
 * schema of a parameter, body, response or header) in a fresh ajv, strict, 2020-12. Throws
 * SPEC_SCHEMA_INVALID naming the first schema that does not compile; returns the count compiled.
 */
export function compileDocumentSchemas(file: 'openapi.yaml' | 'driver.openapi.yaml'): number {
  const doc = readOpenApi(file, true) as OpenAPIV3_1.Document;
  const label = `spec/${file}`;
  const prefix = `urn:ccs:check:${file}:`;
  const ajv = createAjv(extensionNames(doc));
  const components = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const schemaOf = addComponentSchemas(ajv, components, prefix, label);
  for (const name of Object.keys(components)) schemaOf(name);
  let count = Object.keys(components).length;
  // Top-level schemas outside components.schemas (their subschemas compile with them).
  const roots = schemaNodes(doc).filter(
    ({ pointer }) => !pointer.startsWith('#/components/schemas/') && /\/schema$/.test(pointer),
  );
  for (const { pointer, value } of roots) {
    compileInline(ajv, value, prefix, `${label}${pointer}`);
    count++;
  }
  if (count === 0) throw ccsError('SPEC_SCHEMA_INVALID', { problem: `${label} holds no schema at all` });
  return count;
}

/**
 * Validates every example of spec/<file> against the schema it illustrates: `examples` (array)
 * and `example` on schema nodes, and `example` / `examples` (Example Objects' value) on media
 * types and parameters. Returns one line per failing example (empty: all valid) and the count.
 */
export function checkExamples(file: 'openapi.yaml' | 'driver.openapi.yaml'): { checked: number; failures: string[] } {
  const doc = readOpenApi(file, true) as OpenAPIV3_1.Document;
  const label = `spec/${file}`;
  const prefix = `urn:ccs:examples:${file}:`;
  const ajv = createAjv(extensionNames(doc));
  addComponentSchemas(ajv, (doc.components?.schemas ?? {}) as Record<string, unknown>, prefix, label);
  const failures: string[] = [];
  let checked = 0;
  const check = (schema: unknown, value: unknown, where: string): void => {
    checked++;
    const fn = compileInline(ajv, schema, prefix, where);
    if (!fn(value))
      failures.push(
        `${where}: ${(fn.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`).join('; ')}`,
      );
  };
  for (const { pointer, value } of schemaNodes(doc)) {
    if (Array.isArray(value.examples))
      value.examples.forEach((ex, i) => check(value, ex, `${label}${pointer}/examples/${i}`));
    if ('example' in value) check(value, value.example, `${label}${pointer}/example`);
  }
  // Media types and parameters: { schema, example?, examples?: { name: { value } } }
  for (const member of ['example', 'examples']) {
    for (const { pointer, value } of nodesWith(doc, member)) {
      if (!isObject(value.schema)) continue; // schema nodes were handled above
      if (member === 'example') check(value.schema, value.example, `${label}${pointer}/example`);
      else if (isObject(value.examples)) {
        for (const [name, ex] of Object.entries(value.examples))
          if (isObject(ex) && 'value' in ex) check(value.schema, ex.value, `${label}${pointer}/examples/${name}`);
      }
    }
  }
  return { checked, failures };
}
