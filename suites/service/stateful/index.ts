/** The model-based test of sections 2.3, 3 and 6 (combinations.spec.ts): the model, its commands, the runner. */
import type { ClauseId } from '../../../spec/index.ts';

export { runStateful, lanesFor, type StatefulEnv, type StatefulOptions, type StatefulOutcome } from './run.ts';
export { judgeStateful, rerunLine } from './judge.ts';
export { StepViolation } from './violation.ts';
export { Coverage, summarize, type CoverageSummary } from './coverage.ts';
export { TRANSITIONS, MIXED, EVENT_SEQUENCES, type TransitionRow } from './transitions.ts';
export { sequences } from './arbitraries.ts';

/** Every clause a condition of the model decides (the test's tags: a check may name only these). */
export const STATEFUL_CLAUSES: readonly ClauseId[] = [
  'EVT-1',
  'EVT-6',
  'EVT-8',
  'EVT-11',
  'EVT-15',
  'EVT-16',
  'EVT-17',
  'EVT-18',
  'EVT-19',
  'EVT-20',
  'EVT-21',
  'EVT-22',
  'EVT-23',
  'DELIV-13',
  'STATE-1',
  'STATE-2',
  'STATE-3',
  'STATE-4',
  'STATE-6',
  'STATE-7',
  'STATE-8',
  'ENV-3',
  'DATA-1',
  'DATA-2',
  'DATA-3',
  'DATA-4',
  'DATA-8',
  'DATA-9',
  'DATA-11',
  'DATA-12',
  'DATA-13',
  'PAGE-1',
  'PAGE-2',
  'PAGE-4',
  'PAGE-5',
];
