/**
 * The rules every data API request and JWKS fetch a receiver makes is judged on (the suites' observer,
 * suites/host/harness/observer.ts, applies them), whatever test caused it (section 7 "Client behaviour",
 * section 6 rule 8, 5.2). A request is a test's when its endUserHandle is one a callback of the test named or
 * the test announced (each test uses fresh handles), so a correct receiver never fails on another test's
 * traffic; a request of no such handle (a late read, another worker's, a mangled handle) is judged only on
 * what needs no attribution: its Bearer token and its path.
 */
import type { ClauseId, HostCheckId } from '../../spec/index.ts';
import type { Ledger } from './ledger.ts';
import { JWKS_PATH, type DataRead, type JwksFetch } from './service-side-types.ts';

/** The statuses section 7 says to retry (HOST-21) and never to retry (HOST-22). */
const RETRIED = new Set([409, 503]);
const REFUSED = new Set([400, 401]);
/** HOST-21's reading: a back-off, not a loop, makes fewer than 8 retries within 1 s of the first read. */
const LOOP_RETRIES = 8;
const LOOP_MS = 1_000;

export interface Violation {
  clause: ClauseId;
  id: HostCheckId;
  rule: string;
  expected: string;
  /** The request in words (requestInWords, fetchInWords): never its token. */
  request: string;
  note?: string;
}

/** What the receiver sent, in words: the path as sent and its Authorization header, never the token. */
export function requestInWords(r: DataRead): string {
  const auth =
    r.bearer === 'sent'
      ? 'with the Bearer token'
      : r.bearer === 'missing'
        ? 'without an Authorization header'
        : 'with another Authorization header';
  return `GET ${r.path} ${auth}, answered ${r.status} (journal #${r.seq})`;
}

/** A request to the key source's folder, in words. */
export function fetchInWords(f: JwksFetch): string {
  return `${f.method} ${f.path}, answered ${f.served ? 200 : f.path === JWKS_PATH ? 405 : 404} (journal #${f.seq})`;
}

const UNATTRIBUTED = 'not attributable to a test: judged in the test running when it was seen';

/**
 * HOST-8 reading: the document is fetched from the key source of section 5.2, the one URL the dashboard
 * shows, with a GET; a receiver that looks for keys elsewhere (a derived /.well-known/jwks.json, a
 * discovery document) reads a source the contract does not name. Needs no attribution.
 */
export function fetchViolations(f: JwksFetch): Violation[] {
  if (f.served) return [];
  return [
    {
      clause: 'HOST-8',
      id: 'observe.jwks-key-source',
      rule: `the JWKS document is fetched from the key source, GET {service_api_url}${JWKS_PATH} (section 5.2)`,
      expected: `GET ${JWKS_PATH}`,
      request: fetchInWords(f),
      note: UNATTRIBUTED,
    },
  ];
}

/** The rules of one data API request, seen from the test testId; reads is the whole journal so far. */
export function readViolations(r: DataRead, testId: string, reads: readonly DataRead[], ledger: Ledger): Violation[] {
  const owners = ledger.namedFor(r.endUserHandle);
  /** Whether a callback named the key (or, for a list read, the user) between two journal positions. */
  const namedBetween = (x: DataRead, from: number): boolean =>
    owners.some((a) => a.at >= from && a.at < x.seq && (x.serviceKey === null || a.keys.has(x.serviceKey)));
  /** The last earlier read of the same record with no callback naming it since: x repeats it. */
  const repeats = (x: DataRead): DataRead | undefined =>
    reads
      .filter((p) => p.seq < x.seq && p.endUserHandle === x.endUserHandle && p.serviceKey === x.serviceKey)
      .filter((p) => !namedBetween(x, p.seq))
      .pop();
  /** How many callbacks named the record before x was journalled. */
  const namings = (x: DataRead): number =>
    owners.filter((a) => a.at < x.seq && (x.serviceKey === null || a.keys.has(x.serviceKey))).length;
  const mine = owners.some((a) => a.testId === testId);
  const out: Violation[] = [];
  const before = repeats(r);
  if (r.bearer !== 'sent') {
    // A retry of a 409 or 503 without the token is refused 401 and retries nothing (HOST-21's
    // reading); any other read without it reads nothing over the data API (HOST-13, section 7 item 3).
    // A retry follows the 409 or 503 of its record, whatever callback named the record again meanwhile
    // (a redelivery names the same keys while the retries of the first delivery go on).
    const last = reads.filter((p) => p.seq < r.seq && sameRecord(p, r)).pop();
    const retry = last !== undefined && RETRIED.has(last.status);
    out.push({
      clause: retry ? 'HOST-21' : 'HOST-13',
      id: retry ? 'observe.retry-with-token' : 'observe.read-with-token',
      rule: retry
        ? 'a retry of a data API read answered 409 or 503 carries the Bearer token'
        : 'every data API read carries the Bearer token (section 7: a read without it is answered 401)',
      expected: "Authorization: Bearer <the run's token>",
      request: requestInWords(r),
      ...(mine ? {} : { note: UNATTRIBUTED }),
    });
  }
  if (!r.wellFormed) {
    // Not a read path, or a segment's percent-encoding broken: a handle or key pasted in raw (HOST-13's
    // reading). Needs no attribution: the service side never answers such a path with a record.
    out.push({
      clause: 'HOST-13',
      id: 'observe.read-path-well-formed',
      request: requestInWords(r),
      rule:
        'every data API read path is /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}' +
        '/{serviceKey}, each segment percent-encoded',
      expected: 'a read path of the data API whose segments decode',
      ...(mine ? {} : { note: UNATTRIBUTED }),
    });
  }
  if (!mine) return out;
  // Any key any callback the harness sent named for this user may be read (an onComplete's serviceKeys, the
  // serviceKey of config.saved or config.deleted, a bulk page's keys), whichever test sent the callback, in
  // whichever worker: the service side serves (200) or scripts only a record some callback or test of the run
  // named, and a handle a generated value fixes ("NaN", "null") may be another worker's user too.
  const servedRecord = r.status === 200 || r.scripted === true;
  if (r.serviceKey !== null && r.wellFormed && !servedRecord && !owners.some((a) => a.keys.has(r.serviceKey!))) {
    out.push({
      clause: 'HOST-13',
      id: 'observe.read-announced-key',
      request: requestInWords(r),
      rule: 'the host reads the keys callbacks name: every key it reads is one a callback named',
      expected: `a key of ${JSON.stringify([...new Set(owners.flatMap((a) => [...a.keys]))].slice(0, 8))}`,
    });
  }
  // The retries since the first read of this run of 409s and 503s, walked back through the repeats.
  const chain: DataRead[] = [];
  for (let p = before; p !== undefined && RETRIED.has(p.status); p = repeats(p)) chain.push(p);
  const first = chain[chain.length - 1];
  if (chain.length === LOOP_RETRIES && first !== undefined && r.atMs - first.atMs <= LOOP_MS) {
    out.push({
      clause: 'HOST-21',
      id: 'observe.retry-backoff',
      request: requestInWords(r),
      rule:
        `a read answered 409 or 503 is retried with a back-off: fewer than ${LOOP_RETRIES} retries ` +
        `within ${LOOP_MS} ms of the first read`,
      expected: `fewer than ${LOOP_RETRIES} retries within ${LOOP_MS} ms of journal #${first.seq}`,
      note: `retry ${LOOP_RETRIES} came ${Math.round(r.atMs - first.atMs)} ms after the first read`,
    });
  }
  // A read after a 400 or 401 of the record is a retry only when the receiver read the record afresh more often
  // than callbacks named it: two callbacks naming one key, sent together, are two reads whatever their order.
  if (before !== undefined && REFUSED.has(before.status) && freshReads(r, reads) > namings(r)) {
    out.push({
      clause: 'HOST-22',
      id: 'observe.no-retry-4xx',
      request: requestInWords(r),
      rule: 'a data API read answered 400 or 401 is never retried',
      expected: `no read of this record after journal #${before.seq} (answered ${before.status})`,
    });
  }
  return out;
}

function sameRecord(a: DataRead, b: DataRead): boolean {
  return a.endUserHandle === b.endUserHandle && a.serviceKey === b.serviceKey;
}

/** The reads of x's record up to x that retry no 409 or 503: each answers a callback naming it, or retries a 4xx. */
function freshReads(x: DataRead, reads: readonly DataRead[]): number {
  const same = reads.filter((p) => p.seq <= x.seq && sameRecord(p, x));
  return same.filter((p, i) => i === 0 || !RETRIED.has(same[i - 1]!.status)).length;
}
