/**
 * The model-based test of the host direction: random sequences of what the contract lets a service do to a
 * host (sections 4.1, 5.2, 6 and 7) — every event kind for a few users and conversations, redeliveries and
 * retries, forged, tampered and replayed copies in any order with the genuine one, JWKS rotations and the
 * previous HMAC secret where the target signs so, facts GETs at any point, data API reads answered 409, 503,
 * 404, 401, 400, with data null, or held and released — each answer checked against the model, and each
 * sequence judged by the host judge (the reads its onCompletes call for, redeliveries not handled twice, bad
 * copies refused, facts answers' shape, retries of failed reads). A failure shrinks to a minimal sequence,
 * printed as a script with its replay line; the run reports which transitions of the model it exercised
 * (suites/host/stateful/). CCS_HOST_MODEL_RUNS (ccs-conformance host --runs) sets how many sequences run.
 *
 * Its file name sorts first in suites/host: Playwright hands out a project's tests in the order of their files'
 * names, and this test, HOST-22's no-retry window (11 s) waited after its sequences, is the run's longest, so it
 * starts while the short tests fill the other workers (a self test keeps it first: suites/self/host/order.spec.ts).
 */
import { test, hostTags } from './fixtures.ts';
import { projectMeta } from '../shared/index.ts';
import { readSettings } from '../../spec/index.ts';
import { hostModelClauses, reportHostModel, runHostModel } from './stateful/index.ts';

const CLAUSES = hostModelClauses();
/** The most commands a sequence is generated with (those whose precondition fails are skipped). */
const MAX_COMMANDS = 24;

test(
  'random sequences of callbacks, bad copies, rotations, facts GETs and scripted data API answers keep to the ' +
    `host model of sections 4.1, 5.2, 6 and 7 (${CLAUSES.join(', ')})`,
  { tag: [...hostTags(...CLAUSES), '@property', '@stateful'] },
  async ({ host }, testInfo) => {
    const settings = readSettings();
    // The mutation matrix may give the run of a fault this test proves more sequences (suites/mutants/).
    const matrixRuns = Number(projectMeta(testInfo.project.metadata).ccsStatefulRuns ?? NaN);
    const runs = Number.isInteger(matrixRuns) && matrixRuns > 0 ? matrixRuns : settings.hostModelRuns;
    const { dataReadMs, requestMs } = host.target.timeouts;
    // Each round of sequences: its steps (each answered within requestMs) and the judge's wait for its reads;
    // then room for shrinking a failure, each candidate at most one such wait.
    test.setTimeout(Math.ceil(runs / 24) * (MAX_COMMANDS * requestMs + 5 * dataReadMs) + 240_000);
    const outcome = await runHostModel(host, testInfo.testId, {
      runs,
      maxCommands: MAX_COMMANDS,
      clauses: CLAUSES,
      ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
      ...(settings.seedPath !== undefined ? { path: settings.seedPath } : {}),
    });
    await reportHostModel(outcome, CLAUSES, host.fault);
  },
);
