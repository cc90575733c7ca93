/**
 * Clause ids and the test tags that cite them: the one pattern every room parses them with, and a
 * typed helper so that a mistyped id in a test tag fails to typecheck (ClauseId is generated from
 * spec/clauses.yaml by `npm run generate`).
 */
import { ccsError } from './errors.ts';
import { CLAUSE_IDS, type ClauseId } from './generated/clauses.ts';

/** The shape of a clause id: an area in capitals, a dash, a number from 1 (EVT-1, DELIV-14). */
export const CLAUSE_ID = /^[A-Z]+-[1-9][0-9]*$/;
/** A test tag citing a clause: '@' and a clause id. */
export const CLAUSE_TAG = /^@([A-Z]+-[1-9][0-9]*)$/;

/** Tags that mark how a test runs rather than what it cites. */
export type MarkerTag = '@realtime' | '@property' | '@mutant' | '@forms' | '@stateful';
export type ClauseTag = `@${ClauseId}`;

/** True when `value` has the shape of a clause id (whether or not the catalogue holds it). */
export function isClauseIdShape(value: string): boolean {
  return CLAUSE_ID.test(value);
}

/** The area of a clause id: 'DELIV' from 'DELIV-4'. */
export function areaOfClause(id: string): string {
  return id.replace(/-[1-9][0-9]*$/, '');
}

/** 'DELIV-4' from '@DELIV-4' (or from 'DELIV-4' when `bare` allows it); undefined for any other tag. */
export function clauseOfTag(tag: string, bare = false): string | undefined {
  if (CLAUSE_TAG.test(tag)) return tag.slice(1);
  return bare && CLAUSE_ID.test(tag) ? tag : undefined;
}

/**
 * Playwright tags citing clauses, typed: clauseTags('DELIV-4', 'DELIV-5') is
 * ['@DELIV-4', '@DELIV-5']; markers such as '@realtime' pass through as written.
 */
export function clauseTags(...ids: (ClauseId | MarkerTag)[]): (ClauseTag | MarkerTag)[] {
  return ids.map((id) => (id.startsWith('@') ? (id as MarkerTag) : (`@${id}` as ClauseTag)));
}

const KNOWN: ReadonlySet<string> = new Set(CLAUSE_IDS);

/** A clause id read from data (a vectors file): checked at run time, since tsc cannot see it. */
export function toClauseId(id: string): ClauseId {
  if (!KNOWN.has(id)) throw ccsError('SPEC_CLAUSE_UNKNOWN', { id });
  return id as ClauseId;
}
