/**
 * loadSpec(): loads spec/openapi.yaml, spec/clauses.yaml and (when present)
 * spec/driver.openapi.yaml once, compiles every schema they hold with ajv (2020-12, strict,
 * allErrors, formats) and hands out validators compiled once and reused.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ccsError } from './errors.ts';
import { addComponentSchemas, compileInline, createAjv, encodePointerToken, extensionNames, run } from './ajv.ts';
import { readClauses, readOpenApi } from './documents.ts';
import {
  deref,
  indexOperations,
  indexWebhooks,
  pickMediaType,
  resolvePointer,
  responseKey,
  type IndexedOperation,
} from './operations.ts';
import type { Clause, Spec, ValidationResult } from './types.ts';

const OPENAPI_PREFIX = 'urn:ccs:openapi:schemas:';
const DRIVER_PREFIX = 'urn:ccs:driver:schemas:';

interface HeaderCheck {
  name: string;
  required: boolean;
  integer: boolean;
  fn: ValidateFunction | undefined;
}

interface Compiled {
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

const ok: ValidationResult = Object.freeze({ valid: true, errors: [] }) as ValidationResult;
const fail = (...errors: string[]): ValidationResult => ({ valid: false, errors });

function pointer(...tokens: string[]): string {
  return `#/${tokens.map(encodePointerToken).join('/')}`;
}

function compileOperation(
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

function build(): Spec {
  const openapi = readOpenApi('openapi.yaml', true) as OpenAPIV3_1.Document;
  const { clauses, areas } = readClauses();
  const clauseById = new Map<string, Clause>();
  for (const c of clauses) {
    if (clauseById.has(c.id))
      throw ccsError('SPEC_LOAD_FAILED', { id: c.id, problem: `spec/clauses.yaml: clause id ${c.id} is used twice` });
    clauseById.set(c.id, c);
  }

  const ajv = createAjv(extensionNames(openapi));
  const schemas = addComponentSchemas(
    ajv,
    (openapi.components?.schemas ?? {}) as Record<string, unknown>,
    OPENAPI_PREFIX,
    'spec/openapi.yaml',
  );
  // The driver document is read on first use (spec.driver or one of its operations) and its
  // schemas compiled on first use of one of its operations: a fault in it (another room's file)
  // fails the driver's users and the self-checks, not every spec user, and plain users do not
  // pay for parsing it.
  let driverState: 'unread' | 'read' | 'compiled' = 'unread';
  let driver: OpenAPIV3_1.Document | undefined;
  const readDriver = (): OpenAPIV3_1.Document | undefined => {
    if (driverState === 'unread') {
      driver = readOpenApi('driver.openapi.yaml', false);
      driverState = 'read';
      if (driver) {
        for (const k of extensionNames(driver)) if (!ajv.getKeyword(k)) ajv.addKeyword({ keyword: k });
        indexOperations(driver, 'driver', operations);
      }
    }
    return driver;
  };
  const ensureDriver = (): void => {
    if (driverState === 'compiled' || !readDriver()) return;
    addComponentSchemas(
      ajv,
      (driver?.components?.schemas ?? {}) as Record<string, unknown>,
      DRIVER_PREFIX,
      'spec/driver.openapi.yaml',
    );
    driverState = 'compiled';
  };

  const operations = new Map<string, IndexedOperation>();
  indexOperations(openapi, 'openapi', operations);
  const webhooks = indexWebhooks(openapi);

  const compiledOps = new Map<string, Compiled>();
  const compileOp = (id: string, op: IndexedOperation): Compiled => {
    if (op.doc === 'driver') ensureDriver();
    const doc = op.doc === 'openapi' ? openapi : (driver as OpenAPIV3_1.Document);
    const label = op.doc === 'openapi' ? 'spec/openapi.yaml' : 'spec/driver.openapi.yaml';
    const compiled = compileOperation(ajv, doc, label, op.doc === 'openapi' ? OPENAPI_PREFIX : DRIVER_PREFIX, op, [
      'paths',
      op.path,
      op.method.toLowerCase(),
    ]);
    compiledOps.set(id, compiled);
    return compiled;
  };
  // Operations and webhooks are compiled on first use, like the component schemas (ajv.ts).
  const compiledHooks = new Map<string, Compiled>();

  const findOp = (operationId: string): IndexedOperation => {
    const op = operations.get(operationId) ?? (readDriver(), operations.get(operationId));
    if (!op) {
      throw ccsError('SPEC_OPERATION_UNKNOWN', { operationId, orDriver: driver ? ' or spec/driver.openapi.yaml' : '' });
    }
    return op;
  };
  const opOrThrow = (operationId: string): { op: IndexedOperation; compiled: Compiled } => {
    const op = findOp(operationId);
    return { op, compiled: compiledOps.get(operationId) ?? compileOp(operationId, op) };
  };
  const hookOrThrow = (name: string): Compiled => {
    const hook = webhooks.get(name);
    if (!hook) {
      throw ccsError('SPEC_WEBHOOK_UNKNOWN', { name, known: [...webhooks.keys()].join(', ') });
    }
    let compiled = compiledHooks.get(name);
    if (!compiled)
      compiledHooks.set(
        name,
        (compiled = compileOperation(ajv, openapi, 'spec/openapi.yaml', OPENAPI_PREFIX, hook, [
          'webhooks',
          name,
          hook.method.toLowerCase(),
        ])),
      );
    return compiled;
  };
  const schemaOrThrow = (name: string): ValidateFunction => {
    const fn = schemas(name);
    if (!fn) throw ccsError('SPEC_SCHEMA_UNKNOWN', { name });
    return fn;
  };

  const spec: Spec = {
    openapi,
    get driver() {
      return readDriver();
    },
    clauses,
    areas,
    clause: (id) => clauseById.get(id),

    validateWebhook(name, body) {
      const hook = hookOrThrow(name);
      if (hook.requestBody) return run(hook.requestBody, body);
      // A webhook without a request body (user.facts.fetch): validate the host's answer.
      const key = [...hook.responses.keys()].find((k) => /^2/.test(k));
      const fn = key === undefined ? undefined : hook.responses.get(key);
      return fn ? run(fn, body) : ok;
    },

    validateWebhookHeaders(name, headers) {
      const hook = hookOrThrow(name);
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
    },

    validateResponse(operationId, status, body) {
      const { compiled } = opOrThrow(operationId);
      const key = responseKey(Object.fromEntries(compiled.responses), status);
      if (key === undefined) {
        return fail(
          `status ${status} not documented for ${operationId} (documented: ${[...compiled.responses.keys()].join(', ')})`,
        );
      }
      const fn = compiled.responses.get(key);
      return fn ? run(fn, body) : ok;
    },

    validateRequestBody(operationId, body) {
      const { op, compiled } = opOrThrow(operationId);
      if (!op.operation.requestBody)
        return body === undefined ? ok : fail(`(root) ${operationId} takes no request body`);
      return compiled.requestBody ? run(compiled.requestBody, body) : ok;
    },

    validateSchema: (name, value) => run(schemaOrThrow(name), value),

    schema(name) {
      schemaOrThrow(name);
      return (openapi.components?.schemas as Record<string, object>)[name] as object;
    },

    resolveRef: (ref) => resolvePointer(openapi, ref, 'spec/openapi.yaml'),

    documentedStatuses(operationId) {
      const { compiled } = opOrThrow(operationId);
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
    },

    operation(operationId) {
      const op = findOp(operationId);
      return { method: op.method, path: op.path, operation: op.operation };
    },
  };
  return spec;
}

let cached: Spec | undefined;

/** Synchronous; loads and compiles once per process, then returns the same Spec. */
export function loadSpec(): Spec {
  cached ??= build();
  return cached;
}
