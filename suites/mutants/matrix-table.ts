/**
 * The mutation matrix's verdicts written out: the precision (faults failing exactly their own clauses), the table
 * of clean runs and faults, and the JSON report.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CleanResult, FaultResult, MatrixResult, Precision } from './matrix-types.ts';

export function precisionOf(faults: readonly FaultResult[]): Precision {
  const inexact = faults
    .filter((f) => !f.exact)
    .map((f) => ({ fault: f.fault, declared: f.declared, failed: f.failedClauses, blocked: f.blockedClauses }));
  const total = faults.length;
  return { exact: total - inexact.length, total, share: total === 0 ? 1 : (total - inexact.length) / total, inexact };
}

export function renderTable(clean: CleanResult[], faults: FaultResult[]): string {
  const rows: string[][] = [['direction', 'fault', 'clause', 'verdict', 'failed clauses', 'by which tests']];
  for (const c of clean)
    rows.push([
      c.direction,
      '(clean)',
      '-',
      c.ok ? 'passes' : `FAILS (${c.failed} failed${c.error ? `; ${c.error}` : ''})`,
      '-',
      c.failures
        .map((f) => f.title)
        .slice(0, 3)
        .join('; '),
    ]);
  for (const f of faults) {
    const verdict =
      f.status === 'caught'
        ? 'caught'
        : f.status === 'missed'
          ? 'MISSED'
          : f.status === 'unrelated-only'
            ? 'CAUGHT ONLY BY UNRELATED TESTS'
            : `ERROR: ${f.error ?? ''}`;
    const by =
      f.status === 'caught'
        ? f.caughtBy.slice(0, 2).join('; ') + (f.caughtBy.length > 2 ? ` (+${f.caughtBy.length - 2})` : '')
        : f.alsoFailed
            .slice(0, 2)
            .map((a) => `${a.title} [${a.clauses.join(',')}]`)
            .join('; ');
    const failed =
      f.failedClauses.join(',') +
      (f.exact ? '' : ' (not exact)') +
      (f.blockedClauses.length ? ` blocked ${f.blockedClauses.join(',')}` : '');
    rows.push([f.direction, f.fault, f.clause, verdict, failed, by]);
  }
  const widths = rows[0]!.map((_, i) => Math.min(48, Math.max(...rows.map((r) => r[i]!.length))));
  const p = precisionOf(faults);
  const precision =
    faults.length === 0
      ? ''
      : `\nprecision: ${p.exact}/${p.total} faults (${(p.share * 100).toFixed(1)}%) fail exactly their own clauses` +
        p.inexact
          .map(
            (x) =>
              `\n  ${x.fault}: declared ${x.declared.join(',')}; failed ${x.failed.join(',') || 'none'}${x.blocked.length ? `; blocked ${x.blocked.join(',')}` : ''}`,
          )
          .join('');
  return (
    rows
      .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.slice(0, widths[i]!).padEnd(widths[i]!))).join('  '))
      .join('\n') +
    precision +
    judgeLine(faults)
  );
}

/**
 * Where the traffic judge over a fault's journals passed a clause the run failed: the clauses on which
 * `observe --from` those journals would disagree with the run.
 */
function judgeLine(faults: readonly FaultResult[]): string {
  const missed = faults.filter((f) => f.judgeMissed.length > 0);
  if (faults.length === 0) return '';
  return (
    `\ntraffic judge: ${missed.length} of ${faults.length} faults with a clause the run failed and the judge passed` +
    missed.map((f) => `\n  ${f.fault}: ${f.judgeMissed.join(',')}`).join('')
  );
}

export function writeReport(path: string, result: Omit<MatrixResult, 'table' | 'reportPath'>): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify({ generatedAt: new Date().toISOString(), ...result }, null, 2));
}
