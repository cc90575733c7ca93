/**
 * The host target file: where the receiver under test lives, how it verifies signatures, and
 * what its FACTS class is. Every error names the bad field (CcsError TARGET_FIELD_INVALID) so a
 * host team can fix the file without reading our code. Secrets may come from environment
 * variables (secretEnv, previousSecretEnv, bearerTokenEnv) so a target file can be committed.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CcsError } from '../../spec/index.ts';

export type HostSigning =
  | { mode: 'hmac'; secret: string; previousSecret?: string }
  | { mode: 'jwks' }
  | { mode: 'none' };

export interface FactsClassField { name: string; type: string; comment?: string }

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
  configEnd: string;
  endUserHandle?: string;
  bearerToken: string;
  servicePort?: number;
  timeouts: { requestMs: number; dataReadMs: number; noRetryWindowMs: number };
}

export const DEFAULT_TIMEOUTS = { requestMs: 10_000, dataReadMs: 10_000, noRetryWindowMs: 5_000 } as const;

function bad(field: string, rule: string): CcsError {
  return new CcsError('TARGET_FIELD_INVALID', `host target: field '${field}' ${rule}`, { field });
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

/** A secret given inline or through an environment variable (<field>Env). */
function secret(o: Obj, field: string, path: string, env: NodeJS.ProcessEnv, required: boolean): string | undefined {
  const inline = str(o, field, path, false);
  const envName = str(o, `${field}Env`, `${path}Env`, false);
  if (envName !== undefined) {
    const v = env[envName];
    if (v === undefined || v === '') throw bad(`${path}Env`, `names environment variable ${envName}, which is not set`);
    return v;
  }
  if (inline === undefined && required) throw bad(path, `is required (or ${field}Env naming an environment variable)`);
  return inline;
}

function relPath(o: Obj, field: string, path: string, required: boolean): string | undefined {
  const v = str(o, field, path, required);
  if (v !== undefined && (!v.startsWith('/') || v.startsWith('//'))) throw bad(path, `must be a relative path starting with '/' (got '${v}')`);
  return v;
}

function positiveMs(o: Obj, field: string, fallback: number): number {
  const v = o[field];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw bad(`timeouts.${field}`, 'must be a positive number of milliseconds');
  return v;
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
  if (s === undefined) throw bad(path, `has unknown type '${type}' (string, integer, number, boolean, object, T[] or list<T>)`);
  return s;
}

/**
 * HOST-15: a class definition becomes a closed schema. Reading: "fields match the FACTS class"
 * is read as: every member is a declared field of the declared type (or null, a field the host
 * could not fill); a declared field may be absent.
 */
export function classToSchema(def: unknown, path: string): Obj {
  if (!isObj(def) || !Array.isArray(def.fields) || def.fields.length === 0) throw bad(`${path}.fields`, 'must be a non-empty list of { name, type, comment }');
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

export function parseHostTarget(value: unknown, env: NodeJS.ProcessEnv = process.env, where = 'host target', baseDir = process.cwd()): HostTarget {
  if (!isObj(value)) throw bad('(root)', 'must be a mapping');
  const hostBaseUrl = str(value, 'hostBaseUrl', 'hostBaseUrl', true) as string;
  let parsed: URL;
  try {
    parsed = new URL(hostBaseUrl);
  } catch {
    throw bad('hostBaseUrl', `must be an absolute URL (got '${hostBaseUrl}')`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw bad('hostBaseUrl', 'must be an http or https URL');
  const hookPath = relPath(value, 'hookPath', 'hookPath', true) as string;
  const factsPath = relPath(value, 'factsPath', 'factsPath', false);

  let factsSchema: Obj | undefined;
  const fc = value.factsClass;
  if (fc !== undefined) {
    if (!isObj(fc)) throw bad('factsClass', 'must be { schema: <JSON Schema> }, { schemaFile: FILE } or { fields: [...] }');
    if (fc.schema !== undefined) {
      if (!isObj(fc.schema)) throw bad('factsClass.schema', 'must be a JSON Schema object');
      factsSchema = fc.schema;
    } else if (fc.schemaFile !== undefined) {
      factsSchema = readSchemaFile(str(fc, 'schemaFile', 'factsClass.schemaFile', true) as string, baseDir);
    } else factsSchema = classToSchema(fc, 'factsClass');
  }

  const s = value.signing;
  if (!isObj(s)) throw bad('signing', 'is required: { mode: hmac | jwks | none, ... }');
  let signing: HostSigning;
  if (s.mode === 'hmac') {
    const current = secret(s, 'secret', 'signing.secret', env, true) as string;
    const previousSecret = secret(s, 'previousSecret', 'signing.previousSecret', env, false);
    signing = previousSecret === undefined ? { mode: 'hmac', secret: current } : { mode: 'hmac', secret: current, previousSecret };
  } else if (s.mode === 'jwks') signing = { mode: 'jwks' };
  else if (s.mode === 'none') signing = { mode: 'none' };
  else throw bad('signing.mode', `must be one of hmac, jwks, none (got '${String(s.mode)}')`);

  const configEnd = str(value, 'configEnd', 'configEnd', false) ?? '/settings';
  if (!configEnd.startsWith('/')) throw bad('configEnd', 'must carry a leading slash (EVT-12)');
  const endUserHandle = str(value, 'endUserHandle', 'endUserHandle', false);
  if (endUserHandle?.startsWith('org-')) throw bad('endUserHandle', "must not start with the reserved prefix 'org-'");

  const d = value.dataApi ?? {};
  if (!isObj(d)) throw bad('dataApi', 'must be a mapping { bearerToken | bearerTokenEnv }');
  const bearerToken = secret(d, 'bearerToken', 'dataApi.bearerToken', env, true) as string;

  const sp = value.servicePort;
  if (sp !== undefined && (typeof sp !== 'number' || !Number.isInteger(sp) || sp < 0 || sp > 65535)) throw bad('servicePort', 'must be a port number 0..65535');

  const t = value.timeouts ?? {};
  if (!isObj(t)) throw bad('timeouts', 'must be a mapping');
  const workspaceKey = str(value, 'workspaceKey', 'workspaceKey', false) ?? 'ws-host-conformance';
  return {
    description: str(value, 'description', 'description', false) ?? `${where}: ${parsed.origin}${hookPath}`,
    hostBaseUrl: hostBaseUrl.replace(/\/+$/, ''),
    hookPath,
    ...(factsPath !== undefined ? { factsPath } : {}),
    ...(factsSchema !== undefined ? { factsSchema } : {}),
    signing,
    workspaceKey,
    workspaceId: str(value, 'workspaceId', 'workspaceId', false) ?? workspaceKey,
    configEnd,
    ...(endUserHandle !== undefined ? { endUserHandle } : {}),
    bearerToken,
    ...(typeof sp === 'number' ? { servicePort: sp } : {}),
    timeouts: {
      requestMs: positiveMs(t, 'requestMs', DEFAULT_TIMEOUTS.requestMs),
      dataReadMs: positiveMs(t, 'dataReadMs', DEFAULT_TIMEOUTS.dataReadMs),
      noRetryWindowMs: positiveMs(t, 'noRetryWindowMs', DEFAULT_TIMEOUTS.noRetryWindowMs),
    },
  };
}

export function loadHostTarget(file: string, env: NodeJS.ProcessEnv = process.env): HostTarget {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CcsError('TARGET_FIELD_INVALID', `host target: cannot read file '${file}'`, { field: '(file)' });
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (e) {
    throw new CcsError('TARGET_FIELD_INVALID', `host target: '${file}' is not valid YAML (${(e as Error).message.split('\n')[0]})`, { field: '(file)' });
  }
  return parseHostTarget(value, env, file, dirname(resolve(file)));
}
