/**
 * Which clauses traffic can decide is data beside each fault-model row (`traffic:`): a marked row names
 * a check the traffic judge makes and a seeded fault that proves it (traffic-faults.spec.ts runs each),
 * so observe decides a clause only by a check shown to catch a way of breaking it. The checks the judge
 * makes are read from its own code (every check id it passes is typed ServiceCheckId), never from a list
 * kept beside it.
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_CHECK_IDS, loadFaultModel } from '../../../spec/index.ts';
import { ROOT } from '../source-files.ts';

/** Every check id written in the traffic judge's code. */
function idsInJudge(): Set<string> {
  const dir = join(ROOT, 'judge', 'service');
  const known = new Set<string>(SERVICE_CHECK_IDS);
  const found = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    for (const m of readFileSync(join(dir, name), 'utf8').matchAll(/'([a-z]+\.[a-z0-9.-]+)'/g)) {
      if (known.has(m[1]!)) found.add(m[1]!);
    }
  }
  return found;
}

test('a fault-model row marked traffic names a check of the traffic judge, a seeded fault and the flags exercising it', () => {
  const rows = loadFaultModel('service').rows.filter((r) => r.traffic !== undefined);
  expect(rows.length).toBeGreaterThan(0);
  const judged = idsInJudge();
  // the reader of the judge's code finds its ids: a judge with none would fail every row, not pass them
  expect(judged.size).toBeGreaterThan(40);
  const problems = rows
    .filter((r) => !r.check || !judged.has(r.check) || !r.fault)
    .map((r) => `${r.row} (${r.check ?? 'no check'})`);
  expect(problems, problems.join('\n')).toEqual([]);
});
