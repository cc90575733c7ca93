/**
 * Config for `playwright merge-reports` over shard blobs (`ccs-conformance report --merge`): re-runs
 * the reporters, the clause reporter included, so the merged report is decided exactly as an
 * unsharded run would be. Paths resolve from this file's folder.
 */
import { defineConfig } from '@playwright/test';
import { readSettings } from '../spec/index.ts';

const settings = readSettings();
const outDir = settings.reportDir;
// Compiled JavaScript in the published package, TypeScript in the clone.
const ext = import.meta.url.endsWith('.js') ? '.js' : '.ts';

export default defineConfig({
  testDir: '..',
  reporter: [
    [settings.reporter && settings.reporter !== 'progress' ? settings.reporter : 'line'],
    ['json', { outputFile: `${outDir}/results.json` }],
    [`./clause-reporter${ext}`, { outputDir: outDir }],
    ['html', { outputFolder: `${outDir}/playwright-html`, open: 'never' }],
  ],
});
