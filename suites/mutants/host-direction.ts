/**
 * The host direction of the mutation matrix, for the shared runner (runner.ts): the host suites
 * (project `host`) against each faulty variant of the reference host receiver (CCS_HOST_FAULT).
 */
import { HOST_FAULTS } from '../../fixtures/host-receiver/index.ts';
import { observedClauses } from '../host/harness/host-tags.ts';
import type { MatrixDirection } from './runner.ts';

export const hostDirection: MatrixDirection = {
  name: 'host',
  project: 'host',
  faultEnv: 'CCS_HOST_FAULT',
  testDir: 'suites/host',
  // every mode's: the child runs the reference receiver in both (no host target)
  observedClauses: observedClauses({}),
  faults: HOST_FAULTS.filter((f) => f.matrix !== false).map((f) => ({
    name: f.name,
    clause: f.clause,
    ...(f.also ? { also: f.also } : {}),
    area: 'HOST',
    sentence: f.sentence,
  })),
};
