/**
 * The data API forms run inside the test command: one child Playwright run with the default
 * project and a project per combination of the data API forms (runner.ts); the per-combination
 * verdicts are the tests of combinations.spec.ts, which read the data-forms.json written here.
 * Tagged @forms only: not conformance evidence for any clause.
 */
import { test, expect } from '@playwright/test';
import { DEFAULT_FORMS_DEADLINE_MS, renderForms, runFormsMatrix } from './index.ts';
import { clauseTags, readSettings } from '../../spec/index.ts';

test(
  'the data API tests run in every combination of the data API forms (data API forms)',
  { tag: clauseTags('@forms') },
  async () => {
    test.setTimeout(DEFAULT_FORMS_DEADLINE_MS + 60_000);
    const r = await runFormsMatrix({ reportDir: readSettings().reportDir });
    process.stdout.write(
      `${renderForms(r)}\ndata API forms: ${r.combinations.filter((c) => !c.error && c.differences.length === 0).length}/${r.combinations.length} combinations give the default's verdicts, in ${(r.durationMs / 1000).toFixed(0)} s\n`,
    );
    expect(r.error, r.error).toBeUndefined();
    expect(r.defaults.tests, 'tests of the default project').toBeGreaterThan(0);
  },
);
