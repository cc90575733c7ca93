/**
 * The host direction of the mutation matrix, for the shared runner (runner.ts): the host suites
 * (project `host`) against each faulty variant of the reference host receiver (CCS_HOST_FAULT).
 */
import { HOST_FAULTS } from '../../fixtures/host-receiver/index.ts';
import { observedClauses } from '../host/harness/host-tags.ts';
import type { MatrixDirection } from './runner.ts';
import { loadFaultModel } from '../../spec/index.ts';

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
      ...(model.has(f.name) ? {} : { leaveOut: ['@stateful'] }),
    }));
  })(),
};
