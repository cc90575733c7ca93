/**
 * The journal a driven run leaves: every request one worker's mock host received, whichever test
 * caused it, in the format `observe` saves and reads back (journal-file.ts), with a first line saying
 * what the judge needs to know of the run (its time scale, tolerances and hook paths). The worker
 * judges it when it ends, with the same judge and the same options `observe --from` uses on the file,
 * so the run and a later `observe --from` of its journal give one verdict.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CheckRecord } from '../../spec/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { judgeJournal, type JudgeOptions, type Judgement } from './judge.ts';
import { writeJournal, type RunJournalMeta } from './journal-file.ts';

export type { RunJournalMeta };

/** The judge's checks over one worker's journal, saved beside it for the run's reports. */
export interface JudgedJournal {
  project: string;
  worker: number;
  /** The journal's file name, in the same folder. */
  journal: string;
  callbacks: number;
  checks: CheckRecord[];
}

export const JUDGED_SUFFIX = '.judged.json';

/** The judge's options for a run's journal: per-route signing, no secret (none is ever written to a report). */
export function runJudgeOptions(meta: RunJournalMeta, endNs: bigint): JudgeOptions {
  return {
    signing: 'per-route',
    timeScale: meta.timeScale,
    tolerances: meta.tolerances,
    hookPaths: meta.hookPaths,
    endNs,
    // a window still open at the end lasted to the end
    refusals: (meta.refusals ?? []).map((r) => ({
      startNs: BigInt(r.startMonoNs),
      endNs: r.endMonoNs !== undefined ? BigInt(r.endMonoNs) : endNs,
    })),
    ...(meta.jwksDocuments ? { jwksDocuments: meta.jwksDocuments } : {}),
    ...(meta.dropped > 0
      ? { gaps: { series: `the mock host's journal dropped ${meta.dropped} request(s) past its bound` } }
      : {}),
  };
}

/** The verdicts of a run's journal: what the worker reports and what `observe --from` gives from the file. */
export function judgeRunJournal(entries: JournalEntry[], meta: RunJournalMeta, endNs: bigint): Judgement {
  return judgeJournal(entries, runJudgeOptions(meta, endNs));
}

/** The file names of one worker's journal and its judged checks in `dir`. */
export function runJournalFiles(dir: string, project: string, worker: number): { journal: string; judged: string } {
  const base = `${project.replace(/[^A-Za-z0-9._-]+/g, '_')}-w${worker}`;
  return { journal: join(dir, `${base}.jsonl`), judged: join(dir, `${base}${JUDGED_SUFFIX}`) };
}

/**
 * Saves one worker's journal in `dir` and the judge's checks over it beside it (JudgedJournal): called
 * as the worker ends, when every test it ran is over and the traffic they caused is in its journal.
 */
export function keepRunJournal(
  dir: string,
  entries: JournalEntry[],
  endNs: bigint,
  meta: RunJournalMeta,
): JudgedJournal {
  mkdirSync(dir, { recursive: true });
  const files = runJournalFiles(dir, meta.project, meta.worker);
  writeJournal(files.journal, entries, endNs, meta);
  const judgement = judgeRunJournal(entries, meta, endNs);
  const judged: JudgedJournal = {
    project: meta.project,
    worker: meta.worker,
    journal: basename(files.journal),
    callbacks: judgement.callbacks,
    checks: [...judgement.verdicts.clauses().values()].flat(),
  };
  writeFileSync(files.judged, JSON.stringify(judged));
  return judged;
}
