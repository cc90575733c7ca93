/**
 * Each seeded fault changes the behaviour it names: one probe per fault, run against a service
 * started with only that fault. (The clean behaviour of the same probes is shown by the other
 * spec files of this folder.)
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { FAULTS, startReferenceService } from '../../../reference-service/index.ts';
import { isCcsError, clauseTags, type ServiceFaultName } from '../../../spec/index.ts';
import { stage } from './host.ts';
import type { Probe } from './fault-probes/helpers.ts';
import { EVENTS_PROBES } from './fault-probes/events.ts';
import { HEADERS_ADDRESSING_PROBES } from './fault-probes/headers-addressing.ts';
import { DELIVERY_PROBES } from './fault-probes/delivery.ts';
import { SIGNING_PROBES } from './fault-probes/signing.ts';
import { FACTS_PROBES } from './fault-probes/facts.ts';
import { STATES_PROBES } from './fault-probes/states.ts';
import { DATA_API_PROBES } from './fault-probes/data-api.ts';
import { EMBED_UPLOAD_PROBES } from './fault-probes/embed-upload.ts';

// One probe per seeded fault: a fault of spec/faults/service.yaml without one fails to typecheck.
const PROBES: Record<ServiceFaultName, Probe> = {
  ...EVENTS_PROBES,
  ...HEADERS_ADDRESSING_PROBES,
  ...DELIVERY_PROBES,
  ...SIGNING_PROBES,
  ...FACTS_PROBES,
  ...STATES_PROBES,
  ...DATA_API_PROBES,
  ...EMBED_UPLOAD_PROBES,
};

test('the fault registry: at least 30 faults, kebab-case names, each citing a clause of spec/clauses.yaml with its area, over every service area', () => {
  const clauses = (
    parse(readFileSync(new URL('../../../spec/clauses.yaml', import.meta.url), 'utf8')) as {
      clauses: Array<{ id: string; side: string }>;
    }
  ).clauses;
  const ids = new Map(clauses.map((c) => [c.id, c]));
  expect(FAULTS.length).toBeGreaterThanOrEqual(30);
  expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
  for (const f of FAULTS) {
    expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(ids.get(f.clause)?.side, `${f.name} cites ${f.clause}`).toBe('service');
    expect(f.clause.startsWith(`${f.area}-`)).toBe(true);
    expect(f.sentence.length).toBeGreaterThan(10);
  }
  const areas = new Set(FAULTS.map((f) => f.area));
  for (const a of [
    'EVT',
    'HDR',
    'HOOK',
    'DELIV',
    'SIGN',
    'FACTS',
    'STATE',
    'ENV',
    'EMBED',
    'UPLOAD',
    'DATA',
    'AUTH',
    'ERR',
    'PAGE',
    'TOOL',
  ])
    expect(areas.has(a), a).toBe(true);
  expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
});

test('an unknown fault name is refused with REFSVC_FAULT_UNKNOWN naming it and listing the known ones', async () => {
  const error = await startReferenceService({ faults: ['no-such-fault'] }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isCcsError(error, 'REFSVC_FAULT_UNKNOWN')).toBe(true);
  expect((error as Error).message).toContain('no-such-fault');
  expect((error as Error).message).toContain('stale-t');
});

for (const fault of FAULTS) {
  test(
    `seeded fault ${fault.name} changes the behaviour it names (${fault.clause})`,
    { tag: clauseTags(fault.clause) },
    async () => {
      const probe = PROBES[fault.name];
      expect(probe, `no probe for ${fault.name}`).toBeDefined();
      const s = await stage({
        faults: [fault.name],
        timeScale: probe!.timeScale ?? 1,
        workspace: probe!.workspace ?? {},
      });
      try {
        await probe!.run(s);
      } finally {
        await s.close();
      }
    },
  );
}
