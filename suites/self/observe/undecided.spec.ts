/**
 * A clause observe cannot decide says what would decide it: the reason names what its area needs that
 * callbacks do not carry (judge/service/report.ts), for every area of the service's clauses.
 */
import { test, expect } from '@playwright/test';
import { notFromTraffic, NOT_FROM_TRAFFIC } from '../../../judge/service/index.ts';
import { loadClauses } from '../../../reports/index.ts';
import { areaOfClause } from '../../../spec/index.ts';

test("every area of the service's clauses says what an undecided clause of it needs beyond callbacks", async () => {
  const { clauses } = await loadClauses();
  const areas = [
    ...new Set(clauses.filter((c) => c.side === 'service' && c.level !== 'UNSPECIFIED').map((c) => areaOfClause(c.id))),
  ];
  expect(areas.length).toBeGreaterThan(10);
  const generic = areas.filter((a) => notFromTraffic(`${a}-1`) === NOT_FROM_TRAFFIC);
  expect(generic, 'areas whose undecided clauses give only the generic reason').toEqual([]);
  expect(notFromTraffic('DATA-4')).toContain("requests to the service's data API");
  expect(notFromTraffic('DATA-4')).toContain('`ccs-conformance run` with a driver decides it');
});
