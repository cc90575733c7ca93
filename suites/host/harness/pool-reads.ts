/**
 * Reads in every state: more reads of one onComplete fail at once than a host's pool of
 * readers holds. 64 keys, of which 4 are held past the read deadline (they keep a bounded pool's readers
 * busy), 26 answer 503 and 26 answer 409 before their record, and 8 answer at once. HOST-13: every key is
 * read (the judge's rule, observer.ts, in this case's words); HOST-21: every read answered 409 or 503 is
 * retried until it gets the record. A receiver with a bounded pool that queues its work holds, down to one
 * that reads one key at a time (HOST-13's reading: awaiting a held read is no fault); one that drops reads
 * or retries when its pool is full fails.
 * Sent after failed-reads.spec.ts's cases, in their test, so a receiver that never answers costs no more time.
 */
import type { TestInfo } from '@playwright/test';
import type { HostHarness, ModeEndpoint } from './harness.ts';
import { attachEvidence } from './evidence.ts';
import { freshHandle, freshKey } from './payloads.ts';
import { complete, covers, readOk, summary, type Completion } from './reads.ts';
import type { DataRead } from '../../../judge/host/index.ts';
import { check, notExercised } from '../../shared/index.ts';

const HELD = 4;
const EACH_STATUS = 26;
const QUICK = 8;
export const POOL_KEYS = HELD + 2 * EACH_STATUS + QUICK;

export const POOL_WORDS =
  `an onComplete naming ${POOL_KEYS} keys, ${POOL_KEYS - QUICK} of whose first reads fail at once (${HELD} held ` +
  `past the read deadline, ${EACH_STATUS} answered 503, ${EACH_STATUS} answered 409: more than a pool of readers ` +
  `holds)`;

/** The first few keys of a list, for a failure's words. */
const some = (keys: readonly string[]): string =>
  `${keys.length}: ${JSON.stringify(keys.slice(0, 4))}${keys.length > 4 ? ' ...' : ''}`;

export interface PoolCase {
  c: Completion;
  /** How long judge may wait at most (for the test's timeout). */
  capMs: number;
  /**
   * Waits for the reads and judges HOST-21 (after the onComplete was acknowledged); every key read (HOST-13) is
   * the judge's rule (observer.ts), decided once the wait is over.
   */
  judge(testInfo: TestInfo): Promise<void>;
}

/** The longest the 64-key case waits for its reads: what one reader of one key at a time takes. */
export function poolCapMs(host: HostHarness): number {
  const deadline = host.target.timeouts.dataReadMs;
  return HELD * (deadline + 1_000) + POOL_KEYS * 1_000 + 2 * deadline;
}

/** Scripts the 64 keys and sends their onComplete; judge() once it is acknowledged. */
export async function sendPoolCase(host: HostHarness, ep: ModeEndpoint): Promise<PoolCase> {
  const deadline = host.target.timeouts.dataReadMs;
  // The held reads are answered 1 s past the read deadline (as in failed-reads.spec.ts). The contract sets no
  // time limit on a read, and a pool of any size (one reader included) takes its time: the keys are waited for
  // while the receiver makes progress. It has stopped when no read of the user came for a held read and a read
  // deadline (HOST-21's reading: a retry within dataReadMs); at most what one reader of one key at a time
  // takes: every held read, a second of back-off a key, and two read deadlines.
  const holdMs = deadline + 1_000;
  const quietMs = holdMs + deadline;
  const capMs = poolCapMs(host);
  const handle = freshHandle();
  const held = Array.from({ length: HELD }, freshKey);
  const on503 = Array.from({ length: EACH_STATUS }, freshKey);
  const on409 = Array.from({ length: EACH_STATUS }, freshKey);
  const quick = Array.from({ length: QUICK }, freshKey);
  // The failing keys first in serviceKeys, the held ones first of all: a pool meets them before the rest.
  const keys = [...held, ...on503, ...on409, ...quick];
  await Promise.all([
    ...held.map((k) => host.service.script(handle, k, [], { ms: holdMs, reads: 1 })),
    ...on503.map((k) => host.service.script(handle, k, [503])),
    ...on409.map((k) => host.service.script(handle, k, [409])),
  ]);
  const c = await complete(host, ep, keys, {
    handle,
    keysRead: {
      id: 'data.every-key-read-pool',
      rule:
        `every one of the ${POOL_KEYS} keys of serviceKeys is read although ${POOL_KEYS - QUICK} of their first ` +
        'reads fail at once',
    },
  });
  const sentAt = performance.now();
  return {
    c,
    capMs,
    async judge(testInfo) {
      const until = sentAt + capMs;
      const mine = (): DataRead[] => host.service.reads.filter((r) => r.endUserHandle === handle);
      const unread = (): string[] => keys.filter((k) => !mine().some(covers(handle, k)));
      /** Keys a read of which was answered 409 or 503 (HOST-21's to retry), and those of them not yet read 200. */
      const refused = (): string[] =>
        keys.filter((k) => mine().some((r) => r.serviceKey === k && (r.status === 409 || r.status === 503)));
      const unretried = (): string[] => refused().filter((k) => !mine().some(readOk(handle, k)));
      // One wait on the journal, woken by each read of this user, until every key is read and retried, the
      // receiver stops (no read for quietMs) or the cap.
      let after = 0;
      let last = performance.now();
      while (unread().length > 0 || unretried().length > 0) {
        const left = Math.min(until, last + quietMs) - performance.now();
        if (left <= 0) break;
        const r = await host.service.waitForRead((x) => x.seq > after && x.endUserHandle === handle, left);
        if (r === undefined) break;
        after = r.seq;
        last = performance.now();
      }
      const within = `while reads keep coming (none for ${quietMs} ms ends the wait), within ${capMs} ms`;

      const statuses = new Map<number, number>();
      for (const r of mine()) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      const tally = [...statuses].map(([s, n]) => `${n} answered ${s}`).join(', ') || 'no read';
      await attachEvidence(
        testInfo,
        `every one of the ${POOL_KEYS} keys must be read, and every read answered 409 or 503 retried until ` +
          'answered 200, ' +
          within,
        [c.outcome],
        mine().map(summary),
      );
      if (refused().length === 0) {
        notExercised('HOST-21', 'no read of a key was answered 409 or 503 (the keys were read through the list GET)');
        return;
      }
      const notRetried = unretried();
      check
        .soft(
          'HOST-21',
          `every key whose read was answered 409 or 503 is retried until it gets the record, with ` +
            `${refused().length} such reads at once`,
          { id: 'data.retry-pool' },
        )
        .that(notRetried.length === 0, {
          expected: `a retry of each answered 200, ${within}`,
          seen: `keys not retried to a 200, ${some(notRetried)} (reads of this user: ${tally})`,
        });
    },
  };
}
