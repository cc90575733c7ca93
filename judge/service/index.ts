/**
 * judge/service/: the traffic judge of the service direction, behind `ccs-conformance observe` and every
 * driven run.
 */
export { judgeJournal, type Gaps, type JudgeOptions, type Judgement } from './judge.ts';
export { observeReport, notFromTraffic, NOT_FROM_TRAFFIC, type ObserveReportInput } from './report.ts';
export { Verdicts } from './verdicts.ts';
export { retriesDueUntilNs } from './triggers.ts';
export type { DeclaredSigning } from './words.ts';
export { readBack, notReadBack, type ReadBackOptions } from './read-back.ts';
export { ArrivalReader, type ArrivalReads } from './read-at-arrival.ts';
export {
  keepRunJournal,
  judgeRunJournal,
  runJudgeOptions,
  runJournalFiles,
  JUDGED_SUFFIX,
  type JudgedJournal,
} from './run-journal.ts';
export { writeJournal, endRecord, runJournalMetaOf, RUN_JOURNAL_META, type RunJournalMeta } from './journal-file.ts';
