/** Pieces both directions of the suites share. */
export { curlLine, shellQuote, MAX_INLINE_BODY_BYTES } from './curl.ts';
export type { CurlRequest } from './curl.ts';
export { check, notExercised, precondition, warnCheck, attachChecks, checksOf, show } from './checks.ts';
export { hintOfFailure, noAnswerHint, NO_ANSWER_HINT, TIMED_OUT_HINT, type NoAnswerAt } from './checks.ts';
export type { Checker, CheckId, CheckOptions, ClauseRef, Words } from './checks.ts';
export { FAULT_META, faultOf, keepingMatrixWorker } from './matrix-worker.ts';
export { projectMeta, type ProjectMeta } from './project-meta.ts';
