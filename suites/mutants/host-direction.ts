/**
 * The host direction of the mutation matrix, for the shared runner (runner.ts): the host suites
 * (project `host`) against each faulty variant of the reference host receiver (CCS_HOST_FAULT).
 */
import { HOST_FAULTS } from '../../fixtures/host-receiver/index.ts';
import { observedClauses } from '../host/harness/host-tags.ts';
import type { MatrixDirection } from './runner.ts';
import { DEFAULT_HOST_MODEL_RUNS, loadFaultModel } from '../../spec/index.ts';
import type { ProjectMeta } from '../shared/project-meta.ts';

/** The words of a row's applies that say only the host model's sequences reach it (spec/faults/host.yaml). */
const MODEL_SEQUENCES = "the host model's sequences";

/**
 * The faults the host model-based test proves (a row that only its sequences reach): their runs keep it; the
 * others leave it out (@stateful), as the service direction does, since its sequences cost seconds a fault.
 */
function modelFaults(): Set<string> {
  const rows = loadFaultModel('host').rows.filter((r) => (r.applies ?? []).some((a) => a.includes(MODEL_SEQUENCES)));
  return new Set(rows.flatMap((r) => (r.fault ? [r.fault] : [])));
}

/**
 * Sequences of the host model-based test in the run of a fault it proves: four times the default, as the
 * service direction gives its own. The rarest counterexample, jwks-cache-drops-old-kid's (two rotations in a
 * JWKS sequence, then the earlier rotation's kid), was missed by 16 sequences with 3 of 12 seeds and met by 64
 * with each seed tried, those three among them. A run stops generating at its first failure, so a caught fault
 * costs about what the default does.
 */
export const MATRIX_HOST_MODEL_RUNS = 4 * DEFAULT_HOST_MODEL_RUNS;

export const hostDirection: MatrixDirection = {
  name: 'host',
  project: 'host',
  faultEnv: 'CCS_HOST_FAULT',
  testDir: 'suites/host',
  // every mode's: the child runs the reference receiver in both (no host target)
  observedClauses: observedClauses({}),
  faults: (() => {
    const model = modelFaults();
    return HOST_FAULTS.filter((f) => f.matrix !== false).map((f) => ({
      name: f.name,
      clause: f.clause,
      ...(f.also ? { also: f.also } : {}),
      area: 'HOST',
      sentence: f.sentence,
      ...(model.has(f.name)
        ? { metadata: { ccsStatefulRuns: String(MATRIX_HOST_MODEL_RUNS) } satisfies ProjectMeta }
        : { leaveOut: ['@stateful'] }),
    }));
  })(),
};
