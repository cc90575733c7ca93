/**
 * The host target file: where the receiver under test lives, how it verifies signatures, and
 * what its FACTS class is, validated against spec/targets/host-target.schema.json (unknown fields
 * refused). Every error names the bad field (CcsError TARGET_FIELD_INVALID) so a host team can fix
 * the file without reading our code. Secrets may be written as { env: NAME } so a target file can
 * be committed; the older spellings secretEnv, previousSecretEnv and bearerTokenEnv still work.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ccsError, CcsError, HOST_TARGET_SCHEMA, configValidator, parseYaml } from '../../spec/index.ts';
import type { HostTargetClassField, HostTargetEnvName, HostTargetFile, HostTargetSecret } from '../../spec/index.ts';

export type HostSigning =
  { mode: 'hmac'; secret: string; previousSecret?: string } | { mode: 'jwks' } | { mode: 'none' };

/** A sandbox workspace the host target declares (2.1 "sb-"): its key, and its own HMAC secret in hmac mode. */
export interface HostSandbox {
  workspaceKey: string;
  secret?: string;
}

/** One field of a FACTS class definition (generated from the host target schema). */
export type FactsClassField = HostTargetClassField;

export interface HostTarget {
  description: string;
  hostBaseUrl: string;
  hookPath: string;
  /** The FACTS class's callback path; undefined: the facts tests are skipped with a reason. */
  factsPath?: string;
  /** JSON Schema of the facts object (given, or compiled from a class definition). */
  factsSchema?: Record<string, unknown>;
  signing: HostSigning;
  workspaceKey: string;
  workspaceId: string;
  /**
   * A sandbox workspace of the production one (2.1): its callbacks reach the same hook (4.1 hookPath, identical
   * across environments); in hmac mode its own secret (5.2: per workspace and per environment).
   */
  sandbox?: HostSandbox;
  configEnd: string;
  endUserHandle?: string;
  bearerToken: string;
  servicePort?: number;
  timeouts: { requestMs: number; dataReadMs: number; noRetryWindowMs: number };
}

export const DEFAULT_TIMEOUTS = { requestMs: 10_000, dataReadMs: 10_000 } as const;

/**
 * HOST-22's window when the target sets none: HOST-21 accepts a retry of a 409 or 503 read that
 * comes within dataReadMs, so a fair receiver's back-off is at most that long; a receiver that
 * waits as long before retrying a 400 or 401 is still seen, with a second for its timers and the
 * machine's scheduling.
 */
export function defaultNoRetryWindowMs(dataReadMs: number): number {
  return dataReadMs + 1_000;
}

function bad(field: string, rule: string): CcsError {
  return ccsError('TARGET_FIELD_INVALID', { field, problem: `host target: field '${field}' ${rule}` });
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(o: Obj, field: string, path: string, required: boolean): string | undefined {
  const v = o[field];
  if (v === undefined || v === null) {
    if (required) throw bad(path, 'is required (a string)');
    return undefined;
  }
  if (typeof v !== 'string' || v.length === 0) throw bad(path, 'must be a non-empty string');
  return v;
}

/**
 * A secret written inline, as { env: NAME }, or (older spelling) through <field>Env naming the
 * variable. The field named in an error is the one the file used; a value never is.
 */
function secret(
  ref: HostTargetSecret | undefined,
  envName: HostTargetEnvName | undefined,
  path: string,
  env: NodeJS.ProcessEnv,
  required: boolean,
): string | undefined {
  const name = envName ?? (typeof ref === 'object' ? ref.env : undefined);
  if (name !== undefined) {
    const value = env[name];
    const field = envName !== undefined ? `${path}Env` : `${path}.env`;
    if (value === undefined || value === '') throw bad(field, `names environment variable ${name}, which is not set`);
    return value;
  }
  if (typeof ref === 'string') return ref;
  if (required) throw bad(path, `is required: a string or { env: NAME }`);
  return undefined;
}

const SCALARS: Record<string, Obj> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  int: { type: 'integer' },
  long: { type: 'integer' },
  number: { type: 'number' },
  float: { type: 'number' },
  double: { type: 'number' },
  boolean: { type: 'boolean' },
  bool: { type: 'boolean' },
  object: { type: 'object' },
};

/** A field type of the fixture class format: scalar, `T[]`, `list<T>` or `array`. */
export function fieldTypeSchema(type: string, path: string): Obj {
  const t = type.trim();
  const list = /^(?:(.+)\[\]|list<(.+)>|array<(.+)>)$/i.exec(t);
  if (list !== null) return { type: 'array', items: fieldTypeSchema(list[1] ?? list[2] ?? list[3] ?? '', path) };
  if (t.toLowerCase() === 'array') return { type: 'array' };
  const s = SCALARS[t.toLowerCase()];
  if (s === undefined)
    throw bad(path, `has unknown type '${type}' (string, integer, number, boolean, object, T[] or list<T>)`);
  return s;
}

/**
 * HOST-15: a class definition becomes a closed schema. Reading: "fields match the FACTS class"
 * is read as: every member is a declared field of the declared type (or null, a field the host
 * could not fill); a declared field may be absent.
 */
export function classToSchema(def: unknown, path: string): Obj {
  if (!isObj(def) || !Array.isArray(def.fields) || def.fields.length === 0)
    throw bad(`${path}.fields`, 'must be a non-empty list of { name, type, comment }');
  const properties: Obj = {};
  def.fields.forEach((f, i) => {
    const p = `${path}.fields[${i}]`;
    if (!isObj(f)) throw bad(p, 'must be an object { name, type, comment }');
    const name = str(f, 'name', `${p}.name`, true) as string;
    const type = str(f, 'type', `${p}.type`, true) as string;
    properties[name] = { anyOf: [fieldTypeSchema(type, `${p}.type`), { type: 'null' }] };
  });
  return { type: 'object', properties, additionalProperties: false };
}

/** factsClass.schemaFile: a JSON Schema in JSON or YAML, relative to the target file. */
function readSchemaFile(file: string, baseDir: string): Obj {
  let value: unknown;
  try {
    value = parseYaml(readFileSync(resolve(baseDir, file), 'utf8'));
  } catch (e) {
    throw bad('factsClass.schemaFile', `cannot be read as JSON or YAML (${(e as Error).message.split('\n')[0]})`);
  }
  if (!isObj(value)) throw bad('factsClass.schemaFile', 'must hold a JSON Schema object');
  return value;
}

const validate = configValidator(HOST_TARGET_SCHEMA);

export function parseHostTarget(
  value: unknown,
  env: NodeJS.ProcessEnv = process.env,
  where = 'host target',
  baseDir = process.cwd(),
): HostTarget {
  const problem = validate(value);
  if (problem) throw bad(problem.field === '(top level)' ? '(root)' : problem.field, problem.rule);
  const file = value as HostTargetFile;
  const hostBaseUrl = file.hostBaseUrl;
  const origin = new URL(hostBaseUrl).origin;
  const { hookPath, factsPath } = file;

  let factsSchema: Obj | undefined;
  const fc = file.factsClass;
  if (fc !== undefined) {
    if ('schema' in fc) factsSchema = fc.schema;
    else if ('schemaFile' in fc) factsSchema = readSchemaFile(fc.schemaFile, baseDir);
    else factsSchema = classToSchema(fc, 'factsClass');
  }

  const s = file.signing;
  let signing: HostSigning;
  if (s.mode === 'hmac') {
    const current = secret(s.secret, s.secretEnv, 'signing.secret', env, true) as string;
    const previousSecret = secret(s.previousSecret, s.previousSecretEnv, 'signing.previousSecret', env, false);
    signing =
      previousSecret === undefined
        ? { mode: 'hmac', secret: current }
        : { mode: 'hmac', secret: current, previousSecret };
  } else signing = { mode: s.mode };

  const bearerToken = secret(
    file.dataApi.bearerToken,
    file.dataApi.bearerTokenEnv,
    'dataApi.bearerToken',
    env,
    true,
  ) as string;
  const workspaceKey = file.workspaceKey ?? 'ws-host-conformance';
  const sandbox = sandboxOf(file, s.mode, workspaceKey, env);
  const t = file.timeouts ?? {};
  return {
    description: file.description ?? `${where}: ${origin}${hookPath}`,
    hostBaseUrl: hostBaseUrl.replace(/\/+$/, ''),
    hookPath,
    ...(factsPath !== undefined ? { factsPath } : {}),
    ...(factsSchema !== undefined ? { factsSchema } : {}),
    signing,
    workspaceKey,
    workspaceId: file.workspaceId ?? workspaceKey,
    ...(sandbox !== undefined ? { sandbox } : {}),
    configEnd: file.configEnd ?? '/settings',
    ...(file.endUserHandle !== undefined ? { endUserHandle: file.endUserHandle } : {}),
    bearerToken,
    ...(file.servicePort !== undefined ? { servicePort: file.servicePort } : {}),
    timeouts: {
      requestMs: t.requestMs ?? DEFAULT_TIMEOUTS.requestMs,
      dataReadMs: t.dataReadMs ?? DEFAULT_TIMEOUTS.dataReadMs,
      noRetryWindowMs: t.noRetryWindowMs ?? defaultNoRetryWindowMs(t.dataReadMs ?? DEFAULT_TIMEOUTS.dataReadMs),
    },
  };
}

/** The sandbox member: its key (another workspace than production's) and, in hmac mode, its own secret (5.2). */
function sandboxOf(
  file: HostTargetFile,
  mode: HostSigning['mode'],
  workspaceKey: string,
  env: NodeJS.ProcessEnv,
): HostSandbox | undefined {
  const sb = file.sandbox;
  if (sb === undefined) return undefined;
  if (sb.workspaceKey === workspaceKey) throw bad('sandbox.workspaceKey', 'must differ from the workspaceKey');
  const own = secret(sb.secret, sb.secretEnv, 'sandbox.secret', env, mode === 'hmac');
  return mode === 'hmac' ? { workspaceKey: sb.workspaceKey, secret: own as string } : { workspaceKey: sb.workspaceKey };
}

export function loadHostTarget(file: string, env: NodeJS.ProcessEnv = process.env): HostTarget {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw ccsError('TARGET_FIELD_INVALID', { field: '(file)', problem: `host target: cannot read file '${file}'` });
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (e) {
    throw ccsError('TARGET_FIELD_INVALID', {
      field: '(file)',
      problem: `host target: '${file}' is not valid YAML (${(e as Error).message.split('\n')[0]})`,
    });
  }
  return parseHostTarget(value, env, file, dirname(resolve(file)));
}
