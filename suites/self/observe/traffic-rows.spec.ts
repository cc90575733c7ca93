/**
 * Which clauses traffic can decide is data beside each fault-model row (`traffic: true`): a marked
 * row names a check the traffic judge makes and a seeded fault that proves it, so observe decides a
 * clause only by a check shown to catch a way of breaking it.
 */
import { test, expect } from '@playwright/test';
import { loadFaultModel } from '../../../spec/index.ts';
import { TRAFFIC_CHECK_IDS } from '../../../judge/service/index.ts';

test('a fault-model row marked traffic names a check of the traffic judge, a seeded fault and the flags exercising it', () => {
  const rows = loadFaultModel('service').rows.filter((r) => r.traffic !== undefined);
  expect(rows.length).toBeGreaterThan(0);
  const judged = new Set<string>(TRAFFIC_CHECK_IDS);
  const problems = rows
    .filter((r) => !r.check || !judged.has(r.check) || !r.fault)
    .map((r) => `${r.row} (${r.check ?? 'no check'})`);
  expect(problems, problems.join('\n')).toEqual([]);
});
