/**
 * One test per fault of a direction, each reading its verdict from the mutants.json that
 * run.setup.ts wrote: caught, by a failed check of the fault's clause; and every fault-model row
 * that names the fault as its proof (spec/faults/<side>.yaml) caught by that row's own check.
 */
import { test, expect } from '@playwright/test';
import { readMatrixReport, type MatrixDirection } from './index.ts';
import { clauseTags, loadFaultModel, readSettings } from '../../spec/index.ts';

export function declareVerdictTests(
  direction: MatrixDirection,
  title: (fault: string, clause: string) => string,
): void {
  const only = readSettings().mutants;
  for (const fault of direction.faults) {
    if (only.length && !only.includes(fault.name)) continue;
    test(title(fault.name, fault.clause), { tag: clauseTags('@mutant') }, () => {
      const report = readMatrixReport(readSettings().reportDir);
      const r = report.faults.find((f) => f.direction === direction.name && f.fault === fault.name);
      expect(r, `${fault.name} has no verdict in ${report.reportPath}`).toBeDefined();
      test.info().annotations.push({
        type: 'ccs-mutant',
        description: `${r!.status}${r!.caughtBy.length ? ` by ${r!.caughtBy.join('; ')}` : ''}; failed clauses ${r!.failedClauses.join(', ') || 'none'}${r!.blockedClauses.length ? `; blocked ${r!.blockedClauses.join(', ')}` : ''}`,
      });
      const why =
        r!.status === 'caught'
          ? ''
          : r!.status === 'unrelated-only'
            ? `only tests of other clauses failed: ${r!.alsoFailed.map((a) => `${a.title} [${a.clauses.join(',')}]`).join('; ')}`
            : r!.status === 'error'
              ? `no result: ${r!.error ?? 'no test ran'}`
              : `no check of ${fault.clause} failed (${r!.passed} passed, ${r!.skipped} skipped${r!.blockedClauses.length ? `; blocked: ${r!.blockedClauses.join(', ')}` : ''})`;
      expect(r!.status, `${fault.name} (${fault.sentence ?? ''}): ${why}`).toBe('caught');
      const rows = loadFaultModel(direction.name).rows.filter((row) => row.fault === fault.name);
      const missed = rows
        .filter((row) => !r!.failedChecks.includes(row.check!) || !r!.failedClauses.includes(row.clause))
        .map((row) => `${row.row} (check ${row.check} of ${row.clause})`);
      expect(
        missed,
        `${fault.name} proves these rows, but their checks did not fail on their clauses (failed checks: ${r!.failedChecks.join(', ') || 'none'}; failed clauses: ${r!.failedClauses.join(', ') || 'none'})`,
      ).toEqual([]);
    });
  }
}
