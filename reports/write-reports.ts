/**
 * Writes conformance.json (validated first: an invalid report is an error, printed loudly),
 * junit.xml, summary.md and clauses.html into one folder. Every file goes through the redactor
 * once more, as text, so no listed secret reaches the disk whatever its path in.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './model.ts';
import { Redactor, loadSecrets } from '../spec/index.ts';
import { assertValidReport } from './validate.ts';
import { renderJunit } from './render-junit.ts';
import { renderSummary } from './render-summary.ts';
import { renderHtml } from './render-html.ts';

export const REPORT_FILES = ['conformance.json', 'junit.xml', 'summary.md', 'clauses.html'] as const;

export function writeReports(
  report: ConformanceReport,
  dir: string,
  redactor: Redactor = new Redactor(loadSecrets()),
): string[] {
  const clean = redactor.value(report);
  assertValidReport(clean);
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['conformance.json', JSON.stringify(clean, null, 2) + '\n'],
    ['junit.xml', renderJunit(clean)],
    ['summary.md', renderSummary(clean, { dir })],
    ['clauses.html', renderHtml(clean, { dir })],
  ];
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, redactor.literal(text));
    return path;
  });
}

/** Re-renders the human files (summary, junit, HTML) from an existing report, e.g. `ccs-conformance report`. */
export function rerender(report: ConformanceReport, dir: string): string[] {
  return writeReports(report, dir);
}
