/**
 * Assertion helpers over mock-host verdicts: fail the test with the verdict's sentence and attach
 * its evidence. expectCallbackShape is the spec check that runs on every callback a suite sees.
 */
import { expect, test } from '@playwright/test';
import type { JournalEntry, Verdict } from '../../mock-host/index.ts';
import { summarizeEntry } from './clients/evidence.ts';

async function attach(name: string, body: unknown): Promise<void> {
  try {
    await test.info().attach(name, { body: JSON.stringify(body), contentType: 'application/json' });
  } catch {
    // outside a test (a helper used from a script): nothing to attach to
  }
}

/** expect(v.ok, v.sentence).toBe(true), with the verdict's evidence attached as 'ccs-verdict'. */
export function expectVerdict(v: Verdict): void {
  void attach('ccs-verdict', { ok: v.ok, sentence: v.sentence, evidence: v.evidence });
  expect(v.ok, v.sentence).toBe(true);
}

/**
 * The payload against the webhook schema of spec/openapi.yaml (the mock host validated it on
 * arrival: entry.schema) and the header checks the mock host computed (HDR-1..5), each a soft
 * assertion so one run reports every broken fact of the callback.
 */
export function expectCallbackShape(e: JournalEntry): void {
  const where = `callback seq ${e.seq} (${e.event ?? 'no event'} at ${e.path})`;
  expect.soft(e.parseError, `${where}: the body is a JSON object with content type application/json (EVT-1)`).toBeUndefined();
  if (e.schema) {
    expect.soft(e.schema.valid, `${where}: payload matches the ${e.schema.name} schema of spec/openapi.yaml: ${e.schema.errors.join('; ')}`).toBe(true);
  } else {
    expect.soft(e.schema, `${where}: payload was checked against a webhook schema (event ${JSON.stringify(e.event)} is one of section 6, EVT-15)`).toBeDefined();
  }
  for (const c of e.checks ?? []) {
    expect.soft(c.ok, `${where}: ${c.name} (${c.clause}): ${c.detail}`).toBe(true);
  }
  void attach('ccs-callback', summarizeEntry(e));
}

/** Every callback of a list through expectCallbackShape. */
export function expectCallbackShapes(entries: JournalEntry[]): void {
  for (const e of entries) expectCallbackShape(e);
}
