/**
 * The model-based test of sections 2.3, 3 and 6 together: random sequences of the driver's
 * triggers (open, turns saving several Setting and List instances, complete, delete, scope
 * delete, interrupt, idle sweep, migration hold, seeding) and the host's own requests (writes
 * with and without a key, List, Setting and key reads), each checked step by step against an
 * executable model of the records' states and envelopes, what the data API answers, and exactly
 * which callbacks the service sends (suites/service/stateful/). Where the driver lets the harness
 * either name what a trigger covers or leave it to the service (a completion's keys, a scope delete's
 * configEnd and keys, a save's configEnd), sequences do both, and the model predicts what the service
 * must decide from its own tracking (EVT-6, STATE-8 readings). A failure shrinks to a minimal
 * sequence, printed as a script with a curl line per request, replayed by its seed. Steered steps
 * among the random ones (stateful/commands-steer.ts) take the model toward the rarest rows, so a
 * default run reaches every row; the run prints which rows of section 3's transition table, which
 * mixed-scope triggers and which event sequences of section 6 its sequences exercised
 * (stateful/coverage.ts), naming the rows not reached; a completion or scope-delete row counts only
 * where the service decided.
 *
 * Its sequences are the service project's longest run: the file's name sorts it first, so it
 * starts while the retry schedules of service-realtime wait, not after the short tests.
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import { projectMeta } from '../shared/index.ts';
import { clauseTags, readSettings } from '../../spec/index.ts';
import { STATEFUL_CLAUSES, judgeStateful, lanesFor, runStateful } from './stateful/index.ts';

/**
 * The most commands a sequence is generated with (those whose precondition fails are skipped): shrinking makes a
 * failing one short.
 */
const MAX_COMMANDS = 160;
/** Wall time the sequences should take when none fails (the run's other tests share the window). */
const BUDGET_MS = 12_000;

waiting(() =>
  test(
    'random sequences of chat triggers and host requests keep to the model of record states, data API answers and callbacks (EVT-1, EVT-6, EVT-8, EVT-11, EVT-15, EVT-16, EVT-17, EVT-18, EVT-19, EVT-20, EVT-21, EVT-22, EVT-23, DELIV-13, STATE-1, STATE-2, STATE-3, STATE-4, STATE-6, STATE-7, STATE-8, ENV-3, DATA-1, DATA-2, DATA-3, DATA-4, DATA-8, DATA-9, DATA-11, DATA-12, DATA-13, PAGE-1, PAGE-2, PAGE-4, PAGE-5)',
    { tag: clauseTags(...STATEFUL_CLAUSES, '@property', '@stateful') },
    async ({ target, host, driver, timing, makeWorkspace, evidence }) => {
      driver.requireCapability('workspaces');
      const settings = readSettings();
      // The mutation matrix gives the run of a fault this test proves more sequences (suites/mutants/index.ts).
      const matrixRuns = Number(projectMeta(test.info().project.metadata).ccsStatefulRuns ?? NaN);
      const o = {
        runs: Number.isInteger(matrixRuns) && matrixRuns > 0 ? matrixRuns : settings.statefulRuns,
        maxCommands: MAX_COMMANDS,
        budgetMs: BUDGET_MS,
        ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
      };
      const { perLane } = lanesFor(o, timing);
      // Room for the sequences, then for shrinking a failure (each candidate a few steps and at most one short window).
      test.setTimeout(perLane * (timing.quietWindowMs() + 3_000) + 120_000);
      const outcome = await runStateful({ target, host, driver, timing, makeWorkspace }, o);
      judgeStateful(outcome, STATEFUL_CLAUSES, evidence, target.faults);
    },
  ),
);
