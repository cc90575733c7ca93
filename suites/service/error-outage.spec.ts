/**
 * Error bodies of a service that fails or is unavailable (7): a 500 or 503 answer carries no detail beyond the
 * framework default (ERR-4, ERR-5), and its default members are ERR-1's.
 */
import { test } from './fixtures.ts';
import type { ServiceClient, ServiceResponse, TestWorkspace, DriverClient } from './fixtures.ts';
import { answered, errorBodyProblems } from './areas/errors.ts';
import { check, precondition, show } from '../shared/index.ts';
import { uniqueHandle, uniqueId } from './areas/scenario.ts';
import { clauseTags, type ClauseId } from '../../spec/index.ts';

/**
 * ERR-4 and ERR-5 need a service that fails or is unavailable, which no documented request
 * provokes: the driver's optional outage capability makes every contract route of one workspace
 * answer 500 or 503 until cleared. Each route is called with valid credentials, so the status
 * can only come from the outage.
 */
const OUTAGE_ROUTES: Array<{
  what: string;
  call: (svc: ServiceClient, ws: TestWorkspace) => Promise<ServiceResponse>;
}> = [
  { what: 'embed-tokens', call: (svc, ws) => svc.embedTokens(ws, { endUserHandle: uniqueHandle() }) },
  { what: 'a data read of a Setting', call: (svc, ws) => svc.listRecords(ws, '/profile', uniqueHandle()) },
  { what: 'a data read by key', call: (svc, ws) => svc.getRecord(ws, '/addresses', uniqueHandle(), uniqueId('key')) },
  {
    what: 'a data write',
    call: (svc, ws) => svc.writeRecord(ws, '/addresses', uniqueHandle(), { data: { label: uniqueId('home') } }),
  },
  { what: 'upload status', call: (svc, ws) => svc.uploadStatus(ws, uniqueId('id')) },
];

async function duringOutage(
  driver: DriverClient,
  ws: TestWorkspace,
  status: 500 | 503,
  svc: ServiceClient,
): Promise<Array<{ what: string; r: ServiceResponse }>> {
  await driver.outage(ws, status);
  try {
    const out: Array<{ what: string; r: ServiceResponse }> = [];
    for (const route of OUTAGE_ROUTES) out.push({ what: route.what, r: await route.call(svc, ws) });
    return out;
  } finally {
    await driver.outage(ws, null);
  }
}

const DEFAULT_MEMBERS = ['error', 'path', 'status', 'timestamp'];

function bodyObject(r: ServiceResponse): Record<string, unknown> | undefined {
  const b = r.json;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
}

/** Members of an error body beyond the framework default's four. */
function extraMembers(r: ServiceResponse): string[] {
  return Object.keys(bodyObject(r) ?? {})
    .filter((k) => !DEFAULT_MEMBERS.includes(k))
    .sort();
}

/**
 * The service's framework default, read from an error body of another status (a 404 of the same
 * workspace, outside the outage): the members every error body of this service carries.
 */
async function defaultBodyOf(svc: ServiceClient, ws: TestWorkspace): Promise<ServiceResponse> {
  const r = await svc.getRecord(ws, '/addresses', uniqueHandle(), uniqueId('no-such-key'));
  precondition(
    r.status === 404 && bodyObject(r) !== undefined,
    "a read by an unknown key is answered 404 with a JSON body (the service's default error body, for comparison)",
    { expected: '404 with a JSON object body', seen: answered(r) },
  );
  return r;
}

/**
 * The body of a 500 or 503 answer (ERR-4 / ERR-5 reading): what it has beyond the service's own
 * default error body (a member a 404 of the same service lacks: a message, a trace, retry advice)
 * is the detail ERR-4 / ERR-5 forbid. The four default members and what every error body of the
 * service carries beyond them are ERR-1's (a member every body has is the default body breaking ERR-1,
 * not a detail of this status).
 */
function checkOutageBody(
  clause: ClauseId,
  r: ServiceResponse,
  status: 500 | 503,
  what: string,
  control: ServiceResponse,
): void {
  precondition(r.status === status, `${what} is answered ${status}`, { expected: String(status), seen: answered(r) });
  const shared = extraMembers(control);
  const extra = extraMembers(r);
  const own = extra.filter((k) => !shared.includes(k));
  const everywhere = extra.filter((k) => shared.includes(k));
  check
    .soft(
      clause,
      `the ${status} body of ${what} adds nothing to the service's default error body (no message, trace or code)`,
      { id: clause === 'ERR-4' ? 'error.500-no-detail' : 'error.503-default-body' },
    )
    .none(
      own.map((k) => `${k}: ${show(bodyObject(r)![k], 120)}`),
      `only what a ${control.status} body of the service also carries`,
    );
  // ERR-1: the four default members with their values, and no member every error body adds.
  const pick =
    bodyObject(r) === undefined
      ? r
      : { ...r, json: Object.fromEntries(Object.entries(bodyObject(r)!).filter(([k]) => DEFAULT_MEMBERS.includes(k))) };
  const problems = [
    ...errorBodyProblems(pick),
    ...everywhere.map((k) => `member ${k} is not in the framework default (the ${control.status} body carries it too)`),
  ];
  check
    .soft('ERR-1', `the ${status} body of ${what} has the framework default's timestamp, status, error and path`, {
      id: 'error.default-body',
    })
    .none(problems, 'no difference');
}

test(
  'a 500 answer carries no detail in its body: exactly the framework default (ERR-4, ERR-1)',
  { tag: clauseTags('ERR-4', 'ERR-1') },
  async ({ ws, svc, driver, evidence }) => {
    driver.requireCapability('outage');
    const control = await defaultBodyOf(svc, ws);
    const answers = await duringOutage(driver, ws, 500, svc);
    evidence.add({
      sentence: `With the workspace switched to 500, ${answers.length} contract routes answered: each body must be the framework default with no message, trace or code (ERR-4).`,
    });
    for (const { what, r } of answers) checkOutageBody('ERR-4', r, 500, `${what} during a 500 outage`, control);
  },
);

test(
  'while the service is unavailable every route answers 503 with exactly the framework default body (ERR-5, ERR-1)',
  { tag: clauseTags('ERR-5', 'ERR-1') },
  async ({ ws, svc, driver, evidence }) => {
    driver.requireCapability('outage');
    const control = await defaultBodyOf(svc, ws);
    const answers = await duringOutage(driver, ws, 503, svc);
    evidence.add({
      sentence: `With the workspace switched to 503, ${answers.length} contract routes answered: each must be 503 with the framework default body and nothing more (ERR-5; section 7 shows no other 503 body).`,
    });
    for (const { what, r } of answers) checkOutageBody('ERR-5', r, 503, `${what} while unavailable`, control);
  },
);
