/**
 * An identity conflict (DATA-12) and its body (ERR-3): a List record seeded with an identity-field value, then a
 * write of a second record with the same value. The data API tests judge the 409, the error tests its body.
 */
import type { DriverClient, ServiceClient, ServiceResponse, TestWorkspace } from '../fixtures.ts';
import { check, type ClauseRef } from '../../shared/index.ts';
import type { ServiceCheckId } from '../../../spec/index.ts';
import { seedAddress, uniqueHandle, uniqueId } from './scenario.ts';

export interface IdentityConflict {
  /** The serviceKey of the seeded record that holds the value. */
  existing: string;
  r: ServiceResponse;
  body: Record<string, unknown>;
}

/** Seeds one /addresses record, then writes a second with its label (the identity field) and `fields`. */
export async function writeIdentityConflict(
  ws: TestWorkspace,
  svc: ServiceClient,
  driver: DriverClient,
  fields: Record<string, unknown> = {},
): Promise<IdentityConflict> {
  driver.requireCapability('seed-records');
  const h = uniqueHandle();
  const label = uniqueId('home');
  const existing = await seedAddress(driver, ws, h, { label });
  const r = await svc.writeRecord(ws, '/addresses', h, { data: { label, ...fields } });
  return { existing, r, body: (r.json ?? {}) as Record<string, unknown> };
}

/** The three members of an IDENTITY_CONFLICT body, each a soft check of `clause`: "the <what> has code ...". */
export function checkConflictBody(clause: ClauseRef, id: ServiceCheckId, what: string, c: IdentityConflict): void {
  check.soft(clause, `${what} has code IDENTITY_CONFLICT`, { id }).equals(c.body.code, 'IDENTITY_CONFLICT');
  check.soft(clause, `${what} names the identity field (identityField)`, { id }).equals(c.body.identityField, 'label');
  check
    .soft(clause, `${what} names the key of the record holding the value (existingKey)`, { id })
    .equals(c.body.existingKey, c.existing);
}
