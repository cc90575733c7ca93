import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readSettings, SETTING_NAMES } from '../../../spec/index.ts';
import { ROOT } from './tarball.ts';
import { ROOMS } from '../source-files.ts';

/**
 * The CCS_* environment is read in one place (spec/settings.ts) and documented in one table
 * (CONTRIBUTING.md): a variable read elsewhere, or missing from the table, is a setting nobody can
 * find. The harness's own tests (suites/self) may keep knobs of their own.
 */

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'out') continue;
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

test('no file but spec/settings.ts reads a CCS_* variable from process.env', () => {
  const files = [...ROOMS.flatMap((r) => sources(join(ROOT, r))), join(ROOT, 'playwright.config.ts')];
  const readers = files
    .map((f) => relative(ROOT, f))
    .filter((f) => f !== join('spec', 'settings.ts') && !f.startsWith(join('suites', 'self')))
    .filter((f) => /process\.env\.CCS_|process\.env\[['"]CCS_/.test(readFileSync(join(ROOT, f), 'utf8')));
  expect(readers, `read these through readSettings() instead:\n${readers.join('\n')}`).toEqual([]);
});

test('CONTRIBUTING.md lists every CCS_* setting', () => {
  const doc = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const missing = SETTING_NAMES.filter((n) => !doc.includes(`\`${n}\``));
  expect(missing).toEqual([]);
});

test('settings have their defaults when unset and are typed when set', () => {
  const empty = readSettings({});
  expect(empty).toMatchObject({
    reportDir: 'reports/out',
    propertyRuns: 60,
    faults: [],
    mutants: [],
    progressTty: false,
  });
  expect(empty.workers).toBeUndefined();
  const set = readSettings({
    CCS_WORKERS: '3',
    CCS_SEED: '-42',
    CCS_FAULTS: 'a, b',
    CCS_REPORT_DIR: 'x',
    CCS_TARGET: '',
  });
  expect(set).toMatchObject({ workers: 3, seed: -42, faults: ['a', 'b'], reportDir: 'x' });
  expect(set.target, 'an empty variable counts as unset').toBeUndefined();
});
