/**
 * The --target file, checked before Playwright starts so a bad file exits 2 at once, naming the
 * field (the loader of target/service throws CcsError TARGET_FIELD_INVALID). Also collects
 * the file's secret values for the reporter's redaction (CCS_SECRETS_FILE) and a description
 * that holds no secret.
 */
import { basename } from 'node:path';
import { isSecretName, resolveDataApiForms, type DataApiForms } from '../spec/index.ts';
import { loadTargetFile } from '../target/service/load.ts';

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
    return Object.entries(o).flatMap(([k, v]) => collectSecrets(v, env, underSecret || isSecretName(k)));
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
  /** The data API forms it declares (UNSPEC-8, UNSPEC-9), defaults filled in: the report's header names them. */
  dataApi: DataApiForms;
}

export async function checkTarget(file: string): Promise<CheckedTarget> {
  const doc = loadTargetFile(file);
  return {
    description: describeTarget(doc, file),
    secrets: collectSecrets(doc),
    dataApi: resolveDataApiForms(doc.dataApi, basename(file)),
  };
}
