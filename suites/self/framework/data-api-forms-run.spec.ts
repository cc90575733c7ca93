/**
 * The data API forms run (UNSPEC-8, UNSPEC-9): its plan covers every service spec file that calls the data API,
 * runs each in the combinations of the forms it varies, and judges a combination by the default's verdicts.
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FORMS_ENTRIES,
  entriesFor,
  formCombinations,
  judgeForms,
  planFormsProjects,
  DEFAULT_FORMS_PROJECT,
} from '../../forms/index.ts';
import type { TestOutcome } from '../../mutants/index.ts';

const SERVICE_SUITES = fileURLToPath(new URL('../../service/', import.meta.url));

test.describe('the forms run', () => {
  test('every service spec file that calls the data API is in the forms plan', () => {
    const planned = new Set(FORMS_ENTRIES.map((e) => e.file));
    const calling = readdirSync(SERVICE_SUITES)
      .filter((f) => f.endsWith('.spec.ts'))
      .filter((f) =>
        /\bsvc\.(listRecords|getRecord|writeRecord|putRecord|dataPath)\(/.test(
          readFileSync(join(SERVICE_SUITES, f), 'utf8'),
        ),
      );
    expect(calling.length).toBeGreaterThan(2);
    expect(
      calling.filter((f) => !planned.has(f)),
      'spec files calling the data API missing from suites/forms/plan.ts',
    ).toEqual([]);
  });

  test('a file runs in every combination of the forms it varies, the others at their defaults', () => {
    const runs = (file: string) => formCombinations().filter((f) => entriesFor(f).some((e) => e.file === file)).length;
    expect(formCombinations()).toHaveLength(12);
    expect(runs('data-api-writes.spec.ts')).toBe(12);
    expect(runs('error-bodies.spec.ts')).toBe(6);
    expect(runs('lifecycle-states.spec.ts')).toBe(3);
    const projects = planFormsProjects();
    expect(projects.map((p) => p.name)).toContain(DEFAULT_FORMS_PROJECT);
    expect(
      new RegExp(projects[0]!.grep).test(
        ' forms:default service/data-api-writes.spec.ts writes a keyed POST (DATA-4) @DATA-4',
      ),
    ).toBe(true);
    expect(
      new RegExp(projects[0]!.grep).test(
        ' forms:default service/property.data-api.spec.ts upload status (UPLOAD-8) @UPLOAD-8 @property',
      ),
    ).toBe(false);
  });

  test("a combination fails on a clause whose verdict differs from the default's, and the plan on a form it does not vary", () => {
    const projects = planFormsProjects();
    const combination = projects[1]!;
    const outcome = (project: string, ok: boolean, annotations: TestOutcome['annotations'] = []): TestOutcome => ({
      file: 'service/error-bodies.spec.ts',
      title: 'the 404 answer (ERR-1)',
      tags: ['@ERR-1'],
      clauses: ['ERR-1'],
      outcome: ok ? 'passed' : 'failed',
      project,
      status: ok ? 'passed' : 'failed',
      ok,
      errors: ok ? [] : ['ERR-1: ...'],
      skipReasons: [],
      annotations,
      checks: [
        {
          clauses: ['ERR-1'],
          rule: 'the 404 body is the framework default',
          outcome: ok ? 'passed' : 'failed',
          ...(ok ? {} : { expected: 'no difference', seen: 'a message member' }),
        },
      ],
    });
    const same = judgeForms(projects, [outcome(DEFAULT_FORMS_PROJECT, true), outcome(combination.name, true)]);
    expect(same.combinations.find((c) => c.project === combination.name)?.differences).toEqual([]);
    const differs = judgeForms(projects, [outcome(DEFAULT_FORMS_PROJECT, true), outcome(combination.name, false)]);
    expect(differs.ok).toBe(false);
    expect(differs.combinations.find((c) => c.project === combination.name)?.differences).toEqual([
      {
        test: 'error-bodies.spec.ts › the 404 answer (ERR-1)',
        clause: 'ERR-1',
        expected: 'passed',
        seen: 'failed',
        words: ['ERR-1: the 404 body is the framework default: expected no difference, got a message member'],
      },
    ]);
    const gap = judgeForms(projects, [
      outcome(DEFAULT_FORMS_PROJECT, true, [
        { type: 'ccs-data-forms', description: 'dataApi.configEnd,dataApi.keyedWrite' },
      ]),
    ]);
    expect(gap.gaps).toEqual([
      {
        test: 'error-bodies.spec.ts › the 404 answer (ERR-1)',
        file: 'error-bodies.spec.ts',
        fields: ['dataApi.keyedWrite'],
      },
    ]);
  });
});
