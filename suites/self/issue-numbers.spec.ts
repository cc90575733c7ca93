import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from './source-files.ts';

/**
 * A comment or a string speaks of the code and the contract (what a thing does and why), never of
 * the tracker entry that asked for it: a reader of the code cannot open the tracker, and an entry's
 * number says nothing once it is closed. Our code files (.ts .mts .mjs .js) and YAML documents are
 * held to it; CHANGELOG.md and the other markdown may cite the tracker.
 */
const CHECKED = /\.(ts|mts|mjs|js|ya?ml)$/;

/** The folders source-files.ts skips: installed packages, build output, reports, runner output. */
const SKIPPED = new Set(['node_modules', 'out', 'dist', 'test-results', 'playwright-report', 'blob-report']);

/** The word followed by a number, "#" or not, in any case. */
const TRACKER_CITE = /\bissues?\s+#?\d+/i;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (CHECKED.test(name)) out.push(path);
  }
  return out;
}

test('no code file or YAML document cites a tracker issue by its number (layout)', () => {
  const cited: string[] = [];
  for (const f of files(ROOT)) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const m = TRACKER_CITE.exec(line);
        if (m) cited.push(`${relative(ROOT, f).split(sep).join('/')}:${i + 1}: ${m[0]}`);
      });
  }
  expect(cited, 'say what the code does and why, in the words of the code and the contract').toEqual([]);
});
