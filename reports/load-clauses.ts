/**
 * The clause list the report covers: spec/index.ts loadSpec().clauses, or a clauses file given
 * explicitly (the reporter's `clausesFile` option; the self-tests use a small synthetic one).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { CcsError, loadSpec } from '../spec/index.ts';
import type { ClauseInput } from './model.ts';

const CLAUSES_YAML = fileURLToPath(new URL('../spec/clauses.yaml', import.meta.url));

export function readClausesFile(file: string): { clauses: ClauseInput[]; areas: Record<string, string> } {
  let doc: { clauses?: Array<ClauseInput & { retired?: boolean }>; areas?: Record<string, string> };
  try {
    doc = parseYaml(readFileSync(file, 'utf8')) as typeof doc;
  } catch (error) {
    throw new CcsError('REPORT_CLAUSES_UNREADABLE', `cannot read the clause list ${file}: ${(error as Error).message}`);
  }
  if (!doc || !Array.isArray(doc.clauses)) throw new CcsError('REPORT_CLAUSES_UNREADABLE', `${file}: no clauses list`);
  return { clauses: doc.clauses.filter((c) => !c.retired).map(normalise), areas: doc.areas ?? {} };
}

function normalise(c: ClauseInput & { retired?: boolean }): ClauseInput {
  return {
    id: c.id, section: String(c.section), level: c.level, side: c.side, text: String(c.text).trim(),
    ...(c.reading ? { reading: String(c.reading).trim() } : {}),
    ...(c.unobservable ? { unobservable: String(c.unobservable).trim() } : {}),
  };
}

/** The clauses of spec/clauses.yaml, through the spec loader (spec/index.ts loadSpec). */
export async function loadClauses(clausesFile?: string): Promise<{ clauses: ClauseInput[]; areas: Record<string, string> }> {
  if (clausesFile) return readClausesFile(clausesFile);
  const loaded = loadSpec() as unknown as { clauses: Array<ClauseInput & { retired?: boolean }>; areas?: unknown };
  // Area titles: from the loader when it gives them as a map, else from the YAML itself.
  const areas = loaded.areas && typeof loaded.areas === 'object' && !Array.isArray(loaded.areas)
    ? (loaded.areas as Record<string, string>)
    : readClausesFile(CLAUSES_YAML).areas;
  return { clauses: loaded.clauses.filter((c) => !c.retired).map(normalise), areas };
}

/** Area titles of spec/clauses.yaml ("DELIV: Delivery, timeouts and retries (6, 8)"); none when unreadable. */
export function contractAreaTitles(): Record<string, string> {
  try {
    return readClausesFile(CLAUSES_YAML).areas;
  } catch {
    return {};
  }
}
