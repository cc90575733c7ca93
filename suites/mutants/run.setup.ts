/**
 * The mutation matrix inside the test command: one child
 * Playwright run with a project per seeded fault of the reference service and per faulty variant
 * of the reference host receiver (runner.ts). Its clean runs are the service and host projects of
 * this same run, which this project depends on; the per-fault verdicts are the tests of
 * service.spec.ts and host.spec.ts, which read the mutants.json written here. Tagged @mutant only:
 * not conformance evidence for any clause.
 */
import { test, expect } from '@playwright/test';
import { DEFAULT_MATRIX_DEADLINE_MS, runMutationMatrix } from './index.ts';
import { clauseTags, readSettings } from '../../spec/index.ts';

test(
  'the mutation matrix runs every seeded fault against the tests citing its clause (mutation matrix)',
  { tag: clauseTags('@mutant') },
  async () => {
    test.setTimeout(DEFAULT_MATRIX_DEADLINE_MS + 60_000);
    const only = readSettings().mutants;
    const r = await runMutationMatrix({
      direction: 'both',
      clean: false,
      reportDir: readSettings().reportDir,
      ...(only.length ? { faults: only } : {}),
    });
    process.stdout.write(
      `${r.table}\nmutation matrix: ${r.faults.filter((f) => f.status === 'caught').length}/${r.faults.length} faults caught in ${(r.durationMs / 1000).toFixed(0)} s; precision ${(r.precision.share * 100).toFixed(1)}%\n`,
    );
    expect(r.error, r.error).toBeUndefined();
    expect(r.faults.length, 'faults judged').toBeGreaterThan(0);
  },
);
