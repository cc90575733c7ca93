/**
 * One judge over a driven run's traffic: every `run` leaves its workers' journals in its report folder,
 * and `observe --from` those journals gives, on every clause the traffic decides, the verdict the run
 * gave; against the clean reference service and against a seeded fault whose effect shows in the
 * callbacks. A disagreement is named per clause.
 */
import { test, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_DIR } from '../../../spec/index.ts';
import { ROOT, cli, readJson, statuses, tempDir } from '../cli/helpers.ts';

/** Tests whose traffic spans the signing modes, paging and session events, none of them at time scale 1. */
const GREP = ['HDR-5', 'PAGE-4', 'SIGN-12', 'SIGN-8', 'FACTS-2', 'EVT-5'];
const RUN_MS = 240_000;
const REAL = {
  CCS_RUN_CONFIG: join(ROOT, 'playwright.config.ts'),
  CCS_CLAUSES_FILE: join(ROOT, 'spec', 'clauses.yaml'),
  CCS_WORKERS: '2',
};
const DECIDED = new Set(['passed', 'failed']);

type Report = { clauses: Array<{ id: string; status: string }> };

/** The verdict of every journal of the run folder judged again with `observe --from`, per clause decided. */
async function observeJournals(dir: string): Promise<{ verdicts: Map<string, string>; journals: number }> {
  const folder = join(dir, JOURNAL_DIR);
  const journals = readdirSync(folder).filter((n) => n.endsWith('.jsonl'));
  const verdicts = new Map<string, string>();
  for (const name of journals) {
    const out = tempDir('ccs-run-journal-obs-');
    const o = await cli(['observe', '--from', join(folder, name), '--report-dir', out], REAL);
    // a journal with no lifecycle callback has no verdict (exit 2): nothing for it to agree on
    if (o.code === 2) continue;
    for (const [id, status] of Object.entries(statuses(readJson<Report>(join(out, 'conformance.json'))))) {
      if (!DECIDED.has(status)) continue;
      // over all journals a clause fails when it fails in one, as the run counts every worker's record
      if (verdicts.get(id) !== 'failed') verdicts.set(id, status);
    }
  }
  return { verdicts, journals: journals.length };
}

for (const fault of [undefined, 'attempt-header-on-config-saved']) {
  const what = fault ? `the seeded fault ${fault}` : 'the clean reference service';
  test(`observe --from a run's journals gives the run's verdict on every clause the traffic decides: ${what} (one judge)`, async () => {
    test.setTimeout(RUN_MS * 2);
    const dir = tempDir('ccs-run-journal-');
    const grep = GREP.flatMap((c) => ['--grep', c]);
    const args = ['run', ...grep, ...(fault ? ['--fault', fault] : []), '--report-dir', dir];
    const r = await cli(args, REAL, RUN_MS);
    expect(r.code, r.stdout + r.stderr).toBe(fault ? 1 : 0);
    const run = statuses(readJson<Report>(join(dir, 'conformance.json')));
    const { verdicts, journals } = await observeJournals(dir);
    expect(journals, 'the run left a journal per worker').toBeGreaterThan(0);
    expect(verdicts.size, 'observe decided clauses from the run journals').toBeGreaterThan(10);
    const disagreements = [...verdicts]
      .filter(([id, status]) => run[id] !== status)
      .map(([id, status]) => `${id}: run ${run[id] ?? 'absent'}, observe --from ${status}`);
    expect(disagreements, disagreements.join('\n')).toEqual([]);
    if (!fault) await expectRequireFull(dir);
    if (fault) expect(verdicts.get('HDR-5'), 'the judge fails the fault on its own clause').toBe('failed');
  });
}

/** observe --require-full over a journal: exit 1 with one line per MUST clause that passed only partly, else 0. */
async function expectRequireFull(dir: string): Promise<void> {
  const folder = join(dir, JOURNAL_DIR);
  const name = readdirSync(folder).find((n) => n.endsWith('.jsonl'))!;
  const out = tempDir('ccs-run-journal-full-');
  const o = await cli(['observe', '--from', join(folder, name), '--require-full', '--report-dir', out], REAL);
  type Clause = { id: string; level: string; status: string; exercised?: { seen: number; of: number } };
  const clauses = readJson<{ clauses: Clause[] }>(join(out, 'conformance.json')).clauses;
  const partly = clauses.filter(
    (c) =>
      c.level === 'MUST' && c.status === 'passed' && c.exercised !== undefined && c.exercised.seen < c.exercised.of,
  );
  expect(o.code, o.stdout + o.stderr).toBe(partly.length > 0 ? 1 : 0);
  for (const c of partly) expect(o.stderr).toContain(`error: MUST ${c.id} passed only partly (--require-full)`);
}
