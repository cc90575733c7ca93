/**
 * The host direction's one judge (DESIGN "One judge per direction") in a test run: the judge itself is
 * judge/host/, and this runs it at the end of every host test (fixtures.ts), telling its ledger the test
 * running now. It keeps the ledger (judge/host/ledger.ts) of every callback and facts GET the harness sends
 * and of every key a callback named, and it sees every request the receiver makes to the harness's service
 * side. At a test's end it judges:
 *   - the duties of the exchanges the test sent (judge/host/duties.ts, judge-duties.ts), whatever the test is
 *     about: every key of an acknowledged genuine onComplete read, each facts answer a facts answer, a forged
 *     copy refused, a redelivery not handled again;
 *   - every data API request and JWKS fetch journalled since the last judgement (judge/host/read-rules.ts),
 *     retries included: a read of another test's handle only on what needs no attribution (its token, its
 *     path).
 * A check goes only to a test tagged with its clause (reports/check-clause-ids.ts; every host test is tagged
 * with the observer's clauses, host-tags.ts). A duty that held is a pass where the test's title cites its
 * clause (and every request of the test got an answer); the read rules report failures only: a request that
 * broke nothing is no evidence that the test's own rule held, so a clause only the observer adds to a test
 * is noted not exercised there.
 */
import { test, type TestInfo } from '@playwright/test';
import { check, checksOf, notExercised } from '../../shared/index.ts';
import { isClauseIdShape, type ClauseId, type HostCheckId } from '../../../spec/index.ts';
import {
  answered,
  fetchViolations,
  judgeDuties,
  Ledger,
  readViolations,
  type DutyOptions,
  type ServiceSide,
  type Violation,
} from '../../../judge/host/index.ts';
import { titleClauses } from './host-tags.ts';

/** What a test's requests to the service side were, and the rules they broke. */
interface Seen {
  violations: Violation[];
  reads: number;
  fetches: number;
}

export interface Observer {
  /** The ledger of every callback and facts GET the harness sent (deliver.ts records them). */
  readonly ledger: Ledger;
  /** The rules the requests journalled since the last call broke, seen from the test testId. */
  collect(testId: string): Promise<Violation[]>;
  /** Judges the test's duties and the requests journalled since the last judgement, on the test's tagged clauses. */
  judge(info: TestInfo): Promise<void>;
}

/** The read deadline of a judge given none (a self test's service side): the host target's default. */
const DEFAULT_DATA_READ_MS = 10_000;

/** The test running now, if any (a self test drives the harness outside one): the ledger records it. */
function currentTestId(): string | undefined {
  try {
    return test.info().testId;
  } catch {
    return undefined;
  }
}

/** Wraps the service side's announce: each announced key is one a test named, at that journal position. */
export function observe(service: ServiceSide, o: Partial<DutyOptions> = {}): Observer {
  const ledger = new Ledger(service, currentTestId);
  const options: DutyOptions = { ...o, dataReadMs: o.dataReadMs ?? DEFAULT_DATA_READ_MS };
  let judgedUpTo = 0;
  const inner = service.announce.bind(service);
  service.announce = async (endUserHandle, serviceKeys, workspaceKey) => {
    const at = await inner(endUserHandle, serviceKeys, workspaceKey);
    ledger.announced(endUserHandle, serviceKeys, at);
    return at;
  };

  const seen = async (testId: string): Promise<Seen> => {
    await service.sync();
    const reads = service.reads.filter((r) => r.seq > judgedUpTo);
    const fetches = service.jwksFetches.filter((f) => f.seq > judgedUpTo);
    judgedUpTo = Math.max(judgedUpTo, ...reads.map((r) => r.seq), ...fetches.map((f) => f.seq));
    const found = [
      ...reads.flatMap((r) => readViolations(r, testId, service.reads, ledger)),
      ...fetches.flatMap(fetchViolations),
    ];
    return { violations: found, reads: reads.length, fetches: fetches.length };
  };

  return {
    ledger,
    collect: async (testId) => (await seen(testId)).violations,
    async judge(info) {
      const tagged = new Set(info.tags.map((t) => t.replace(/^@/, '')));
      const own = titleClauses(info.title);
      // Whether the test ran to its end with every check held: then a failure found here stopped nothing.
      const held = info.status === 'passed' && !checksOf(info).some((c) => c.outcome === 'failed');
      // The duties first: their reads are waited for, and judged by the read rules below too.
      const inProcess = service.controlUrl === undefined;
      const duties = await judgeDuties(ledger, service, info.testId, tagged, options, inProcess);
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
      // No clause passes in a test where a request got no answer (ack.ts): a duty that held is then no pass.
      const answeredAll = ledger.ofTest(info.testId).every((e) => answered(e.outcome));
      for (const v of duties) {
        if (!v.ok) check.soft(v.clause, v.rule, { id: v.id }).that(false, { expected: v.expected, seen: v.seen });
        else if (own.has(v.clause) && answeredAll)
          check.soft(v.clause, v.rule, { id: v.id }).that(true, { expected: '', seen: '' });
      }
      noteSilence(info, tagged, all);
      const failed = [...found.map((v) => v.clause), ...duties.filter((v) => !v.ok).map((v) => v.clause)];
      if (held && failed.length > 0) noteRanToEnd(info, tagged, failed);
    },
  };
}

/**
 * The judge's failures come after the test body, which ran to its end with every check held: a tagged
 * clause it made no check of was not exercised there, not blocked by them (reports/attribution.ts blocks
 * the unchecked clauses of a failed test, as a failure usually stops it).
 */
function noteRanToEnd(info: TestInfo, tagged: ReadonlySet<string>, failedClauses: readonly ClauseId[]): void {
  const decided = new Set(checksOf(info).flatMap((c) => c.clauses));
  const failed = [...new Set(failedClauses)].join(', ');
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
