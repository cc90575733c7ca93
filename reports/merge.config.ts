/**
 * Config for `playwright merge-reports` over shard blobs (`ccs-conformance report --merge`): re-runs
 * the reporters, the clause reporter included, so the merged report is decided exactly as an
 * unsharded run would be. Paths resolve from this file's folder.
 */
import { defineConfig } from '@playwright/test';

const outDir = process.env.CCS_REPORT_DIR ?? 'reports/out';
// Compiled JavaScript in the published package, TypeScript in the clone.
const ext = import.meta.url.endsWith('.js') ? '.js' : '.ts';

export default defineConfig({
  testDir: '..',
  reporter: [
    [process.env.CCS_REPORTER && process.env.CCS_REPORTER !== 'progress' ? process.env.CCS_REPORTER : 'line'],
    ['json', { outputFile: `${outDir}/results.json` }],
    [`./clause-reporter${ext}`, { outputDir: outDir }],
    ['html', { outputFolder: `${outDir}/playwright-html`, open: 'never' }],
  ],
});
