/**
 * observe judges a service from its callbacks alone, shown row by row: for each fault-model row marked
 * `traffic:`, observe with the row's flags passes the clean reference service driven by the team's own
 * script and decides the row's clause, and fails the row's seeded fault on that clause. Each row costs a
 * live run: CCS_MUTANTS limits the rows to those faults; without it, the first row of each distinct set
 * of flags runs. The day's sandbox and its JWKS and HMAC rotations show the faults of the rows in DAY_ROWS too.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFaultModel, readSettings, type FaultModelRow } from '../../../spec/index.ts';
import { RUN_DEADLINE_MS, failedOf, observeTeamRun, reasonsOf, statusOf } from './team-run.ts';

/**
 * A held attempt is judged against the 10 s timeout ± its tolerance, whose 400 ms floor at scale 0.1
 * (1000 ± 400 ms) cannot tell a 5 s timeout from a 10 s one. At 0.2 (2000 ± 500 ms) a success "just under"
 * the timeout must end in [1000, 1500) ms: hold:6500's 1300 ms had 200 ms to spare, and on a machine a CI run
 * and recipe runs shared its answer came later, leaving DELIV-3 undecided. At 0.5 it is [2500, 3750) for 3250.
 */
const scaleOf = (traffic: string): number => (/hold:/.test(traffic) ? 0.5 : 0.1);

/**
 * The row's flags as observe's --inject values; --facts-path and --data-api rows run with the default
 * retries to see (and a --data-api row reads back from the reference service's data API).
 */
function injectsOf(traffic: string): string[] {
  const inject = /^--inject (\S+)$/.exec(traffic.trim());
  return inject ? [inject[1]!] : ['onComplete=503,503'];
}

/** Clauses a clean run with these flags decides besides its rows' own (no seeded fault of theirs is marked). */
const ALSO_DECIDED: Record<string, string[]> = {
  '--data-api URL --token-env NAME': ['STATE-4'],
};

const model = loadFaultModel('service');
const rows = model.rows.filter((r) => r.traffic !== undefined && r.fault !== undefined);
const limit = readSettings().mutants;
const chosen: FaultModelRow[] = limit.length
  ? rows.filter((r) => limit.includes(r.fault!))
  : rows.filter((r, i) => rows.findIndex((x) => x.traffic === r.traffic) === i);
const flagSets = [...new Set(chosen.map((r) => r.traffic!))];

/**
 * Rows the fault model does not mark `traffic:` whose fault the day shows in its callbacks, with the signing
 * mode that shows it: the sandbox's own kid (SIGN-10, before and after its parent's rotation), the kid a JWS
 * names after the rotation (SIGN-9), the sandbox's own secret (SIGN-13), the secret a callback is made with after
 * the demo's HMAC rotation (SIGN-14). SIGN-9/old-kid-after-rotation is not
 * here: signing on with the old kid is shown only by a driven run (SIGN-9 reading).
 */
const DAY_ROWS: Record<string, 'jwks' | 'hmac'> = {
  'SIGN-10/same-kid': 'jwks',
  'SIGN-10/shared-kid-after-rotation': 'jwks',
  'SIGN-9/old-kid-new-key': 'jwks',
  'SIGN-13/parent-secret': 'hmac',
  'SIGN-14/neither-secret': 'hmac',
};
const dayRows = model.rows.filter((r) => r.row in DAY_ROWS && (!limit.length || limit.includes(r.fault!)));

// one run after another (each starts two processes), and a failed row never stops the others
test.describe.configure({ mode: 'default' });

for (const traffic of flagSets) {
  const clauses = [
    ...new Set([...chosen.filter((r) => r.traffic === traffic).map((r) => r.clause), ...(ALSO_DECIDED[traffic] ?? [])]),
  ];
  test(`observe ${traffic} passes the clean reference service and decides its rows' clauses (${clauses.join(' ')})`, async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-rows-'));
    try {
      const { code, report, out } = await observeTeamRun(dir, {
        timeScale: scaleOf(traffic),
        injects: injectsOf(traffic),
        dataApi: traffic.startsWith('--data-api'),
      });
      expect(failedOf(report), out).toEqual([]);
      expect(code, out).toBe(0);
      for (const c of clauses) expect(statusOf(report, c), `${c}: ${reasonsOf(report, c)}\n${out}`).toBe('passed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

for (const row of chosen) {
  test(`observe ${row.traffic} fails the seeded fault ${row.fault} on its row ${row.row} (${row.clause})`, async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-rows-'));
    try {
      const { code, report, out } = await observeTeamRun(dir, {
        faults: [row.fault!],
        timeScale: scaleOf(row.traffic!),
        injects: injectsOf(row.traffic!),
        dataApi: row.traffic!.startsWith('--data-api'),
      });
      expect(failedOf(report), `${row.clause}: ${reasonsOf(report, row.clause)}\n${out}`).toContain(row.clause);
      expect(code, out).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('every row the day shows is a row of the fault model with its seeded fault (SIGN-9 SIGN-10 SIGN-13 SIGN-14)', () => {
  const known = model.rows.filter((r) => r.fault !== undefined).map((r) => r.row);
  expect(Object.keys(DAY_ROWS).filter((id) => !known.includes(id))).toEqual([]);
});

for (const row of dayRows) {
  const signing = DAY_ROWS[row.row]!;
  test(`observe of the day in ${signing} mode fails the seeded fault ${row.fault} on its row ${row.row} (${row.clause})`, async () => {
    test.setTimeout(RUN_DEADLINE_MS * 2);
    const dir = mkdtempSync(join(tmpdir(), 'ccs-observe-rows-'));
    try {
      const o = { faults: [row.fault!], timeScale: 0.1, injects: ['onComplete=503,503'], signing };
      const { code, report, out } = await observeTeamRun(dir, o);
      expect(failedOf(report), `${row.clause}: ${reasonsOf(report, row.clause)}\n${out}`).toContain(row.clause);
      // and no clause the fault does not break by its nature
      const own = [row.clause, ...(model.faults.find((f) => f.name === row.fault)?.also ?? [])];
      expect(
        failedOf(report).filter((c) => !own.includes(c)),
        out,
      ).toEqual([]);
      expect(code, out).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
