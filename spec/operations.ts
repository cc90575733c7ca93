/**
 * Indexes of a loaded OpenAPI document: operations by operationId, webhooks by name, and local
 * JSON-pointer resolution for the non-schema objects ($ref'd responses and parameters).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { ccsError } from './errors.ts';
import { decodePointerToken } from './ajv.ts';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface IndexedOperation {
  doc: 'openapi' | 'driver';
  method: string;
  path: string;
  operation: OpenAPIV3_1.OperationObject;
  /** path-level parameters followed by the operation's own, $refs resolved. */
  parameters: OpenAPIV3_1.ParameterObject[];
}

/** Resolves a local JSON pointer ('#/a/b') in a document. */
export function resolvePointer(doc: object, ref: string, docLabel: string): object {
  if (!ref.startsWith('#')) {
    throw ccsError('SPEC_REF_UNRESOLVED', {
      doc: docLabel,
      ref,
      problem: `only local refs are supported, got "${ref}"`,
    });
  }
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const token = decodePointerToken(raw);
    if (node === null || typeof node !== 'object' || !(token in (node as object))) {
      throw ccsError('SPEC_REF_UNRESOLVED', {
        doc: docLabel,
        ref,
        problem: `"${ref}" does not resolve (no "${token}")`,
      });
    }
    node = (node as Record<string, unknown>)[token];
  }
  if (node === null || typeof node !== 'object') {
    throw ccsError('SPEC_REF_UNRESOLVED', { doc: docLabel, ref, problem: `"${ref}" does not point at an object` });
  }
  return node;
}

/** Follows $ref chains of a non-schema object (response, parameter, request body). */
export function deref<T>(doc: object, value: T | OpenAPIV3_1.ReferenceObject, docLabel: string): T {
  let node: unknown = value;
  for (let hops = 0; node && typeof node === 'object' && '$ref' in node; hops++) {
    if (hops > 20)
      throw ccsError('SPEC_REF_UNRESOLVED', {
        doc: docLabel,
        problem: `$ref cycle at "${(node as { $ref: string }).$ref}"`,
      });
    node = resolvePointer(doc, (node as { $ref: string }).$ref, docLabel);
  }
  return node as T;
}

function parametersOf(
  doc: object,
  item: OpenAPIV3_1.PathItemObject,
  op: OpenAPIV3_1.OperationObject,
  label: string,
): OpenAPIV3_1.ParameterObject[] {
  const byKey = new Map<string, OpenAPIV3_1.ParameterObject>();
  for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const param = deref<OpenAPIV3_1.ParameterObject>(doc, p, label);
    byKey.set(`${param.in}:${param.name.toLowerCase()}`, param); // operation-level overrides path-level
  }
  return [...byKey.values()];
}

export function indexOperations(
  doc: OpenAPIV3_1.Document,
  which: 'openapi' | 'driver',
  into: Map<string, IndexedOperation>,
): void {
  const label = which === 'openapi' ? 'spec/openapi.yaml' : 'spec/driver.openapi.yaml';
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref<OpenAPIV3_1.PathItemObject>(doc, rawItem as OpenAPIV3_1.PathItemObject, label);
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      if (into.has(op.operationId)) {
        throw ccsError('SPEC_LOAD_FAILED', {
          operationId: op.operationId,
          problem: `${label}: operationId "${op.operationId}" is used twice`,
        });
      }
      into.set(op.operationId, {
        doc: which,
        method: method.toUpperCase(),
        path,
        operation: op,
        parameters: parametersOf(doc, item, op, label),
      });
    }
  }
}

export function indexWebhooks(doc: OpenAPIV3_1.Document): Map<string, IndexedOperation> {
  const out = new Map<string, IndexedOperation>();
  for (const [name, rawItem] of Object.entries(doc.webhooks ?? {})) {
    const item = deref<OpenAPIV3_1.PathItemObject>(doc, rawItem as OpenAPIV3_1.PathItemObject, 'spec/openapi.yaml');
    const method = METHODS.find((m) => item[m]);
    if (!method)
      throw ccsError('SPEC_LOAD_FAILED', { problem: `spec/openapi.yaml: webhook "${name}" has no operation` });
    const op = item[method] as OpenAPIV3_1.OperationObject;
    out.set(name, {
      doc: 'openapi',
      method: method.toUpperCase(),
      path: name,
      operation: op,
      parameters: parametersOf(doc, item, op, 'spec/openapi.yaml'),
    });
  }
  return out;
}

/** Response key for a status: exact, else the NXX range, else default. */
export function responseKey(responses: Record<string, unknown>, status: number): string | undefined {
  const exact = String(status);
  if (exact in responses) return exact;
  const range = `${Math.floor(status / 100)}XX`;
  if (range in responses) return range;
  return 'default' in responses ? 'default' : undefined;
}

/** The media type whose schema validates a body: application/json, else any JSON type, else the first. */
export function pickMediaType(content: Record<string, OpenAPIV3_1.MediaTypeObject> | undefined): string | undefined {
  if (!content) return undefined;
  const keys = Object.keys(content);
  return keys.find((k) => k === 'application/json') ?? keys.find((k) => /[/+]json$/.test(k)) ?? keys[0];
}
