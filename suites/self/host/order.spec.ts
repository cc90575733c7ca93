/**
 * The host run's length is its longest test's, the model-based test, when that test starts first: Playwright
 * hands out a project's tests in the order of their files' names (a directory's entries sorted by name), so
 * its file must sort before every other file of suites/host.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';

test('the host model-based test is the first file Playwright hands out in the host project', () => {
  const entries = readdirSync(fileURLToPath(new URL('../../host', import.meta.url))).sort((a, b) => a.localeCompare(b));
  expect(entries[0]).toBe('callback-sequences.spec.ts');
});
