/**
 * The signing modes under test, known when a spec file loads (tags are fixed before any worker
 * starts): both for the reference receiver, the target's one mode otherwise. Tags name only the
 * clauses of those modes, so a JWKS clause is never reported by an HMAC-only run.
 */
import type { ClauseId } from '../../../spec/index.ts';
import { loadHostTarget } from '../../../target/host/target.ts';

/** The signing modes a host test runs in (the receiver's, from the host target; none: signing off). */
export type Mode = 'hmac' | 'jwks' | 'none';

export function modesUnderTest(env: NodeJS.ProcessEnv = process.env): Mode[] {
  const file = env.CCS_HOST_TARGET;
  if (!file) return ['hmac', 'jwks'];
  return [loadHostTarget(file, env).signing.mode];
}

/** The signed modes under test (none is not a signing mode). */
export function signingModesUnderTest(env: NodeJS.ProcessEnv = process.env): Array<'hmac' | 'jwks'> {
  return modesUnderTest(env).filter((m): m is 'hmac' | 'jwks' => m !== 'none');
}

/** The verification clause of each signed mode under test: HOST-10 (HMAC), HOST-7 (JWKS). */
export function signedModeClauses(env: NodeJS.ProcessEnv = process.env): ClauseId[] {
  return signingModesUnderTest(env).map((m) => (m === 'hmac' ? 'HOST-10' : 'HOST-7'));
}
