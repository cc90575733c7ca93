/**
 * A small validator for the JSON Schema subset the spec uses, listing every violated rule with
 * its path. The compiler uses it to keep only invalid values that break EXACTLY ONE rule
 * (PITFALLS: otherwise a 400 proves nothing about which rule the target enforces); ajv stays the
 * oracle in suites/self/framework/.
 */
export type Schema = boolean | { [k: string]: unknown };
export type RuleName =
  | 'type'
  | 'enum'
  | 'const'
  | 'pattern'
  | 'format'
  | 'minLength'
  | 'maxLength'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'minItems'
  | 'maxItems'
  | 'required'
  | 'additionalProperties'
  | 'oneOf'
  | 'anyOf'
  | 'not'
  | 'false';
export interface Violation {
  rule: RuleName;
  path: string;
  detail: string;
}
export type RefResolver = (ref: string) => Schema;

export function jsonType(v: unknown): 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'boolean' || t === 'number' || t === 'string') return t;
  return 'object';
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = jsonType(a);
  if (ta !== jsonType(b)) return false;
  if (ta === 'array') {
    const x = a as unknown[];
    const y = b as unknown[];
    return x.length === y.length && x.every((v, i) => deepEqual(v, y[i]));
  }
  if (ta === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    return (
      kx.length === ky.length && kx.every((k) => Object.prototype.hasOwnProperty.call(y, k) && deepEqual(x[k], y[k]))
    );
  }
  return false;
}

function typeMatches(t: string, v: unknown): boolean {
  const jt = jsonType(v);
  if (t === 'integer') return jt === 'number' && Number.isInteger(v);
  if (t === 'number') return jt === 'number' && Number.isFinite(v as number);
  return t === jt;
}

/** Length in Unicode code points, as JSON Schema (and ajv) count it. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const regexCache = new Map<string, RegExp>();
export function regex(p: string): RegExp {
  let r = regexCache.get(p);
  if (!r) {
    r = new RegExp(p, 'u');
    regexCache.set(p, r);
  }
  return r;
}

const FORMATS: Record<string, (s: string) => boolean> = {
  uri: (s) => {
    try {
      return /^[a-z][a-z0-9+.-]*:/i.test(s) && !!new URL(s);
    } catch {
      return false;
    }
  },
  'date-time': (s) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)),
};

const join = (path: string, key: string | number) =>
  path === '' ? String(key) : typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`;
export const showPath = (path: string) => (path === '' ? '(root)' : path);

export function violations(schema: Schema, value: unknown, resolve: RefResolver, path = ''): Violation[] {
  if (schema === true) return [];
  if (schema === false) return [{ rule: 'false', path, detail: 'no value is allowed here' }];
  const s = schema;
  const out: Violation[] = [];
  if (typeof s.$ref === 'string') out.push(...violations(resolve(s.$ref), value, resolve, path));
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeMatches(t, value))) {
      out.push({ rule: 'type', path, detail: `must be ${types.join(' or ')}, is ${jsonType(value)}` });
      return out; // ajv stops at a type failure too (keywords for other types would not apply)
    }
  }
  if ('const' in s && !deepEqual(value, s.const))
    out.push({ rule: 'const', path, detail: `must equal ${JSON.stringify(s.const)}` });
  if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, value)))
    out.push({ rule: 'enum', path, detail: `must be one of ${JSON.stringify(s.enum)}` });
  const jt = jsonType(value);
  if (jt === 'string') {
    const str = value as string;
    const len = codePoints(str);
    if (typeof s.minLength === 'number' && len < s.minLength)
      out.push({ rule: 'minLength', path, detail: `shorter than ${s.minLength}` });
    if (typeof s.maxLength === 'number' && len > s.maxLength)
      out.push({ rule: 'maxLength', path, detail: `longer than ${s.maxLength}` });
    if (typeof s.pattern === 'string' && !regex(s.pattern).test(str))
      out.push({ rule: 'pattern', path, detail: `must match ${s.pattern}` });
    if (typeof s.format === 'string' && FORMATS[s.format] && !FORMATS[s.format]!(str))
      out.push({ rule: 'format', path, detail: `must be a ${s.format}` });
  }
  if (jt === 'number') {
    const n = value as number;
    if (typeof s.minimum === 'number' && n < s.minimum)
      out.push({ rule: 'minimum', path, detail: `below ${s.minimum}` });
    if (typeof s.maximum === 'number' && n > s.maximum)
      out.push({ rule: 'maximum', path, detail: `above ${s.maximum}` });
    if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum)
      out.push({ rule: 'exclusiveMinimum', path, detail: `not above ${s.exclusiveMinimum}` });
    if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum)
      out.push({ rule: 'exclusiveMaximum', path, detail: `not below ${s.exclusiveMaximum}` });
  }
  if (jt === 'array') {
    const a = value as unknown[];
    if (typeof s.minItems === 'number' && a.length < s.minItems)
      out.push({ rule: 'minItems', path, detail: `fewer than ${s.minItems} items` });
    if (typeof s.maxItems === 'number' && a.length > s.maxItems)
      out.push({ rule: 'maxItems', path, detail: `more than ${s.maxItems} items` });
    if (s.items !== undefined && !Array.isArray(s.items))
      a.forEach((v, i) => out.push(...violations(s.items as Schema, v, resolve, join(path, i))));
  }
  if (jt === 'object') {
    const o = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    if (Array.isArray(s.required))
      for (const k of s.required as string[])
        if (!Object.prototype.hasOwnProperty.call(o, k))
          out.push({ rule: 'required', path: join(path, k), detail: `${k} is required` });
    for (const [k, v] of Object.entries(o)) {
      if (Object.prototype.hasOwnProperty.call(props, k)) out.push(...violations(props[k]!, v, resolve, join(path, k)));
      else if (s.additionalProperties === false)
        out.push({ rule: 'additionalProperties', path: join(path, k), detail: `${k} is not allowed` });
      else if (s.additionalProperties !== undefined && s.additionalProperties !== true)
        out.push(...violations(s.additionalProperties as Schema, v, resolve, join(path, k)));
    }
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) out.push(...violations(sub, value, resolve, path));
  if (
    Array.isArray(s.anyOf) &&
    !(s.anyOf as Schema[]).some((sub) => violations(sub, value, resolve, path).length === 0)
  )
    out.push({ rule: 'anyOf', path, detail: 'matches none of anyOf' });
  if (Array.isArray(s.oneOf)) {
    const n = (s.oneOf as Schema[]).filter((sub) => violations(sub, value, resolve, path).length === 0).length;
    if (n !== 1) out.push({ rule: 'oneOf', path, detail: `matches ${n} branches of oneOf, must match exactly one` });
  }
  if (s.not !== undefined && violations(s.not as Schema, value, resolve, path).length === 0)
    out.push({ rule: 'not', path, detail: 'matches the schema under not' });
  return out;
}
