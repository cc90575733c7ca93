/**
 * loadSpec(): loads spec/openapi.yaml, spec/clauses.yaml and (when present)
 * spec/driver.openapi.yaml once, compiles every schema they hold with ajv (2020-12, strict,
 * allErrors, formats) and hands out validators compiled once and reused.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ccsError } from './errors.ts';
import { addComponentSchemas, createAjv, extensionNames, run } from './ajv.ts';
import {
  checkWebhookHeaders,
  compileOperation,
  documentedStatusesOf,
  fail,
  ok,
  type Compiled,
} from './compiled-operation.ts';
import { readClauses, readOpenApi } from './documents.ts';
import { indexOperations, indexWebhooks, resolvePointer, responseKey, type IndexedOperation } from './operations.ts';
import type { Clause, Spec, ValidationResult } from './types.ts';

const OPENAPI_PREFIX = 'urn:ccs:openapi:schemas:';
const DRIVER_PREFIX = 'urn:ccs:driver:schemas:';

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

    validateWebhookHeaders: (name, headers) => checkWebhookHeaders(hookOrThrow(name), name, headers),

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

    documentedStatuses: (operationId) => documentedStatusesOf(opOrThrow(operationId).compiled),

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
