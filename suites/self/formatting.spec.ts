import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One formatter decides layout (CONTRIBUTING): Prettier, print width 120 (.prettierrc.json), over
 * every code file it does not ignore (.prettierignore). `npm run format` mends what this finds.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

test('every code file is as the formatter writes it (layout)', () => {
  const bin = resolve(ROOT, 'node_modules/prettier/bin/prettier.cjs');
  const r = spawnSync(process.execPath, [bin, '--list-different', '.'], { cwd: ROOT, encoding: 'utf8' });
  const unformatted = r.stdout.split('\n').filter(Boolean);
  expect(r.stderr, 'prettier ran without errors').toBe('');
  expect(unformatted, 'files to format with `npm run format`').toEqual([]);
});
