/**
 * Reads a conformance.json and re-renders junit.xml, summary.md and clauses.html beside it (`ccs-conformance report`).
 */
import { readFileSync } from 'node:fs';
import { ccsError } from '../spec/index.ts';
import type { ConformanceReport } from './model.ts';
import { assertValidReport } from './validate.ts';

/**
 * `validate: false` is for the run's own report, read back by the command that started the run:
 * the reporter checked it against the schema before writing it (write-reports.ts), and checking
 * it again costs a schema compile at the end of every run.
 */
export function readReport(file: string, o: { validate?: boolean } = {}): ConformanceReport {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw ccsError('REPORT_UNREADABLE', { file, reason: (error as Error).message.split('\n')[0] ?? '' });
  }
  if (o.validate !== false) assertValidReport(doc);
  return doc as ConformanceReport;
}
