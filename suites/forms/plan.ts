/**
 * The plan of the data API forms run: which service tests run in which combination of the forms
 * the contract leaves to each service (UNSPEC-8, UNSPEC-9; spec/data-api-forms.ts), against the
 * embedded reference serving only those forms. A test's requests depend on the configEnd form (every
 * data API request), the write body form (a write the harness builds) and the keyed write form (a
 * keyed write): each file below runs in every combination of the forms it lists, the other forms at
 * their defaults, so no combination repeats requests another already made. The run itself checks
 * that no test depends on a form its file does not list (the fixtures annotate what each test used),
 * and a self test that every spec file calling the data API is listed.
 */
import { allDataApiForms, dataApiFormsName, DEFAULT_DATA_API_FORMS, type DataApiForms } from '../../spec/index.ts';
import type { ProjectMeta } from '../shared/project-meta.ts';

/** A target field whose form a data API request depends on (suites/service/clients/service-client.ts DataFormField). */
export type FormField = 'dataApi.configEnd' | 'dataApi.keyedWrite' | 'dataApi.writeBody';
export const FORM_FIELDS: readonly FormField[] = ['dataApi.configEnd', 'dataApi.keyedWrite', 'dataApi.writeBody'];

const AXIS: Record<FormField, 'configEnd' | 'keyedWrite' | 'writeBody'> = {
  'dataApi.configEnd': 'configEnd',
  'dataApi.keyedWrite': 'keyedWrite',
  'dataApi.writeBody': 'writeBody',
};

export interface FormsEntry {
  /** A spec file of suites/service. */
  file: string;
  /** The forms its tests' requests depend on: it runs in every combination of these. */
  varies: readonly FormField[];
  /** Only its tests whose title or tags match (a regular expression); all when absent. */
  select?: string;
}

const ALL = FORM_FIELDS;
export const FORMS_ENTRIES: readonly FormsEntry[] = [
  // The model-based test: host writes with and without a key and every kind of read, judged against
  // the model (its sequences: FORMS_STATEFUL_RUNS, the same ones in every combination).
  { file: 'combinations.spec.ts', varies: ALL },
  // The data API clauses (DATA-*, ENV-*, STATE-2, STATE-3): reads, writes and keyed writes.
  { file: 'data-api-reads.spec.ts', varies: ALL },
  { file: 'data-api-unbound.spec.ts', varies: ALL },
  { file: 'data-api-writes.spec.ts', varies: ALL },
  { file: 'data-api-statuses.spec.ts', varies: ALL },
  // Their properties: reads, unkeyed writes and PUTs (a PUT by key is no keyed write).
  { file: 'property.data-api.spec.ts', varies: ['dataApi.configEnd', 'dataApi.writeBody'], select: '@DATA-\\d+\\b' },
  // Other tests that read or write the data API: unkeyed writes and reads.
  { file: 'error-bodies.spec.ts', varies: ['dataApi.configEnd', 'dataApi.writeBody'], select: 'data|@ERR-[23]\\b' },
  { file: 'error-outage.spec.ts', varies: ['dataApi.configEnd', 'dataApi.writeBody'], select: '@ERR-[45]\\b' },
  {
    file: 'routes-auth.spec.ts',
    varies: ['dataApi.configEnd', 'dataApi.writeBody'],
    select: 'data/\\{endUserHandle\\}',
  },
  { file: 'user-facts.spec.ts', varies: ['dataApi.configEnd', 'dataApi.writeBody'], select: '@FACTS-13\\b' },
  // Reads only.
  { file: 'lifecycle-deletes.spec.ts', varies: ['dataApi.configEnd'], select: '@(?:EVT-22|STATE-[78])\\b' },
  { file: 'lifecycle-states.spec.ts', varies: ['dataApi.configEnd'], select: '@STATE-[1-6]\\b' },
  { file: 'lifecycle-hooks.spec.ts', varies: ['dataApi.configEnd'], select: '@HOOK-4\\b' },
  { file: 'delivery-decoupled.spec.ts', varies: ['dataApi.configEnd'], select: '@DELIV-1[45]\\b' },
  { file: 'smoke.spec.ts', varies: ['dataApi.configEnd'], select: '@DATA-5\\b' },
];

/**
 * The 12 combinations. A keyed write in the body of a bare field map names its key member
 * `recordKey` (not the default `serviceKey`), so the run proves the declared member is the one used.
 */
export function formCombinations(): DataApiForms[] {
  return allDataApiForms((f) =>
    f.keyedWrite === 'body' && f.writeBody === 'bare' ? 'recordKey' : DEFAULT_DATA_API_FORMS.keyField,
  );
}

/** The entries that run in a combination: those whose unlisted forms are at their defaults there. */
export function entriesFor(forms: DataApiForms | undefined): FormsEntry[] {
  if (!forms) return [...FORMS_ENTRIES];
  return FORMS_ENTRIES.filter((e) =>
    FORM_FIELDS.every((f) => e.varies.includes(f) || forms[AXIS[f]] === DEFAULT_DATA_API_FORMS[AXIS[f]]),
  );
}

/** One project of the forms run's child (forms.config.ts). Serialized into CCS_MATRIX_PLAN. */
export interface FormsProject {
  name: string;
  /** Undefined for the default project: the reference as the service project starts it, the harness's default forms. */
  forms?: DataApiForms;
  testDir: string;
  /** File names (of testDir) the project loads. */
  files: string[];
  /** Matched against Playwright's grep title: the file name, the titles and the tags. */
  grep: string;
  grepInvert: string;
  metadata: ProjectMeta;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Sequences of the model-based test in each project of the forms run (the service project runs
 * CCS_STATEFUL_RUNS, 48 by default): here it is run for the forms its requests are written in, and
 * 13 projects of it share the run's two workers.
 */
export const FORMS_STATEFUL_RUNS = 12;

function projectOf(name: string, forms: DataApiForms | undefined, statefulSeed: number): FormsProject {
  const entries = entriesFor(forms);
  // The grep title holds the file's path, then the titles and tags: "/<file> " anchors an entry to its own file.
  const grep = entries.map((e) => `[\\\\/]${escape(e.file)} ${e.select ? `.*(?:${e.select})` : ''}`).join('|');
  return {
    name,
    ...(forms ? { forms } : {}),
    testDir: 'suites/service',
    files: entries.map((e) => e.file),
    grep: `(?:${grep})`,
    // The realtime copies of the retry tests run at time scale 1 in their own project: not here.
    grepInvert: '@realtime',
    // One base seed for the model-based test in every project: the same sequences reach the same
    // clauses in each combination, so that its verdicts compare clause by clause with the default's;
    // its sequences side by side in one round, one quiet window each project.
    metadata: {
      ccsFormsRun: '1',
      ccsStatefulRuns: String(FORMS_STATEFUL_RUNS),
      ccsStatefulSeed: String(statefulSeed),
      ccsStatefulOneRound: '1',
      ...(forms ? { ccsDataApi: JSON.stringify(forms) } : {}),
    },
  };
}

export const DEFAULT_FORMS_PROJECT = 'forms:default';

/** The default project (every entry) and one per combination; the model-based test's base seed random unless given. */
export function planFormsProjects(o: { statefulSeed?: number } = {}): FormsProject[] {
  const seed = o.statefulSeed ?? Math.floor(Math.random() * 0x7fffffff);
  const named = (f: DataApiForms): FormsProject => projectOf(`forms:${dataApiFormsName(f)}`, f, seed);
  return [projectOf(DEFAULT_FORMS_PROJECT, undefined, seed), ...formCombinations().map(named)];
}

/** The form fields an entry does not vary, for the plan check. */
export function unvaried(entry: FormsEntry): FormField[] {
  return FORM_FIELDS.filter((f) => !entry.varies.includes(f));
}
