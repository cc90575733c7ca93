/**
 * Target file loader: a YAML or JSON file describing the service under test, validated against
 * target.schema.json. Every problem is a CcsError TARGET_FIELD_INVALID whose message names the
 * file and the dotted field ("target.yaml: service.baseUrl: must be an absolute http(s) URL").
 * Secrets may be written as { env: NAME }; an unset variable is named in the error (never a value).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createRequire } from 'node:module';
import { parse as parseYaml } from 'yaml';
import { Ajv, type ErrorObject } from 'ajv';
import { CcsError } from '../../../spec/index.ts';

const require = createRequire(import.meta.url);
const schema = require('./target.schema.json') as object;

export type SecretRef = string | { env: string };
export interface TargetWorkspaceFile {
  workspaceKey: string; workspaceId?: string; apiKey: SecretRef; bearerToken: SecretRef;
  embedAuthorization?: SecretRef; hmacSecret?: SecretRef; hookPath?: string;
}
export interface TargetFile {
  description?: string;
  service: { baseUrl: string; driverUrl?: string; apiKeyHeader?: string };
  workspaces?: { production: TargetWorkspaceFile; sandbox?: TargetWorkspaceFile };
  signing?: { jwksUrl?: string };
  mockHost?: { listenHost?: string; port?: number; publicUrl?: string };
  timing?: { timeScale?: number; tolerances?: { minMs?: number; relative?: number } };
  limits?: { megabyte?: number };
  organizationId?: { valid: string; invalid: string };
}
/** A workspace of the target file with its secrets read (from the file or the environment). */
export interface TargetWorkspace {
  workspaceKey: string; workspaceId: string | undefined; apiKey: string; bearerToken: string;
  embedAuthorization: string; hmacSecret: string | undefined; hookPath: string | undefined;
}

const ajv = new Ajv({ allErrors: false, strict: false });
const validate = ajv.compile(schema);

function dotted(instancePath: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.length === 0 ? '(top level)' : parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : (i ? '.' : '') + p)).join('');
}

function explain(e: ErrorObject): string {
  const at = dotted(e.instancePath);
  // A secret is a string or { env: NAME }: one sentence for whichever branch ajv reports first.
  if (e.schemaPath.includes('/definitions/secret/') && !(e.keyword === 'pattern' && /env$/.test(at))) return `${at.replace(/\.env$/, '')}: must be a non-empty string or { env: NAME }`;
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      return `${at === '(top level)' ? extra : `${at}.${extra}`}: unknown field (not in the target schema)`;
    }
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return `${at === '(top level)' ? missing : `${at}.${missing}`}: is required`;
    }
    case 'pattern':
      if (/Url$/.test(at)) return `${at}: must be an absolute http(s) URL`;
      if (/env$/.test(at)) return `${at}: must be an environment variable name`;
      return `${at}: must match ${(e.params as { pattern: string }).pattern}`;
    case 'oneOf':
      return `${at}: must be a non-empty string or { env: NAME }`;
    case 'enum':
      return `${at}: must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    default:
      return `${at}: ${e.message ?? 'is invalid'}`;
  }
}

/** Validates a parsed target document; `name` is the file name used in messages. */
export function validateTargetDocument(doc: unknown, name = 'target'): TargetFile {
  if (!validate(doc)) {
    const first = validate.errors?.[0];
    const sentence = first ? explain(first) : 'is invalid';
    throw new CcsError('TARGET_FIELD_INVALID', `${name}: ${sentence}`, { field: first ? dotted(first.instancePath) : undefined });
  }
  return doc as TargetFile;
}

/** Reads and validates a target file (YAML or JSON by content; YAML is a superset of JSON). */
export function loadTargetFile(path: string): TargetFile {
  const name = basename(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CcsError('TARGET_FILE_UNREADABLE', `${name}: cannot read the target file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new CcsError('TARGET_FILE_UNPARSEABLE', `${name}: not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  return validateTargetDocument(doc, name);
}

/** Reads a secret; `field` names it in the error. Never puts a value in a message. */
export function readSecret(ref: SecretRef, field: string, name = 'target', env: NodeJS.ProcessEnv = process.env): string {
  if (typeof ref === 'string') return ref;
  const value = env[ref.env];
  if (value === undefined || value === '') {
    throw new CcsError('TARGET_FIELD_INVALID', `${name}: ${field}: environment variable ${ref.env} is not set`, { field });
  }
  return value;
}

export function readWorkspace(w: TargetWorkspaceFile, field: string, name = 'target', env: NodeJS.ProcessEnv = process.env): TargetWorkspace {
  const bearerToken = readSecret(w.bearerToken, `${field}.bearerToken`, name, env);
  return {
    workspaceKey: w.workspaceKey,
    workspaceId: w.workspaceId,
    apiKey: readSecret(w.apiKey, `${field}.apiKey`, name, env),
    bearerToken,
    embedAuthorization: w.embedAuthorization ? readSecret(w.embedAuthorization, `${field}.embedAuthorization`, name, env) : `Bearer ${bearerToken}`,
    hmacSecret: w.hmacSecret ? readSecret(w.hmacSecret, `${field}.hmacSecret`, name, env) : undefined,
    hookPath: w.hookPath,
  };
}
