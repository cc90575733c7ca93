/**
 * Target file loader: a YAML or JSON file describing the service under test, validated against
 * spec/targets/service-target.schema.json. Every problem is a CcsError TARGET_FIELD_INVALID whose
 * message names the file and the dotted field ("target.yaml: service.baseUrl: must be an absolute http(s) URL").
 * Secrets may be written as { env: NAME }; an unset variable is named in the error (never a value).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  ccsError,
  CcsError,
  SERVICE_TARGET_SCHEMA,
  configValidator,
  parseYaml,
  resolveDataApiForms,
} from '../../spec/index.ts';
import type { ServiceTargetFile, ServiceTargetSecret, ServiceTargetWorkspace } from '../../spec/index.ts';

/** The shapes of the file, generated from spec/targets/service-target.schema.json. */
export type SecretRef = ServiceTargetSecret;
export type TargetWorkspaceFile = ServiceTargetWorkspace;
export type TargetFile = ServiceTargetFile;

/** A workspace of the target file with its secrets read (from the file or the environment). */
export interface TargetWorkspace {
  workspaceKey: string;
  workspaceId: string | undefined;
  apiKey: string;
  bearerToken: string;
  embedAuthorization: string;
  hmacSecret: string | undefined;
  hookPath: string | undefined;
}

const validate = configValidator(SERVICE_TARGET_SCHEMA);

/** Validates a parsed target document; `name` is the file name used in messages. */
export function validateTargetDocument(doc: unknown, name = 'target'): TargetFile {
  const problem = validate(doc);
  if (problem)
    throw ccsError('TARGET_FIELD_INVALID', { field: problem.field, problem: `${name}: ${problem.sentence}` });
  const target = doc as TargetFile;
  // What the schema cannot say about the data API forms (a key member beside `data` named `data`).
  resolveDataApiForms(target.dataApi, name);
  return target;
}

/** Reads and validates a target file (YAML or JSON by content; YAML is a superset of JSON). */
export function loadTargetFile(path: string): TargetFile {
  const name = basename(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw ccsError('TARGET_FILE_UNREADABLE', { name, errno: (error as NodeJS.ErrnoException).code ?? 'error' });
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw ccsError('TARGET_FILE_UNPARSEABLE', { name, reason: (error as Error).message.split('\n')[0] ?? '' });
  }
  return validateTargetDocument(doc, name);
}

/** Reads a secret; `field` names it in the error. Never puts a value in a message. */
export function readSecret(
  ref: SecretRef,
  field: string,
  name = 'target',
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (typeof ref === 'string') return ref;
  const value = env[ref.env];
  if (value === undefined || value === '') {
    throw ccsError('TARGET_FIELD_INVALID', {
      field,
      problem: `${name}: ${field}: environment variable ${ref.env} is not set`,
    });
  }
  return value;
}

export function readWorkspace(
  w: TargetWorkspaceFile,
  field: string,
  name = 'target',
  env: NodeJS.ProcessEnv = process.env,
): TargetWorkspace {
  const bearerToken = readSecret(w.bearerToken, `${field}.bearerToken`, name, env);
  return {
    workspaceKey: w.workspaceKey,
    workspaceId: w.workspaceId,
    apiKey: readSecret(w.apiKey, `${field}.apiKey`, name, env),
    bearerToken,
    embedAuthorization: w.embedAuthorization
      ? readSecret(w.embedAuthorization, `${field}.embedAuthorization`, name, env)
      : `Bearer ${bearerToken}`,
    hmacSecret: w.hmacSecret ? readSecret(w.hmacSecret, `${field}.hmacSecret`, name, env) : undefined,
    hookPath: w.hookPath,
  };
}
