/** Our own code files, for the self tests that judge the tree's layout (layout.spec.ts, widths.spec.ts). */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The rooms of our code: the folders tsconfig.json type-checks (CONTRIBUTING.md's table; layout.spec.ts). */
export const ROOMS: readonly string[] = (
  JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] }
).include.filter((p) => !p.includes('.'));

/** Folders that hold no code of ours: installed packages, build output, reports, runner output. */
const SKIPPED = new Set(['node_modules', 'out', 'dist', 'test-results', 'playwright-report', 'blob-report']);

/** Every .ts, .mts, .mjs and .js file under dir. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|mjs|js)$/.test(name)) out.push(path);
  }
  return out;
}
