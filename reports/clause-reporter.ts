import type { Reporter } from '@playwright/test/reporter';

/** Placeholder until the clause reporter lands (issue 2, item 7). */
export default class ClauseReporter implements Reporter {
  constructor(_options: { outputDir?: string } = {}) {}
}
