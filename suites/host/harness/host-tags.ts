/**
 * The tags of every host test: its own clauses, then the clauses the observer judges on every request the
 * receiver makes to the harness's service side (observer.ts): HOST-13, HOST-21, HOST-22, and HOST-8 when
 * JWKS mode is under test. A test's own clauses are the ones its title cites (CONTRIBUTING: titles end with
 * them); a clause only the observer adds is decided by its failures alone, and noted not exercised otherwise
 * (observer.ts), so no host test passes or blocks it on silence.
 */
import { clauseTags, type ClauseId } from '../../../spec/index.ts';
import { signingModesUnderTest } from './modes.ts';

/** The clauses the observer judges in every host test (HOST-8 only when a JWKS receiver is under test). */
export function observedClauses(env: NodeJS.ProcessEnv = process.env): ClauseId[] {
  const jwks: ClauseId[] = signingModesUnderTest(env).includes('jwks') ? ['HOST-8'] : [];
  return ['HOST-13', 'HOST-21', 'HOST-22', ...jwks];
}

/** A host test's tags: its own clauses, then the observer's (each once). */
export function hostTags(...own: readonly ClauseId[]): string[] {
  return clauseTags(...new Set([...own, ...observedClauses()]));
}

/** The clauses a test's title cites: the test's own (the rest of its tags are the observer's). */
export function titleClauses(title: string): Set<string> {
  return new Set(title.match(/\b[A-Z]+-[1-9][0-9]*\b/g) ?? []);
}
