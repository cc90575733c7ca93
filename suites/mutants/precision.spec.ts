/**
 * The matrix's precision: the share of faults whose failed clauses are exactly the clauses they
 * declare (the rest are listed with what failed and what was blocked). A caught fault that also
 * fails other clauses is a check that over-reaches, or a fault that breaks more than it says.
 */
import { test, expect } from '@playwright/test';
import { readMatrixReport } from './index.ts';
import { clauseTags, readSettings } from '../../spec/index.ts';

/** At least this share of the faults fails exactly its own clauses. */
const MIN_PRECISION = 0.95;

test(
  `at least ${MIN_PRECISION * 100}% of the seeded faults fail exactly their own clauses (mutation matrix)`,
  { tag: clauseTags('@mutant') },
  () => {
    const report = readMatrixReport(readSettings().reportDir);
    const p = report.precision;
    test.info().annotations.push({
      type: 'ccs-precision',
      description: `${p.exact}/${p.total} (${(p.share * 100).toFixed(1)}%)`,
    });
    const listed = p.inexact.map(
      (x) =>
        `${x.fault}: declared ${x.declared.join(',')}; failed ${x.failed.join(',') || 'none'}${x.blocked.length ? `; blocked ${x.blocked.join(',')}` : ''}`,
    );
    expect(p.share, `precision ${p.exact}/${p.total}; not exact:\n  ${listed.join('\n  ')}`).toBeGreaterThanOrEqual(
      MIN_PRECISION,
    );
  },
);
