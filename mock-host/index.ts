/**
 * mock-host/: the scriptable host that records and explains every callback.
 * Other rooms import only this file.
 */
export { MockHost } from './server.ts';
export { JournalStore, matchesFilter, describeFilter, summarizeEntry } from './journal.ts';
export { summarizeLazy, type ChangeSummary } from './ui/events.ts';
export { printRequestLines, arrivalLine, finishLine } from './lines.ts';
export { validateScripts, parseScripts, STEP_ACTIONS } from './scripts/definitions.ts';
export type {
  ResponseScript,
  ScriptMatch,
  Step,
  StepAction,
  RespondStep,
  HoldStep,
  NeverStep,
  ResetStep,
  CloseStep,
  RefuseStep,
  FactsStep,
  FactsNotFittingStep,
} from './scripts/definitions.ts';
export { explainStep, explainScript, explainMatch } from './scripts/explain.ts';
export { buildFactsNotFitting } from './facts-not-fitting.ts';
export { validateRoute } from './routes.ts';
export { headerChecks } from './checks.ts';
export { isJsonContentType } from './content-type.ts';
export { waitForEntries, assertNothingArrives } from './assertions/wait.ts';
export { checkRetrySchedule } from './assertions/retry.ts';
export { checkStableAcrossAttempts } from './assertions/stable.ts';
export { checkEventOrder } from './assertions/order.ts';
export { checkBulkPages } from './assertions/bulk.ts';
export type {
  RouteKind,
  EntryKind,
  SigningConfig,
  RouteConfig,
  MockHostOptions,
  EntryFilter,
  JournalEntry,
  Journal,
  EntryPhase,
  JournalChange,
  EntryCheck,
  SignatureRecord,
  SignatureVerdictName,
  FaultName,
  FinishOutcome,
  Verdict,
} from './types.ts';
