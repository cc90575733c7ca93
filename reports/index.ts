/** The reports room: the clause reporter's pieces, renderers, the gate and the expected-outcomes file. */
export type {
  ClauseLevel,
  ClauseStatus,
  ClauseInput,
  ClauseRecord,
  ConformanceReport,
  Evidence,
  Exercised,
  ExpectedOutcomes,
  FailedCheck,
  Reproduction,
  StatusTotals,
  TestRecord,
  TestStatusName,
  TimelineEntry,
  TimelineSpec,
  TimelineWindow,
} from './model.ts';
export { CONFORMANCE_PROJECTS, CLAUSE_TAG, RUN_SIDE_OF_PROJECT, areaOf } from './model.ts';
export { buildReport, runSides, type BuildInput } from './build-report.ts';
export {
  attributeTest,
  citedClauses,
  type AttributableTest,
  type TestClauseOutcome,
  type TestClauseStatus,
} from './attribution.ts';
export { checkClauseIds, type ClauseIdProblems } from './check-clause-ids.ts';
export { Redactor, REDACTED, loadSecrets } from '../spec/index.ts';
export { reproductionFor, reproContextFromEnv, seededFaultsFromEnv, type ReproContext } from './repro.ts';
export { assertValidReport, prepareReportValidator, reportProblems, conformanceSchema } from './validate.ts';
export { renderJunit, xmlEscape } from './render-junit.ts';
export { renderSummary, notInRunLines, notExercisedLines, partlyLines, type SummaryOptions } from './render-summary.ts';
export {
  clauseCheckLines,
  failedCheckLine,
  groupFailedChecks,
  middleCut,
  seenFirst,
  splitWhere,
} from './failure-lines.ts';
export { recipeLink, runOnlyHints, withoutHints, type Hint } from './hints.ts';
export { renderHtml, htmlEscape, type RenderHtmlOptions } from './render-html.ts';
export { renderTimeline, judgeWindows, attemptsOf, type WindowVerdict } from './render-timeline.ts';
export { sectionLink, githubSlug, CONTRACT_SECTIONS } from './contract-sections.ts';
export { writeReports, rerender, REPORT_FILES } from './write-reports.ts';
export { readReport } from './render.ts';
export { loadClauses, readClausesFile, contractAreaTitles } from './load-clauses.ts';
export { loadExpectedOutcomes, parseExpectedOutcomes } from './expected.ts';
export { applyGate, type GateOptions, type GateResult } from './gate.ts';
export {
  PARTLY,
  exercisedOf,
  fractionWords,
  isPartly,
  notSeenGroups,
  partlyClauses,
  partlyWords,
} from './exercised.ts';
export { countLine } from './count-results.ts';
export { generateDocs, staleDocs, renderConfigReference, renderClauseList } from './generate-docs.ts';
export { clausesOf, toTestRecord, COVERAGE_ANNOTATION } from './collect.ts';
export { scrubDir, scrubFile } from './scrub.ts';
export {
  default as ClauseReporter,
  DEFAULT_TARGET_DESCRIPTION,
  type ClauseReporterOptions,
} from './clause-reporter.ts';
export { judgedJournalRecords, clearJournals, JUDGE_FILE } from './judged-journals.ts';
