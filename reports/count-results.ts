/**
 * Prints the final line CI reads (PITFALLS, "Playwright and CI"): "N passed, N failed" counted from
 * the Playwright JSON reporter's results.json; ", N skipped" appended when tests were skipped.
 * passed = expected; failed = unexpected + flaky. Usage: tsx reports/count-results.ts [results.json]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readSettings } from '../spec/index.ts';

export function countLine(results: {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
}): string {
  const s = results.stats ?? {};
  const passed = s.expected ?? 0;
  const failed = (s.unexpected ?? 0) + (s.flaky ?? 0);
  const skipped = s.skipped ?? 0;
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2] ?? `${readSettings().reportDir}/results.json`;
  try {
    process.stdout.write(countLine(JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof countLine>[0]) + '\n');
  } catch (error) {
    process.stderr.write(`count-results: cannot read ${file}: ${(error as Error).message}\n`);
    process.stdout.write('0 passed, 1 failed\n');
    process.exitCode = 1;
  }
}
