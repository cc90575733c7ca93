/**
 * One operation or webhook of the OpenAPI documents compiled once: its request body, responses and
 * header validators (loader.ts compiles them on first use and hands them out through Spec).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileInline, createAjv, encodePointerToken, run } from './ajv.ts';
import { deref, pickMediaType, resolvePointer, type IndexedOperation } from './operations.ts';
import type { ValidationResult } from './types.ts';

interface HeaderCheck {
  name: string;
  required: boolean;
  integer: boolean;
  fn: ValidateFunction | undefined;
}

export interface Compiled {
  requestBody: ValidateFunction | undefined;
  responses: Map<string, ValidateFunction | undefined>;
  headers: HeaderCheck[];
  /** media types a request's Content-Type may name (webhooks with a body). */
  contentTypes: string[] | undefined;
  /** media types the answer is JSON in (for the Accept header of a webhook GET). */
  accepts: string[] | undefined;
  /** headers that must be absent (x-forbidden-headers, e.g. HDR-5). */
  forbidden: string[];
}

export const ok: ValidationResult = Object.freeze({ valid: true, errors: [] }) as ValidationResult;
export const fail = (...errors: string[]): ValidationResult => ({ valid: false, errors });

function pointer(...tokens: string[]): string {
  return `#/${tokens.map(encodePointerToken).join('/')}`;
}

export function compileOperation(
  ajv: ReturnType<typeof createAjv>,
  doc: OpenAPIV3_1.Document,
  label: string,
  prefix: string,
  op: IndexedOperation,
  base: string[],
): Compiled {
  const where = (...t: string[]): string => `${label}${pointer(...base, ...t)}`;
  const out: Compiled = {
    requestBody: undefined,
    responses: new Map(),
    headers: [],
    contentTypes: undefined,
    accepts: undefined,
    forbidden: [],
  };
  const forbidden = (op.operation as Record<string, unknown>)['x-forbidden-headers'] as { names?: unknown } | undefined;
  if (forbidden && Array.isArray(forbidden.names)) out.forbidden = forbidden.names.map(String);
  if (op.operation.requestBody) {
    const body = deref<OpenAPIV3_1.RequestBodyObject>(doc, op.operation.requestBody, label);
    const mt = pickMediaType(body.content);
    const schema = mt ? body.content[mt]?.schema : undefined;
    if (mt && schema !== undefined)
      out.requestBody = compileInline(ajv, schema, prefix, where('requestBody', 'content', mt, 'schema'));
    const types = Object.keys(body.content ?? {});
    if (types.length > 0 && !types.includes('*/*')) out.contentTypes = types;
  }
  for (const [key, raw] of Object.entries(op.operation.responses ?? {})) {
    const res = deref<OpenAPIV3_1.ResponseObject>(doc, raw, label);
    const mt = pickMediaType(res.content);
    const schema = mt ? res.content?.[mt]?.schema : undefined;
    out.responses.set(
      key,
      schema === undefined
        ? undefined
        : compileInline(ajv, schema, prefix, where('responses', key, 'content', mt ?? '', 'schema')),
    );
    if (/^2/.test(key) && res.content?.['application/json']) out.accepts = ['application/json'];
  }
  for (const p of op.parameters) {
    if (p.in !== 'header') continue;
    const schema = p.schema as Record<string, unknown> | undefined;
    const resolved =
      schema && typeof schema.$ref === 'string'
        ? (resolvePointer(doc, schema.$ref, label) as Record<string, unknown>)
        : schema;
    out.headers.push({
      name: p.name,
      required: p.required === true,
      integer: resolved?.type === 'integer' || resolved?.type === 'number',
      fn: schema === undefined ? undefined : compileInline(ajv, schema, prefix, `${where()} header ${p.name}`),
    });
  }
  return out;
}

function mediaTypeOf(value: string): string {
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}

/** The headers of a webhook request against its operation (required, schema, forbidden, Content-Type, Accept). */
export function checkWebhookHeaders(
  hook: Compiled,
  name: string,
  headers: Record<string, string | undefined>,
): ValidationResult {
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) lower.set(k.toLowerCase(), v);
  const errors: string[] = [];
  for (const h of hook.headers) {
    const value = lower.get(h.name.toLowerCase());
    if (value === undefined) {
      if (h.required) errors.push(`header ${h.name} is required`);
      continue;
    }
    if (!h.fn) continue;
    const coerced = h.integer && /^-?[0-9]+$/.test(value.trim()) ? Number(value.trim()) : value;
    const r = run(h.fn, coerced);
    for (const e of r.errors) errors.push(`header ${h.name}${e.replace(/^\(root\)/, '')}`);
  }
  for (const header of hook.forbidden) {
    if (lower.has(header.toLowerCase())) errors.push(`header ${header} must not be sent on ${name}`);
  }
  if (hook.contentTypes) {
    const ct = lower.get('content-type');
    if (ct === undefined) errors.push(`header Content-Type is required (${hook.contentTypes.join(' or ')})`);
    else if (!hook.contentTypes.includes(mediaTypeOf(ct)))
      errors.push(`header Content-Type must be ${hook.contentTypes.join(' or ')}, got "${mediaTypeOf(ct)}"`);
  }
  if (hook.accepts) {
    const accept = lower.get('accept');
    if (accept === undefined) errors.push(`header Accept is required (${hook.accepts.join(' or ')})`);
    else if (
      !accept
        .split(',')
        .map(mediaTypeOf)
        .some((m) => hook.accepts?.includes(m))
    ) {
      errors.push(`header Accept must name ${hook.accepts.join(' or ')}, got "${accept}"`);
    }
  }
  return errors.length ? { valid: false, errors } : ok;
}

/** Every status an operation documents, a range (2XX) standing for each status in it. */
export function documentedStatusesOf(compiled: Compiled): number[] {
  const out = new Set<number>();
  for (const key of compiled.responses.keys()) {
    if (/^[1-5][0-9][0-9]$/.test(key)) out.add(Number(key));
    else if (/^[1-5]XX$/.test(key)) {
      // A range documents every status in it (2XX: any 2xx is a success).
      const base = Number(key[0]) * 100;
      for (let s = base; s < base + 100; s++) out.add(s);
    }
  }
  return [...out].sort((a, b) => a - b);
}
