/**
 * What a Playwright project's metadata tells the suites' fixtures and tests: the one list of its
 * keys. The mutation matrix (suites/mutants/) and the data API forms run (suites/forms/) write them
 * into the projects they plan; the fixtures, the model-based test and the data API client read them.
 * Values are strings, as project metadata travels to the workers as JSON.
 */
export interface ProjectMeta {
  /** The reference service's seeded fault (mutation matrix, service direction). */
  ccsFault?: string;
  /** The reference host receiver's seeded fault (mutation matrix, host direction). */
  ccsHostFault?: string;
  /** The data API forms the embedded reference serves and the target declares (JSON of DataApiForms). */
  ccsDataApi?: string;
  /** '1' in a project of the data API forms run: requests in other forms are reported to it. */
  ccsFormsRun?: string;
  /** How many sequences the model-based test runs. */
  ccsStatefulRuns?: string;
  /** The model-based test's base seed (lane i takes seed + i). */
  ccsStatefulSeed?: string;
  /** '1': the model-based test's sequences run side by side in one round. */
  ccsStatefulOneRound?: string;
}

/** A project's metadata as the suites read it (keys it does not know are left out of the type). */
export function projectMeta(metadata: unknown): ProjectMeta {
  return (metadata ?? {}) as ProjectMeta;
}
