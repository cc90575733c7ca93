/**
 * The same spec check on every response any suite sees: the operation is found
 * from the method and the path template of spec/openapi.yaml, the body is validated with the
 * spec loader (ajv), and a JSON body must come with a JSON content type.
 */
import { loadSpec, readOpenApi } from '../../../spec/index.ts';

export interface ValidationResult {
  valid: boolean;
  errors: string[];
  operationId?: string;
}

interface OperationMatcher {
  method: string;
  operationId: string;
  regex: RegExp;
  template: string;
}
let matchers: OperationMatcher[] | undefined;
let specPromise: Promise<Awaited<ReturnType<typeof loadSpec>>> | undefined;

function loadMatchers(): OperationMatcher[] {
  if (matchers) return matchers;
  const out: OperationMatcher[] = [];
  try {
    const doc = readOpenApi('openapi.yaml', true) as unknown as {
      paths?: Record<string, Record<string, { operationId?: string }>>;
    };
    for (const [template, item] of Object.entries(doc.paths ?? {})) {
      // A path parameter is one segment ([^/]+), except a parameter named configEnd, which may be
      // written with its slash inside the path (UNSPEC-9: how configEnd is written is not shown).
      const source = template
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\\\{([^}]+)\\\}/g, (_m, name: string) => (name === 'configEnd' ? '(.+?)' : '([^/]+)'));
      for (const [method, op] of Object.entries(item)) {
        if (op && typeof op === 'object' && op.operationId)
          out.push({
            method: method.toUpperCase(),
            operationId: op.operationId,
            regex: new RegExp(`^${source}$`),
            template,
          });
      }
    }
  } catch {
    // spec/openapi.yaml not readable: responses are then recorded as unchecked (operationId undefined).
  }
  // Literal templates before parameterized ones (a literal segment is more specific).
  out.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  matchers = out;
  return out;
}

/** The operationId for a method and a request path (without query), or undefined. */
export function locateOperation(method: string, pathname: string): string | undefined {
  const m = method.toUpperCase();
  return loadMatchers().find((x) => x.method === m && x.regex.test(pathname))?.operationId;
}

/** Same path with any method: the operation whose path matches (used for 405 on PUT, DATA-5). */
export function locatePath(pathname: string): string | undefined {
  return loadMatchers().find((x) => x.regex.test(pathname))?.template;
}

export async function checkResponse(o: {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  json: unknown;
  text: string;
  operationId?: string;
}): Promise<ValidationResult> {
  const pathname = new URL(o.url).pathname;
  const operationId = o.operationId ?? locateOperation(o.method, pathname);
  if (!operationId)
    return { valid: true, errors: [`no operation of spec/openapi.yaml matches ${o.method} ${pathname}: not checked`] };
  const errors: string[] = [];
  if (
    o.text.length > 0 &&
    o.json !== undefined &&
    !/^application\/([a-z.+-]*\+)?json\b/i.test(o.headers['content-type'] ?? '')
  ) {
    errors.push(`a JSON body came with content-type ${JSON.stringify(o.headers['content-type'] ?? '(none)')}`);
  }
  if (o.text.length > 0 && o.json === undefined && /json/i.test(o.headers['content-type'] ?? '')) {
    errors.push('the body is declared JSON but does not parse');
  }
  try {
    specPromise ??= Promise.resolve(loadSpec());
    const spec = await specPromise;
    const r = spec.validateResponse(operationId, o.status, o.json ?? (o.text.length ? o.text : undefined)) as {
      valid: boolean;
      errors?: string[];
    };
    if (!r.valid) errors.push(...(r.errors ?? ['does not match the spec']));
  } catch (error) {
    errors.push(`spec check failed to run: ${(error as Error).message}`);
  }
  return { valid: errors.length === 0, errors, operationId };
}
