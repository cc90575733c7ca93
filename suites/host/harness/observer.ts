/**
 * The harness's service side as an observer in every host test (section 7 "Client behaviour",
 * section 6 rule 8): every data API request the receiver makes, retries included, is judged when the
 * test that caused it ends, whatever that test is about. A request is the test's when its
 * endUserHandle is one the test announced (each test announces fresh handles), so a correct receiver
 * never fails on another test's traffic. A request no test of this worker announced (a late read,
 * another worker's, a mangled handle) is judged only on what needs no attribution: its Bearer token.
 * JWKS fetches (HOST-8) are judged on what needs no attribution either: the key source fetched as
 * served. A check goes only to a test tagged with its clause (reports/check-clause-ids.ts; every host
 * test is, host-tags.ts); failures only: a request that broke nothing is no evidence that the test's
 * own rule held, so a clause only the observer adds to a test is noted not exercised there.
 */
import { test, type TestInfo } from '@playwright/test';
import { check, checksOf, notExercised } from '../../shared/index.ts';
import { isClauseIdShape, type ClauseId, type HostCheckId } from '../../../spec/index.ts';
import { JWKS_PATH, type DataRead, type JwksFetch, type ServiceSide } from './service-side.ts';
import { titleClauses } from './host-tags.ts';

/** The statuses section 7 says to retry (HOST-21) and never to retry (HOST-22). */
const RETRIED = new Set([409, 503]);
const REFUSED = new Set([400, 401]);
/** HOST-21's reading: a back-off, not a loop, makes fewer than 8 retries within 1 s of the first read. */
const LOOP_RETRIES = 8;
const LOOP_MS = 1_000;

interface Announcement {
  testId: string | undefined;
  keys: ReadonlySet<string>;
  at: number;
}

export interface Violation {
  clause: ClauseId;
  id: HostCheckId;
  rule: string;
  expected: string;
  /** The request in words (requestInWords, fetchInWords): never its token. */
  request: string;
  note?: string;
}

/** What a test's requests to the service side were, and the rules they broke. */
interface Seen {
  violations: Violation[];
  reads: number;
  fetches: number;
}

export interface Observer {
  /** The rules the requests journalled since the last call broke, seen from the test testId. */
  collect(testId: string): Promise<Violation[]>;
  /** Judges the requests journalled since the last judgement, on the clauses the test is tagged with. */
  judge(info: TestInfo): Promise<void>;
}

function currentTestId(): string | undefined {
  try {
    return test.info().testId;
  } catch {
    return undefined; // announced outside a test (a self test's own harness)
  }
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
function fetchViolations(f: JwksFetch): Violation[] {
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

/** Wraps the service side's announce: each announced handle names the test that announced it. */
export function observe(service: ServiceSide): Observer {
  const announced = new Map<string, Announcement[]>();
  let judgedUpTo = 0;
  const inner = service.announce.bind(service);
  service.announce = async (endUserHandle, serviceKeys) => {
    const at = await inner(endUserHandle, serviceKeys);
    const list = announced.get(endUserHandle) ?? [];
    list.push({ testId: currentTestId(), keys: new Set(serviceKeys), at });
    announced.set(endUserHandle, list);
    return at;
  };

  /** Whether a callback named the key (or, for a list read, the user) between two journal positions. */
  const namedBetween = (r: DataRead, from: number): boolean =>
    (announced.get(r.endUserHandle) ?? []).some(
      (a) => a.at >= from && a.at < r.seq && (r.serviceKey === null || a.keys.has(r.serviceKey)),
    );
  /** The last earlier read of the same record with no callback naming it since: r repeats it. */
  const repeats = (r: DataRead): DataRead | undefined =>
    service.reads
      .filter((p) => p.seq < r.seq && p.endUserHandle === r.endUserHandle && p.serviceKey === r.serviceKey)
      .filter((p) => !namedBetween(r, p.seq))
      .pop();

  const violations = (r: DataRead, testId: string): Violation[] => {
    const owners = announced.get(r.endUserHandle) ?? [];
    const mine = owners.some((a) => a.testId === testId);
    const out: Violation[] = [];
    const before = repeats(r);
    if (r.bearer !== 'sent') {
      // A retry of a 409 or 503 without the token is refused 401 and retries nothing (HOST-21's
      // reading); any other read without it reads nothing over the data API (HOST-13, section 7 item 3).
      const retry = before !== undefined && RETRIED.has(before.status);
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
    if (r.serviceKey !== null && r.wellFormed && !owners.some((a) => a.keys.has(r.serviceKey!))) {
      out.push({
        clause: 'HOST-13',
        id: 'observe.read-announced-key',
        request: requestInWords(r),
        rule: 'the host reads the keys of serviceKeys: every key it reads is one a callback named',
        expected: `a key of ${JSON.stringify([...new Set(owners.flatMap((a) => [...a.keys]))])}`,
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
    if (before !== undefined && REFUSED.has(before.status)) {
      out.push({
        clause: 'HOST-22',
        id: 'observe.no-retry-4xx',
        request: requestInWords(r),
        rule: 'a data API read answered 400 or 401 is never retried',
        expected: `no read of this record after journal #${before.seq} (answered ${before.status})`,
      });
    }
    return out;
  };

  const seen = async (testId: string): Promise<Seen> => {
    await service.sync();
    const reads = service.reads.filter((r) => r.seq > judgedUpTo);
    const fetches = service.jwksFetches.filter((f) => f.seq > judgedUpTo);
    judgedUpTo = Math.max(judgedUpTo, ...reads.map((r) => r.seq), ...fetches.map((f) => f.seq));
    const found = [...reads.flatMap((r) => violations(r, testId)), ...fetches.flatMap(fetchViolations)];
    return { violations: found, reads: reads.length, fetches: fetches.length };
  };

  return {
    collect: async (testId) => (await seen(testId)).violations,
    async judge(info) {
      const tagged = new Set(info.tags.map((t) => t.replace(/^@/, '')));
      // Whether the test ran to its end with every check held: then a failure found here stopped nothing.
      const held = info.status === 'passed' && !checksOf(info).some((c) => c.outcome === 'failed');
      const all = await seen(info.testId);
      const found = all.violations.filter((v) => tagged.has(v.clause));
      const byCheck = new Map<HostCheckId, Violation[]>();
      for (const v of found) byCheck.set(v.id, [...(byCheck.get(v.id) ?? []), v]);
      for (const [id, vs] of byCheck) {
        const first = vs[0]!;
        const words = vs
          .slice(0, 5)
          .map((v) => v.request + (v.note ? ` (${v.note})` : ''))
          .join('; ');
        const more = vs.length > 5 ? ` and ${vs.length - 5} more` : '';
        check.soft(first.clause, first.rule, { id }).that(false, { expected: first.expected, seen: words + more });
      }
      noteSilence(info, tagged, all);
      if (held && found.length > 0) noteRanToEnd(info, tagged, found);
    },
  };
}

/**
 * The observer's failures come after the test body, which ran to its end with every check held: a tagged
 * clause it made no check of was not exercised there, not blocked by them (reports/attribution.ts blocks
 * the unchecked clauses of a failed test, as a failure usually stops it).
 */
function noteRanToEnd(info: TestInfo, tagged: ReadonlySet<string>, found: readonly Violation[]): void {
  const decided = new Set(checksOf(info).flatMap((c) => c.clauses));
  const failed = [...new Set(found.map((v) => v.clause))].join(', ');
  for (const clause of tagged) {
    if (decided.has(clause) || !isClauseIdShape(clause)) continue;
    notExercised(
      clause as ClauseId,
      `the test ran to its end without a check of ${clause} (the observer failed ${failed} after it)`,
    );
  }
}

/** The clauses the observer decides, and what it judges of each. */
const OBSERVED: ReadonlyArray<{ clause: ClauseId; what: 'reads' | 'fetches' }> = [
  { clause: 'HOST-13', what: 'reads' },
  { clause: 'HOST-21', what: 'reads' },
  { clause: 'HOST-22', what: 'reads' },
  { clause: 'HOST-8', what: 'fetches' },
];

/**
 * A clause only the observer adds to a test (host-tags.ts: not cited by its title) that no check decided
 * is not exercised there, with what was seen: the observer reports failures only, so silence neither
 * passes it nor, when the test failed on another clause, leaves it blocked (reports/attribution.ts).
 */
function noteSilence(info: TestInfo, tagged: ReadonlySet<string>, all: Seen): void {
  const own = titleClauses(info.title);
  const decided = new Set(checksOf(info).flatMap((c) => c.clauses));
  for (const { clause, what } of OBSERVED) {
    if (!tagged.has(clause) || own.has(clause) || decided.has(clause)) continue;
    const n = what === 'reads' ? all.reads : all.fetches;
    const kind = what === 'reads' ? 'data API request' : 'request to the JWKS key source';
    const words =
      n === 0
        ? `the receiver made no ${kind} while this test ran`
        : `the ${n} ${kind}${n === 1 ? '' : 's'} seen while this test ran broke no rule the observer judges`;
    notExercised(clause, `${words} (the observer reports failures only; ${clause}'s own tests decide it)`);
  }
}
