/** Reads a conformance.json and re-renders junit.xml, summary.md and clauses.html beside it (`ccs-conformance report`). */
import { readFileSync } from 'node:fs';
import { CcsError } from '../spec/index.ts';
import type { ConformanceReport } from './model.ts';
import { assertValidReport } from './validate.ts';

export function readReport(file: string): ConformanceReport {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CcsError('REPORT_UNREADABLE', `cannot read the report ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  assertValidReport(doc);
  return doc as ConformanceReport;
}
