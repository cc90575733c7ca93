/**
 * The harness's service side as an observer in every host test (section 7 "Client behaviour",
 * section 6 rule 8): every data API request the receiver makes, retries included, is judged when the
 * test that caused it ends, whatever that test is about. A request is the test's when its
 * endUserHandle is one the test announced (each test announces fresh handles), so a correct receiver
 * never fails on another test's traffic. A request no test of this worker announced (a late read,
 * another worker's, a mangled handle) is judged only on what needs no attribution: its Bearer token.
 * A check goes only to a test tagged with its clause (reports/check-clause-ids.ts); failures only:
 * a request that broke nothing is no evidence that the test's own rule held.
 */
import { test, type TestInfo } from '@playwright/test';
import { check } from '../../shared/index.ts';
import type { ClauseId, HostCheckId } from '../../../spec/index.ts';
import type { DataRead, ServiceSide } from './service-side.ts';

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
  read: DataRead;
  note?: string;
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
        read: r,
        ...(mine ? {} : { note: 'not attributable to a test: judged in the test running when it was seen' }),
      });
    }
    if (!r.wellFormed) {
      // Not a read path, or a segment's percent-encoding broken: a handle or key pasted in raw (HOST-13's
      // reading). Needs no attribution: the service side never answers such a path with a record.
      out.push({
        clause: 'HOST-13',
        id: 'observe.read-path-well-formed',
        read: r,
        rule:
          'every data API read path is /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}' +
          '/{serviceKey}, each segment percent-encoded',
        expected: 'a read path of the data API whose segments decode',
        ...(mine ? {} : { note: 'not attributable to a test: judged in the test running when it was seen' }),
      });
    }
    if (!mine) return out;
    if (r.serviceKey !== null && r.wellFormed && !owners.some((a) => a.keys.has(r.serviceKey!))) {
      out.push({
        clause: 'HOST-13',
        id: 'observe.read-announced-key',
        read: r,
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
        read: r,
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
        read: r,
        rule: 'a data API read answered 400 or 401 is never retried',
        expected: `no read of this record after journal #${before.seq} (answered ${before.status})`,
      });
    }
    return out;
  };

  const collect = async (testId: string): Promise<Violation[]> => {
    await service.sync();
    const fresh = service.reads.filter((r) => r.seq > judgedUpTo);
    judgedUpTo = Math.max(judgedUpTo, ...fresh.map((r) => r.seq));
    return fresh.flatMap((r) => violations(r, testId));
  };

  return {
    collect,
    async judge(info) {
      const tagged = new Set(info.tags.map((t) => t.replace(/^@/, '')));
      const found = (await collect(info.testId)).filter((v) => tagged.has(v.clause));
      const byCheck = new Map<HostCheckId, Violation[]>();
      for (const v of found) byCheck.set(v.id, [...(byCheck.get(v.id) ?? []), v]);
      for (const [id, vs] of byCheck) {
        const first = vs[0]!;
        const seen = vs
          .slice(0, 5)
          .map((v) => requestInWords(v.read) + (v.note ? ` (${v.note})` : ''))
          .join('; ');
        const more = vs.length > 5 ? ` and ${vs.length - 5} more` : '';
        check.soft(first.clause, first.rule, { id }).that(false, { expected: first.expected, seen: seen + more });
      }
    },
  };
}
