/**
 * The traffic judge's verdicts of a run, as the reports count them: each worker leaves its mock host's
 * journal and the judge's checks over it (`<project>-w<N>.judged.json` in the run's journal folder,
 * written by judge/service/run-journal.ts). They become one record per project, beside the tests', so a
 * rule is decided on every exchange of the run, whichever test caused it. Its not-exercised notes are
 * dropped here: in a driven run they are advice for `observe` ("no onComplete was answered 5xx: `--inject
 * onComplete=503`"), the suites exercise what they name, and a note beside the judge's passes would make
 * the clause pass only partly (reports/exercised.ts). Its passes, failures and warnings count. The
 * mutation matrix keeps the notes on a driver's part of a clause (spec DRIVER_PART_RULE): there they say the
 * judge decided the clause only in part, so a fault the tests caught on it is no disagreement with the judge.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DRIVER_PART_RULE, checkWords, isCheckRecord, type CheckRecord } from '../spec/index.ts';
import type { TestRecord } from './model.ts';

const JUDGED = /\.judged\.json$/;
/** Where the judge's code is, for a reader who wants to see how a record was decided. */
export const JUDGE_FILE = 'judge/service/judge.ts';
const JUDGE_TITLE = 'the traffic judge: every callback and facts GET the mock host received';

interface JudgedFile {
  project: string;
  worker: number;
  journal: string;
  callbacks: number;
  checks: CheckRecord[];
}

/** Which of the judge's records a reader keeps: its not-exercised notes only on a driver's part, if asked. */
function kept(keepDriverParts: boolean): (c: CheckRecord) => boolean {
  return (c) => c.outcome !== 'not-exercised' || (keepDriverParts && c.rule === DRIVER_PART_RULE);
}

function readJudged(file: string, keepDriverParts: boolean): JudgedFile | string {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<JudgedFile>;
    if (typeof v.project !== 'string' || typeof v.journal !== 'string') return `${file}: not a judged journal`;
    return {
      project: v.project,
      worker: Number(v.worker),
      journal: v.journal,
      callbacks: Number(v.callbacks ?? 0),
      checks: (Array.isArray(v.checks) ? v.checks.filter(isCheckRecord) : []).filter(kept(keepDriverParts)),
    };
  } catch (error) {
    return `${file}: ${(error as Error).message}`;
  }
}

/** Clears a journal folder before a run, so a verdict never reads an earlier run's traffic. */
export function clearJournals(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * One record per project of the judged journals in `dir` (none when the folder is absent); with
 * `keepDriverParts`, the notes on a driver's part of a clause stay (the mutation matrix's reading).
 */
export function judgedJournalRecords(dir: string, { keepDriverParts = false } = {}): TestRecord[] {
  if (!existsSync(dir)) return [];
  const byProject = new Map<string, { checks: CheckRecord[]; journals: string[]; callbacks: number; bad: string[] }>();
  for (const name of readdirSync(dir)
    .filter((n) => JUDGED.test(n))
    .sort()) {
    const judged = readJudged(join(dir, name), keepDriverParts);
    const project = typeof judged === 'string' ? '' : judged.project;
    let p = byProject.get(project);
    if (!p) byProject.set(project, (p = { checks: [], journals: [], callbacks: 0, bad: [] }));
    if (typeof judged === 'string') p.bad.push(judged);
    else {
      p.checks.push(...judged.checks);
      p.journals.push(judged.journal);
      p.callbacks += judged.callbacks;
    }
  }
  return [...byProject].map(([project, p]) => {
    const failed = p.checks.filter((c) => c.outcome === 'failed');
    const ok = failed.length === 0 && p.bad.length === 0;
    return {
      title: JUDGE_TITLE,
      file: JUDGE_FILE,
      line: 1,
      project,
      clauses: [...new Set(p.checks.flatMap((c) => c.clauses))],
      status: ok ? 'passed' : 'failed',
      ok,
      durationMs: 0,
      errors: [...p.bad, ...failed.slice(0, 5).map(checkWords)],
      skipReasons: [],
      evidence: [
        {
          sentence: `${p.callbacks} callback(s) of ${p.journals.length} worker journal(s) judged: ${p.journals.join(', ')}`,
        },
      ],
      checks: p.checks,
    };
  });
}
