/**
 * The --target file, checked before Playwright starts so a bad file exits 2 at once, naming the
 * field (the loader of suites/service/target throws CcsError TARGET_FIELD_INVALID). Also collects
 * the file's secret values for the reporter's redaction (CCS_SECRETS_FILE) and a description
 * that holds no secret.
 */
import { basename } from 'node:path';
import { CcsError } from '../spec/index.ts';

// LOCAL SHIM (reports/CLI room): the agreed entry is suites/service/target/index.ts `loadTarget(file)`;
// until that index exists, fall back to load.ts `loadTargetFile(file)`, which throws the same error.
const TARGET_INDEX = new URL('../suites/service/target/index.ts', import.meta.url).href;
const TARGET_LOAD = new URL('../suites/service/target/load.ts', import.meta.url).href;

type Loader = (file: string) => unknown;

async function loader(): Promise<Loader> {
  for (const [spec, name] of [[TARGET_INDEX, 'loadTarget'], [TARGET_LOAD, 'loadTargetFile']] as const) {
    try {
      const mod = (await import(spec)) as Record<string, unknown>;
      if (typeof mod[name] === 'function') return mod[name] as Loader;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || !String(error).includes('suites/service/target/')) throw error;
    }
  }
  throw new CcsError('CLI_TARGET_LOADER_MISSING', 'the target loader (suites/service/target) is not available in this build');
}

const SECRET_FIELDS = /^(apiKey|bearerToken|embedAuthorization|hmacSecret|secret|secrets|privateKey|password|token)$/i;

/** Every string under a secret-named field, resolved { env: NAME } references included. */
export function collectSecrets(value: unknown, env: NodeJS.ProcessEnv = process.env, underSecret = false): string[] {
  if (typeof value === 'string') return underSecret ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => collectSecrets(v, env, underSecret));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (underSecret && typeof o.env === 'string' && Object.keys(o).length === 1) {
      const v = env[o.env];
      return v ? [v] : [];
    }
    return Object.entries(o).flatMap(([k, v]) => collectSecrets(v, env, underSecret || SECRET_FIELDS.test(k)));
  }
  return [];
}

/** A description with no credentials: the file's `description`, else its name and the service origin. */
export function describeTarget(doc: unknown, file: string): string {
  const d = (doc ?? {}) as { description?: unknown; service?: { baseUrl?: unknown } };
  if (typeof d.description === 'string' && d.description.trim()) return d.description.trim();
  let origin = '';
  if (typeof d.service?.baseUrl === 'string') {
    try {
      origin = new URL(d.service.baseUrl).origin; // origin drops user:password@ and the query
    } catch {
      origin = '';
    }
  }
  return `target file ${basename(file)}${origin ? ` (${origin})` : ''}`;
}

export interface CheckedTarget {
  description: string;
  secrets: string[];
}

export async function checkTarget(file: string): Promise<CheckedTarget> {
  const load = await loader();
  const doc = load(file);
  return { description: describeTarget(doc, file), secrets: collectSecrets(doc) };
}
