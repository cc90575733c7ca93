/**
 * A small JSON Schema to TypeScript emitter for the subset spec/ uses: $ref, const, enum, oneOf,
 * anyOf, type (one or a list), arrays, objects with properties and additionalProperties.
 * Validation-only keywords (pattern, minLength, maximum, not, ...) have no TypeScript form and are
 * left to ajv, which stays the judge of a value; these types only keep producers and consumers
 * of a shape in agreement with the schema that defines it.
 *
 * Objects: additionalProperties false gives a closed object; a schema for additionalProperties
 * gives an index signature (unknown beside declared properties, as TypeScript requires); absent
 * additionalProperties gives the declared properties only, or Record<string, unknown> when the
 * object declares none.
 */
export type Schema = { [key: string]: unknown };

export interface EmitContext {
  /** '#/components/schemas/X', '#/definitions/X', ... -> the TypeScript name of that type. */
  refName(ref: string): string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function literal(v: unknown): string {
  return typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

/** Wraps a type in parentheses before [] is appended when it has a top-level | or &. */
function element(t: string): string {
  let depth = 0;
  for (const c of t) {
    if (c === '{' || c === '(' || c === '[' || c === '<') depth += 1;
    else if (c === '}' || c === ')' || c === ']' || c === '>') depth -= 1;
    else if (depth === 0 && (c === '|' || c === '&')) return `(${t})`;
  }
  return t;
}

/** A JSDoc block from description and x-clauses, or nothing. */
export function doc(s: Schema, indent: string): string {
  const lines: string[] = [];
  if (typeof s.description === 'string') lines.push(...s.description.trim().split('\n'));
  if (Array.isArray(s['x-clauses'])) lines.push(`Clauses: ${(s['x-clauses'] as string[]).join(', ')}.`);
  if (lines.length === 0) return '';
  const safe = lines.map((l) => l.replace(/\*\//g, '*\\/'));
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function isObjectLike(s: Schema): boolean {
  return (
    s.type === 'object' || isSchema(s.properties) || (s.type === undefined && s.additionalProperties !== undefined)
  );
}

/** The members of an object schema, one per line, indented by `indent`. */
function members(s: Schema, ctx: EmitContext, indent: string): string {
  const props = isSchema(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  let out = '';
  for (const [name, raw] of Object.entries(props)) {
    const p = isSchema(raw) ? raw : {};
    const key = IDENT.test(name) ? name : literal(name);
    out += doc(p, indent) + `${indent}${key}${required.has(name) ? '' : '?'}: ${typeOf(p, ctx, indent)};\n`;
  }
  const extra = s.additionalProperties;
  const declared = Object.keys(props).length > 0;
  if (extra === false) return out;
  if (extra === undefined || extra === true) return declared ? out : `${out}${indent}[key: string]: unknown;\n`;
  const value = isSchema(extra) ? typeOf(extra, ctx, indent) : 'unknown';
  return `${out}${indent}[key: string]: ${declared ? 'unknown' : value};\n`;
}

function objectType(s: Schema, ctx: EmitContext, indent: string): string {
  const body = members(s, ctx, `${indent}  `);
  return body === '' ? 'Record<string, never>' : `{\n${body}${indent}}`;
}

/** The TypeScript type of a schema, as an expression. */
export function typeOf(s: Schema | boolean | undefined, ctx: EmitContext, indent = ''): string {
  if (s === undefined || s === true) return 'unknown';
  if (s === false) return 'never';
  if (typeof s.$ref === 'string') return ctx.refName(s.$ref);
  if (s.const !== undefined) return literal(s.const);
  if (Array.isArray(s.enum)) return union(s.enum.map(literal));
  const alternatives = (s.oneOf ?? s.anyOf) as unknown;
  if (Array.isArray(alternatives)) {
    return union(
      alternatives.map((a) =>
        typeOf(isSchema(a) ? { ...a, ...(s.type && !a.type && !a.$ref ? { type: s.type } : {}) } : a, ctx, indent),
      ),
    );
  }
  if (Array.isArray(s.type)) return union((s.type as string[]).map((t) => typeOf({ ...s, type: t }, ctx, indent)));
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${element(typeOf(isSchema(s.items) ? s.items : undefined, ctx, indent))}[]`;
    default:
      if (isObjectLike(s)) return objectType(s, ctx, indent);
      return 'unknown';
  }
}

/** One exported declaration: an interface for an object with properties, else a type alias. */
export function declaration(name: string, s: Schema, ctx: EmitContext): string {
  const head = doc(s, '');
  const plainObject =
    typeof s.$ref !== 'string' &&
    s.oneOf === undefined &&
    s.anyOf === undefined &&
    s.const === undefined &&
    s.enum === undefined &&
    isObjectLike(s) &&
    isSchema(s.properties);
  if (plainObject) return `${head}export interface ${name} {\n${members(s, ctx, '  ')}}\n`;
  return `${head}export type ${name} = ${typeOf(s, ctx)};\n`;
}

/** 'config.bulk_deleted' / 'create-workspace' / 'getCapabilities' -> 'ConfigBulkDeleted' / ... */
export function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
