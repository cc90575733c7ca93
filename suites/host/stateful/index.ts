/**
 * The model-based test of the host direction (suites/host/callback-sequences.spec.ts): the model, its commands,
 * the runner.
 */
import type { ClauseId } from '../../../spec/index.ts';
import { signingModesUnderTest } from '../harness/modes.ts';

export { runHostModel, type HostModelOptions, type HostModelOutcome, type HostModelFailure } from './run.ts';
export { reportHostModel, hostRerunLine } from './report.ts';
export { HostStepViolation } from './violation.ts';
export { HostCoverage, summarizeHost, HOST_ROWS } from './coverage.ts';

/**
 * Every clause a condition of the host model decides, for the signing modes under test (the test's tags: a
 * check may name only these): the answers (HOST-1, HOST-3, HOST-11, HOST-12, HOST-14, HOST-16), the verifiers
 * of what signed (HOST-9 in HMAC with a previous secret; HOST-7, HOST-8 in JWKS; HOST-10), the bad copies'
 * refusals (HOST-4, HOST-5, HOST-7, HOST-10), and what the judge holds the exchanges to (HOST-11, HOST-12,
 * HOST-13, HOST-15, HOST-21, HOST-22).
 */
export function hostModelClauses(env: NodeJS.ProcessEnv = process.env): ClauseId[] {
  const modes = signingModesUnderTest(env);
  const hmac: ClauseId[] = modes.includes('hmac') ? ['HOST-4', 'HOST-9', 'HOST-10'] : [];
  const jwks: ClauseId[] = modes.includes('jwks') ? ['HOST-7', 'HOST-8'] : [];
  const signed: ClauseId[] = modes.length > 0 ? ['HOST-3', 'HOST-5'] : [];
  const all: ClauseId[] = [
    'HOST-1',
    ...signed,
    ...hmac,
    ...jwks,
    'HOST-11',
    'HOST-12',
    'HOST-13',
    'HOST-14',
    'HOST-15',
    'HOST-16',
    'HOST-21',
    'HOST-22',
  ];
  return [...new Set(all)].sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
}
