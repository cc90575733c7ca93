import { test, expect } from '@playwright/test';
import { HOST_FAULTS } from '../../host/index.ts';
import { hostDirection } from '../../mutants/index.ts';
import { loadSpec } from '../../../spec/index.ts';

test('every faulty receiver names host clauses of the catalogue; at least 48 are in the mutation matrix; hang-all exists and stays out of the mutation matrix', () => {
  const spec = loadSpec();
  for (const f of HOST_FAULTS)
    for (const c of [f.clause, ...(f.also ?? [])]) expect(spec.clause(c)?.side, `${f.name} cites ${c}`).toBe('host');
  expect(HOST_FAULTS.map((f) => f.name)).toContain('hang-all');
  const inMatrix = hostDirection.faults.map((f) => f.name);
  expect(inMatrix).not.toContain('hang-all');
  expect(inMatrix.length).toBe(HOST_FAULTS.length - 1);
  expect(inMatrix.length).toBeGreaterThanOrEqual(48);
});
