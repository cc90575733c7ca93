/**
 * The data API forms run inside the test command: the service tests that read or write the data
 * API, in every combination of the forms the contract leaves open (UNSPEC-8, UNSPEC-9), give the
 * verdicts they give in the default forms.
 */
export {
  FORMS_ENTRIES,
  FORM_FIELDS,
  FORMS_STATEFUL_RUNS,
  DEFAULT_FORMS_PROJECT,
  entriesFor,
  formCombinations,
  planFormsProjects,
  unvaried,
} from './plan.ts';
export type { FormField, FormsEntry, FormsProject } from './plan.ts';
export {
  DEFAULT_FORMS_DEADLINE_MS,
  FORMS_CONFIG,
  judgeForms,
  readFormsReport,
  renderForms,
  runFormsMatrix,
} from './runner.ts';
export type { CombinationResult, FormsResult, PlanGap, VerdictDifference } from './runner.ts';
