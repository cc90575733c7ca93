/**
 * One test per combination of the data API forms, each reading its verdict from the
 * data-forms.json that run.setup.ts wrote: every clause of every test it ran has the verdict the
 * same test gives it in the default forms. And one for the plan: no test depends on a form the
 * plan does not vary for its file.
 */
import { test, expect } from '@playwright/test';
import { formCombinations, readFormsReport } from './index.ts';
import { clauseTags, dataApiFormsName, describeDataApiForms, readSettings } from '../../spec/index.ts';

for (const forms of formCombinations()) {
  const name = `forms:${dataApiFormsName(forms)}`;
  test(
    `the data API clauses keep the default's verdicts with ${describeDataApiForms(forms)}${forms.keyedWrite === 'body' ? ` (key member ${forms.keyField})` : ''} (data API forms)`,
    { tag: clauseTags('@forms') },
    () => {
      const report = readFormsReport(readSettings().reportDir);
      const c = report.combinations.find((x) => x.project === name);
      expect(c, `${name} has no result in ${report.path}`).toBeDefined();
      test.info().annotations.push({
        type: 'ccs-forms',
        description: `${c!.tests} tests, ${c!.clauses} clause verdicts compared; ${c!.differences.length} differ`,
      });
      expect(c!.error, c!.error).toBeUndefined();
      const words = c!.differences.map(
        (d) =>
          `${d.clause} in "${d.test}": ${d.expected} in the default forms, ${d.seen} here${d.words.length ? ` (${d.words.join('; ')})` : ''}`,
      );
      expect(words, words.join('\n')).toEqual([]);
      expect(c!.unmatched, `tests that ran here but not in the default project: ${c!.unmatched.join('; ')}`).toEqual(
        [],
      );
      expect(c!.tests, 'tests that ran in this combination').toBeGreaterThan(0);
    },
  );
}

test(
  'no data API test depends on a form the forms plan does not vary for its file (data API forms)',
  { tag: clauseTags('@forms') },
  () => {
    const report = readFormsReport(readSettings().reportDir);
    const gaps = report.gaps.map(
      (g) => `${g.test} depends on ${g.fields.join(', ')}: vary it for ${g.file} in suites/forms/plan.ts`,
    );
    expect(gaps, gaps.join('\n')).toEqual([]);
  },
);
