/**
 * Reads the three documents of spec/ from disk: openapi.yaml and clauses.yaml (required) and
 * driver.openapi.yaml (optional: absent until a service offers a driver description).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseYamlCached } from './yaml-cache.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ccsError } from './errors.ts';
import { specPath } from './paths.ts';
import type { Clause, Level, Side } from './types.ts';

export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'MAY', 'UNSPECIFIED'];
export const SIDES: readonly Side[] = ['service', 'host'];

export function readYaml(file: string, required: boolean): unknown {
  const path = specPath(file);
  if (!existsSync(path)) {
    if (!required) return undefined;
    throw ccsError('SPEC_LOAD_FAILED', { file, problem: `spec/${file} is missing` });
  }
  try {
    // A duplicated mapping key is an error, never a silent overwrite (parseYamlCached's options).
    return parseYamlCached(readFileSync(path, 'utf8'));
  } catch (err) {
    throw ccsError('SPEC_LOAD_FAILED', { file, problem: `spec/${file} is not valid YAML: ${(err as Error).message}` });
  }
}

export function readOpenApi(file: string, required: boolean): OpenAPIV3_1.Document | undefined {
  const doc = readYaml(file, required);
  if (doc === undefined) return undefined;
  if (
    doc === null ||
    typeof doc !== 'object' ||
    typeof (doc as { openapi?: unknown }).openapi !== 'string' ||
    !(doc as { openapi: string }).openapi.startsWith('3.1')
  ) {
    throw ccsError('SPEC_LOAD_FAILED', {
      file,
      problem: `spec/${file} is not an OpenAPI 3.1 document (missing or wrong "openapi" member)`,
    });
  }
  return doc as OpenAPIV3_1.Document;
}

export interface ClauseIndex {
  clauses: Clause[];
  areas: Record<string, string>;
}

/** Reads clauses.yaml; a malformed clause is a load error naming the clause and the field. */
export function readClauses(file = 'clauses.yaml'): ClauseIndex {
  const raw = readYaml(file, true) as { areas?: unknown; clauses?: unknown } | null;
  if (!raw || typeof raw !== 'object' || !Array.isArray(raw.clauses)) {
    throw ccsError('SPEC_LOAD_FAILED', { file, problem: `spec/${file} has no "clauses" list` });
  }
  const areas: Record<string, string> = {};
  if (raw.areas && typeof raw.areas === 'object') {
    for (const [k, v] of Object.entries(raw.areas as Record<string, unknown>)) areas[k] = String(v);
  }
  const clauses: Clause[] = [];
  raw.clauses.forEach((entry: unknown, index: number) => {
    const c = (entry ?? {}) as Record<string, unknown>;
    const where = `spec/${file} clause #${index + 1}${typeof c.id === 'string' ? ` (${c.id})` : ''}`;
    const str = (field: string): string => {
      const v = c[field];
      if (typeof v !== 'string' || v.trim() === '')
        throw ccsError('SPEC_LOAD_FAILED', { field, problem: `${where}: "${field}" must be a non-empty string` });
      return v;
    };
    if (c.retired === true) return; // retired ids stay reserved in the file but are not clauses any more
    const level = str('level') as Level;
    const side = str('side') as Side;
    if (!LEVELS.includes(level))
      throw ccsError('SPEC_LOAD_FAILED', { problem: `${where}: level "${level}" is not one of ${LEVELS.join(', ')}` });
    if (!SIDES.includes(side))
      throw ccsError('SPEC_LOAD_FAILED', { problem: `${where}: side "${side}" is not one of ${SIDES.join(', ')}` });
    const clause: Clause = { id: str('id'), section: String(c.section ?? ''), level, side, text: str('text') };
    if (clause.section.trim() === '')
      throw ccsError('SPEC_LOAD_FAILED', { problem: `${where}: "section" must be non-empty` });
    if (typeof c.reading === 'string') clause.reading = c.reading;
    if (typeof c.unobservable === 'string') clause.unobservable = c.unobservable;
    clauses.push(clause);
  });
  return { clauses, areas };
}
