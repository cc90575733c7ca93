/**
 * The report builder's input in the build-report self tests: a synthetic run over the clauses of helpers.ts, and
 * a clean set of tests (passed, skipped with a reason, a self test and a failed mutants test that never count).
 */
import type { BuildInput } from '../../../reports/index.ts';
import { CLAUSES, t } from './helpers.ts';

const now = new Date().toISOString();
/** A run of these tests, with the run fields of `extra`. */
export function input(tests: BuildInput['tests'], extra: Partial<BuildInput> = {}): BuildInput {
  return {
    runId: 'r1',
    startedAt: now,
    endedAt: now,
    targetDescription: 'synthetic',
    projects: ['service', 'service-realtime', 'host'],
    clauses: CLAUSES,
    tests,
    ...extra,
  };
}

export const clean = [
  t({ title: 'a', clauses: ['FOO-1'], evidence: [{ sentence: 'a saw it' }] }),
  t({ title: 'b', clauses: ['FOO-1', 'FOO-2'], project: 'service-realtime' }),
  t({ title: 'c', clauses: ['FOO-3'] }),
  t({
    title: 'd',
    clauses: ['BAR-1'],
    status: 'skipped',
    skipReasons: ['capability widgets not offered by the target'],
  }),
  t({ title: 'e', clauses: ['BAR-4'], project: 'self' }),
  t({ title: 'f', clauses: ['BAR-4'], project: 'mutants', status: 'failed', ok: false, errors: ['x'] }),
];
