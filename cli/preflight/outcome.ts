/**
 * What a failed preflight leaves: one line on stderr and in the report folder's summary.md, exit 2,
 * and no verdict. A release gate reading the folder must not find an earlier run's PASS, so the
 * report files a run writes (conformance.json, junit.xml, clauses.html, results.json) are removed;
 * nothing written says pass or fail of a clause, because no clause was run.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES } from '../../reports/index.ts';

export type PreflightResult = { ok: true; notes: string[] } | { ok: false; line: string };

/** The exit code of a target that does not answer: the same as a configuration error. */
export const PREFLIGHT_EXIT = 2;

/** Writes the failure line (stderr, summary.md), clears stale report files, returns exit code 2. */
export function preflightFailed(command: 'run' | 'host', line: string, reportDir: string): number {
  const full = `ccs-conformance ${command}: preflight: ${line}; no clause was run`;
  for (const f of [...REPORT_FILES, 'results.json']) rmSync(join(reportDir, f), { force: true });
  try {
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(
      join(reportDir, 'summary.md'),
      [
        '# Conformance: not run (preflight failed)',
        '',
        full,
        '',
        'No clause was run: the run stopped before any test because the target did not answer.',
        'Fix the field named above and run again.',
        '',
      ].join('\n'),
    );
  } catch {
    // An unwritable report folder must not hide the line: it is on stderr either way.
  }
  process.stderr.write(`${full}\n`);
  return PREFLIGHT_EXIT;
}

/** The notes of a passed preflight, one line on stdout. */
export function preflightPassed(notes: string[]): void {
  if (notes.length > 0) process.stdout.write(`preflight: ${notes.join('; ')}\n`);
}

/** What the driver's capabilities document told the service preflight, for the checks after it. */
export interface Discovered {
  capabilities: string[];
  timeScale: number | undefined;
}
