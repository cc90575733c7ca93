/**
 * Authentication of calls to the service (5.1, 7): the 401/403 matrix for every route of 4.2.
 * Missing and invalid credentials answer 401 (EMBED-10, UPLOAD-5, UPLOAD-9, AUTH-1); a valid key
 * of another workspace answers 403 (AUTH-2); a production key covers its sb- sandbox (AUTH-3);
 * a sandbox key never covers production (AUTH-4).
 */
import { test } from './fixtures.ts';
import type { ServiceClient, ServiceResponse, TestWorkspace, DriverClient } from './fixtures.ts';
import { answered, expectError } from './areas/errors.ts';
import { check, precondition } from '../shared/index.ts';
import { uniqueHandle, uniqueId } from './areas/scenario.ts';
import { validUpload } from './areas/upload-parts.ts';
import { clauseTags, type ClauseId, type ServiceCheckId } from '../../spec/index.ts';

/** Which credential a call presents: the target's own, none, a made-up one, or another workspace's. */
type Cred = { kind: 'own' } | { kind: 'none' } | { kind: 'invalid' } | { kind: 'of'; ws: TestWorkspace };

interface RouteCase {
  name: string;
  /** The clause of "missing or invalid gives 401" for this route. */
  unauthenticated: ClauseId;
  capability?: string;
  /** Prepares records the call needs on the target workspace (returns what call uses). */
  prepare?: (driver: DriverClient, ws: TestWorkspace, endUserHandle: string) => Promise<string | undefined>;
  call: (
    svc: ServiceClient,
    ws: TestWorkspace,
    cred: Cred,
    endUserHandle: string,
    prepared: string | undefined,
  ) => Promise<ServiceResponse>;
  /** Statuses that show the credential was accepted (the request got past authentication). */
  accepted: (r: ServiceResponse) => boolean;
}

const invalidToken = () => `invalid-${uniqueId('k')}`;
const is2xx = (r: ServiceResponse) => r.status >= 200 && r.status < 300;

function embedAuth(cred: Cred, ws: TestWorkspace): string | null {
  if (cred.kind === 'none') return null;
  if (cred.kind === 'invalid') return `Bearer ${invalidToken()}`;
  return cred.kind === 'of' ? cred.ws.embedAuthorization : ws.embedAuthorization;
}
function apiKey(cred: Cred, ws: TestWorkspace): string | null {
  if (cred.kind === 'none') return null;
  if (cred.kind === 'invalid') return invalidToken();
  return cred.kind === 'of' ? cred.ws.apiKey : ws.apiKey;
}
function bearer(cred: Cred, ws: TestWorkspace): string | null {
  if (cred.kind === 'none') return null;
  if (cred.kind === 'invalid') return invalidToken();
  return cred.kind === 'of' ? cred.ws.bearerToken : ws.bearerToken;
}

async function seedOne(driver: DriverClient, ws: TestWorkspace, endUserHandle: string): Promise<string> {
  const { serviceKeys } = await driver.seed(ws, {
    configEnd: '/addresses',
    endUserHandle,
    count: 1,
    fields: { label: uniqueId('seeded') },
  });
  return serviceKeys[0]!;
}

const ROUTES: RouteCase[] = [
  {
    name: 'POST embed-tokens',
    unauthenticated: 'EMBED-10',
    call: (svc, ws, cred, h) => svc.embedTokens(ws, { endUserHandle: h }, { authorization: embedAuth(cred, ws) }),
    // EMBED-11 reading: any 2xx, or 404 for "nothing pushed yet".
    accepted: (r) => is2xx(r) || r.status === 404,
  },
  {
    name: 'POST upload',
    unauthenticated: 'UPLOAD-5',
    capability: 'upload',
    call: (svc, ws, cred) => svc.upload(ws, validUpload(), { apiKey: apiKey(cred, ws) }),
    accepted: is2xx,
  },
  {
    name: 'GET upload/status/{id}',
    unauthenticated: 'UPLOAD-9',
    call: (svc, ws, cred) => svc.uploadStatus(ws, uniqueId('no-such-push'), { apiKey: apiKey(cred, ws) }),
    // An unknown id past authentication is 404 (UPLOAD-8).
    accepted: (r) => r.status === 404,
  },
  {
    name: 'GET data/{endUserHandle}',
    unauthenticated: 'AUTH-1',
    capability: 'seed-records',
    prepare: seedOne,
    call: (svc, ws, cred, h) => svc.listRecords(ws, '/addresses', h, { bearer: bearer(cred, ws) }),
    accepted: (r) => r.status === 200,
  },
  {
    name: 'GET data/{endUserHandle}/{serviceKey}',
    unauthenticated: 'AUTH-1',
    capability: 'seed-records',
    prepare: seedOne,
    call: (svc, ws, cred, h, key) => svc.getRecord(ws, '/addresses', h, key!, { bearer: bearer(cred, ws) }),
    accepted: (r) => r.status === 200,
  },
  {
    name: 'POST data/{endUserHandle}',
    unauthenticated: 'AUTH-1',
    call: (svc, ws, cred, h) =>
      svc.writeRecord(
        ws,
        '/addresses',
        h,
        { data: { label: uniqueId('written'), city: 'Paris' } },
        { bearer: bearer(cred, ws) },
      ),
    accepted: is2xx,
  },
];

/** The fault-model check id of "missing or invalid credentials give 401", by route clause. */
const UNAUTHENTICATED_IDS: Record<string, ServiceCheckId> = {
  'EMBED-10': 'auth.embed-401',
  'UPLOAD-5': 'auth.upload-401',
  'UPLOAD-9': 'auth.upload-status-401',
  'AUTH-1': 'auth.data-401',
};

for (const route of ROUTES) {
  test.describe(route.name, () => {
    test(
      `${route.name} without credentials answers 401 (${route.unauthenticated})`,
      { tag: clauseTags(route.unauthenticated) },
      async ({ ws, svc, driver }) => {
        if (route.capability) driver.requireCapability(route.capability);
        const h = uniqueHandle();
        const prepared = await route.prepare?.(driver, ws, h);
        expectError(
          route.unauthenticated,
          await route.call(svc, ws, { kind: 'none' }, h, prepared),
          401,
          `${route.name} without credentials`,
          false,
          { id: UNAUTHENTICATED_IDS[route.unauthenticated]! },
        );
      },
    );

    test(
      `${route.name} with an invalid key answers 401 (${route.unauthenticated})`,
      { tag: clauseTags(route.unauthenticated) },
      async ({ ws, svc, driver }) => {
        if (route.capability) driver.requireCapability(route.capability);
        const h = uniqueHandle();
        const prepared = await route.prepare?.(driver, ws, h);
        expectError(
          route.unauthenticated,
          await route.call(svc, ws, { kind: 'invalid' }, h, prepared),
          401,
          `${route.name} with an invalid key`,
          false,
          { id: UNAUTHENTICATED_IDS[route.unauthenticated]! },
        );
      },
    );

    test(
      `${route.name} with a valid key of another workspace answers 403 (AUTH-2)`,
      { tag: clauseTags('AUTH-2') },
      async ({ ws, makeWorkspace, svc, driver }) => {
        if (route.capability) driver.requireCapability(route.capability);
        const other = await makeWorkspace({ facts: false });
        const h = uniqueHandle();
        const prepared = await route.prepare?.(driver, ws, h);
        const own = await route.call(svc, ws, { kind: 'own' }, h, prepared);
        precondition(route.accepted(own), `${route.name} with the workspace's own key gets past authentication`, {
          expected: 'an answer past authentication',
          seen: answered(own),
        });
        expectError(
          'AUTH-2',
          await route.call(svc, ws, { kind: 'of', ws: other }, h, prepared),
          403,
          `${route.name} with another workspace's key`,
          false,
          { id: 'auth.foreign-key-403' },
        );
      },
    );

    test(
      `${route.name} on an sb- sandbox accepts its production parent's key (AUTH-3)`,
      { tag: clauseTags('AUTH-3') },
      async ({ ws, makeWorkspace, svc, driver }) => {
        if (route.capability) driver.requireCapability(route.capability);
        driver.requireCapability('sandbox');
        const sb = await makeWorkspace({ parent: ws });
        const h = uniqueHandle();
        const prepared = await route.prepare?.(driver, sb, h);
        const r = await route.call(svc, sb, { kind: 'of', ws }, h, prepared);
        check('AUTH-3', `${route.name} on the sb- sandbox accepts its production parent's key`, {
          id: 'auth.parent-key-covers-sandbox',
        }).that(route.accepted(r), { expected: 'an answer past authentication', seen: answered(r) });
      },
    );

    test(
      `${route.name} on production refuses its sandbox's key with 403 (AUTH-4)`,
      { tag: clauseTags('AUTH-4') },
      async ({ ws, makeWorkspace, svc, driver }) => {
        if (route.capability) driver.requireCapability(route.capability);
        driver.requireCapability('sandbox');
        const sb = await makeWorkspace({ parent: ws });
        const h = uniqueHandle();
        const prepared = await route.prepare?.(driver, ws, h);
        expectError(
          'AUTH-4',
          await route.call(svc, ws, { kind: 'of', ws: sb }, h, prepared),
          403,
          `${route.name} on production with the sandbox's key`,
          false,
          { id: 'auth.sandbox-key-refused' },
        );
      },
    );
  });
}
