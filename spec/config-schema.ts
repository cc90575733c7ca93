/**
 * The schemas of the two target files (spec/targets/*.schema.json) and one way to validate a
 * document against them: the first problem, as a dotted field and a sentence a user can act on
 * ("service.baseUrl", "must be an absolute http(s) URL"). A schema node may say what it expects in
 * words with `x-expected`; otherwise ajv's own message is used.
 */
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

export type ConfigSchema = { [key: string]: unknown };
export const SERVICE_TARGET_SCHEMA = require('./targets/service-target.schema.json') as ConfigSchema;
export const HOST_TARGET_SCHEMA = require('./targets/host-target.schema.json') as ConfigSchema;

/** The first problem of a document: the dotted field it is about and what is wrong with it. */
export interface ConfigProblem {
  /** 'service.baseUrl', 'workspaces.production.apiKey', '(top level)'. */
  field: string;
  /** 'must be an absolute http(s) URL' */
  rule: string;
  /** 'service.baseUrl: must be an absolute http(s) URL' */
  sentence: string;
}

/** '/workspaces/production/apiKey' -> 'workspaces.production.apiKey'; '/a/0/b' -> 'a[0].b'. */
export function dottedField(instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.length === 0
    ? '(top level)'
    : parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : (i ? '.' : '') + p)).join('');
}

const child = (at: string, name: string): string => (at === '(top level)' ? name : `${at}.${name}`);
const expected = (e: ErrorObject): string | undefined =>
  (e.parentSchema as { 'x-expected'?: string } | undefined)?.['x-expected'];

function resolveLocal(root: ConfigSchema, s: { $ref?: string }): ConfigSchema {
  const m = s.$ref ? /^#\/definitions\/(.+)$/.exec(s.$ref) : null;
  return m ? ((root.definitions as Record<string, ConfigSchema>)[m[1] as string] ?? {}) : (s as ConfigSchema);
}

function explain(root: ConfigSchema, e: ErrorObject): ConfigProblem {
  const at = dottedField(e.instancePath);
  const said = (field: string, rule: string): ConfigProblem => ({ field, rule, sentence: `${field}: ${rule}` });
  switch (e.keyword) {
    case 'additionalProperties':
      return said(
        child(at, (e.params as { additionalProperty: string }).additionalProperty),
        'unknown field (not in the target schema)',
      );
    case 'required':
      return said(child(at, (e.params as { missingProperty: string }).missingProperty), 'is required');
    case 'discriminator': {
      const { tag } = e.params as { tag: string };
      const branches = ((e.parentSchema as { oneOf?: { $ref?: string }[] }).oneOf ?? []).map((b) =>
        resolveLocal(root, b),
      );
      const values = branches
        .map((b) => (b.properties as Record<string, { const?: unknown }> | undefined)?.[tag]?.const)
        .filter((v) => v !== undefined);
      return said(child(at, tag), `must be one of ${values.join(', ')}`);
    }
    case 'enum':
      return said(at, `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`);
    case 'pattern':
    case 'not':
    case 'oneOf': {
      const words = expected(e);
      if (words) return said(at, `must be ${words}`);
      return said(
        at,
        e.keyword === 'pattern'
          ? `must match ${(e.params as { pattern: string }).pattern}`
          : (e.message ?? 'is invalid'),
      );
    }
    default:
      return said(at, e.message ?? 'is invalid');
  }
}

/**
 * Among ajv's errors, the one to tell: for a value that fits none of a oneOf's shapes, the
 * error inside the value when one shape got that far (a bad { env: NAME } name), else the
 * oneOf itself (which says what shapes it takes).
 */
function pick(errors: ErrorObject[]): ErrorObject {
  const first = errors[0] as ErrorObject;
  const one = errors.find(
    (e) =>
      e.keyword === 'oneOf' &&
      (first.instancePath === e.instancePath || first.instancePath.startsWith(`${e.instancePath}/`)),
  );
  if (!one) return first;
  return errors.find((e) => e !== one && e.instancePath.startsWith(`${one.instancePath}/`)) ?? one;
}

/**
 * A validator of one config schema: undefined when the document is valid, else its first problem.
 * Compiled on its first call: every test worker imports the target loaders, few read a file.
 */
export function configValidator(schema: ConfigSchema): (doc: unknown) => ConfigProblem | undefined {
  let validate: ValidateFunction | undefined;
  return (doc) => {
    validate ??= new Ajv({ allErrors: false, strict: false, discriminator: true, verbose: true }).compile(schema);
    return validate(doc) ? undefined : explain(schema, pick(validate.errors ?? []));
  };
}
