/**
 * The clause list the report covers: spec/clauses.yaml as the spec loader reads it (spec/index.ts
 * readClauses), or a clauses file given explicitly (the reporter's `clausesFile` option; the
 * self-tests use a small synthetic one).
 */
import { readFileSync } from 'node:fs';
import { ccsError, parseYamlCached, readClauses } from '../spec/index.ts';
import type { ClauseInput } from './model.ts';

export function readClausesFile(file: string): { clauses: ClauseInput[]; areas: Record<string, string> } {
  let doc: { clauses?: Array<ClauseInput & { retired?: boolean }>; areas?: Record<string, string> };
  try {
    doc = parseYamlCached(readFileSync(file, 'utf8')) as typeof doc;
  } catch (error) {
    throw ccsError('REPORT_CLAUSES_UNREADABLE', {
      problem: `cannot read the clause list ${file}: ${(error as Error).message}`,
    });
  }
  if (!doc || !Array.isArray(doc.clauses))
    throw ccsError('REPORT_CLAUSES_UNREADABLE', { problem: `${file}: no clauses list` });
  return { clauses: doc.clauses.filter((c) => !c.retired).map(normalise), areas: doc.areas ?? {} };
}

function normalise(c: ClauseInput & { retired?: boolean }): ClauseInput {
  return {
    id: c.id,
    section: String(c.section),
    level: c.level,
    side: c.side,
    text: String(c.text).trim(),
    ...(c.reading ? { reading: String(c.reading).trim() } : {}),
    ...(c.unobservable ? { unobservable: String(c.unobservable).trim() } : {}),
  };
}

/**
 * The clauses of spec/clauses.yaml, read and checked as the spec loader reads them (spec/index.ts
 * readClauses), without compiling the contract's schemas: a report needs the clauses alone.
 */
export async function loadClauses(
  clausesFile?: string,
): Promise<{ clauses: ClauseInput[]; areas: Record<string, string> }> {
  if (clausesFile) return readClausesFile(clausesFile);
  const { clauses, areas } = readClauses();
  return { clauses: clauses.map(normalise), areas };
}

/** Area titles of spec/clauses.yaml ("DELIV: Delivery, timeouts and retries (6, 8)"); none when unreadable. */
export function contractAreaTitles(): Record<string, string> {
  try {
    return readClauses().areas;
  } catch {
    return {};
  }
}
