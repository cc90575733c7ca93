/**
 * Delivery semantics on the host side (section 6), watched on what the receiver answers and what
 * it then reads: a redelivery is acknowledged and deduped on its delivery id (HOST-11), attempts 2
 * and 3 are treated like attempt 1, also for a delivery whose attempt 1 never arrived (HOST-12), a
 * later onComplete of the same key is acknowledged and handled again (HOST-20), every page of a
 * bulk manifest is acknowledged (HOST-14, with a full 500-key page: a ~30 KB JWS header in JWKS
 * mode, PITFALLS).
 */
import { randomUUID } from 'node:crypto';
import { bulkPages, unixNow } from '../../protocol/index.ts';
import { test, hostTags, allEndpoints, firstEndpoint } from './fixtures.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload } from './harness/payloads.ts';
import type { SendOutcome } from './harness/send.ts';
import { complete, journalSeq, readAfter, readOk, readsInWords } from './harness/reads.ts';
import {
  AnswerJudge,
  ackClauses,
  acknowledgedOrStop,
  answeredOrStop,
  judgeAcks,
  type SentCallback,
} from './harness/ack.ts';
import { check, precondition } from '../shared/index.ts';
import type { ClauseId } from '../../spec/index.ts';

/**
 * Every callback of these tests is judged on the acknowledgement duties (harness/ack.ts): HOST-1,
 * HOST-2, and the verifier's clause where HOST-1 decides the 2xx. A test's own clause decides the
 * 2xx of its redeliveries, retries and pages (its own condition); HOST-1 that an answer came.
 */
const tags = (clause: ClauseId, allModes = false): string[] => hostTags(clause, ...ackClauses(!allModes));
const cite = (clause: ClauseId, allModes = false): string => [clause, ...ackClauses(!allModes)].join(', ');
const callbacks = (mode: string, kind: string, os: readonly SendOutcome[]): SentCallback[] =>
  os.map((o) => ({ mode, kind, o }));

/**
 * HOST-11 reading: how long a redelivery is watched for a second round of reads. A receiver that
 * handles the redelivery reads about as fast as it read the first time: four times that, at least
 * 2 s, at most the target's dataReadMs.
 */
function dedupeWindowMs(firstReadMs: number, dataReadMs: number): number {
  return Math.min(dataReadMs, Math.max(2_000, 4 * firstReadMs));
}

/**
 * Sends one after another, as the service would, and stops after a request left unanswered: its
 * verdict is already failed, and a hanging receiver must cost one 10 s wait, not one per step.
 */
async function inOrder(steps: ReadonlyArray<() => Promise<SendOutcome>>): Promise<SendOutcome[]> {
  const out: SendOutcome[] = [];
  for (const step of steps) {
    const o = await step();
    out.push(o);
    if (o.failure !== undefined) break;
  }
  return out;
}

const TITLE_1 =
  `the same delivery sent again (same delivery id, fresh signature) is acknowledged, and deduped on its` +
  ` delivery id (${cite('HOST-11')})`;
test(TITLE_1, { tag: tags('HOST-11') }, async ({ host }, testInfo) => {
  const dataReadMs = host.target.timeouts.dataReadMs;
  test.setTimeout(2 * host.target.timeouts.requestMs + 2 * dataReadMs + 20_000);
  const ep = firstEndpoint(host);
  const saved = lifecyclePayload('config.saved', {
    workspaceKey: host.target.workspaceKey,
    configEnd: host.target.configEnd,
    endUserHandle: freshHandle(),
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  });
  const key = freshKey();
  const done = await complete(host, ep, [key]);
  const deadlineMs = host.target.timeouts.requestMs;
  acknowledgedOrStop(callbacks(ep.mode, 'onComplete', [done.outcome]), { deadlineMs });
  const sentAt = performance.now();
  const first = await host.service.waitForRead(readOk(done.handle, key), dataReadMs);
  // The redeliveries: the same payload re-signed with a fresh t (5.2.5); onComplete as its attempt 2.
  const seq = await journalSeq(host);
  const outcomes = (
    await Promise.all([
      inOrder([() => deliver(host, ep, saved, { t: unixNow() - 2 }), () => deliver(host, ep, saved, { t: unixNow() })]),
      inOrder([() => deliver(host, ep, done.payload, { t: unixNow(), attempt: 2 })]),
    ])
  ).flat();
  await attachEvidence(
    testInfo,
    'a redelivery (same X-Service-Delivery-Id, fresh signature) is answered with a 2xx like the first, and not handled twice',
    [done.outcome, ...outcomes],
  );
  judgeAcks(callbacks(ep.mode, 'redelivery', outcomes), {
    deadlineMs,
    twoXx: {
      clause: 'HOST-11',
      id: 'delivery.redelivery-acked',
      rule: 'a redelivery (same delivery id, same body, fresh signature) is acknowledged like the first',
    },
  });
  // whether it reads at all is HOST-13's: the dedupe is decided only by a receiver that read the first time
  if (first === undefined) return;
  const windowMs = dedupeWindowMs(first.atMs - sentAt, dataReadMs);
  const again = await readAfter(host, readOk(done.handle, key), seq, windowMs);
  // No second read proves a dedupe only when the redelivery was answered (a refused one is never handled).
  new AnswerJudge(outcomes).soft(
    'HOST-11',
    'an onComplete redelivered with X-Service-Delivery-Attempt 2 is deduped on its delivery id: its keys are not ' +
      'read again',
    'delivery.redelivery-deduped',
    again === undefined,
    {
      expected: `no second read within ${windowMs} ms`,
      seen: readsInWords(host, done.handle),
    },
  );
});

const TITLE_2 =
  `onComplete attempts 2 and 3 are treated like attempt 1: acknowledged, and handled when attempt 1 ` +
  `never arrived (${cite('HOST-12')})`;
test(TITLE_2, { tag: tags('HOST-12') }, async ({ host }, testInfo) => {
  const dataReadMs = host.target.timeouts.dataReadMs;
  test.setTimeout(host.target.timeouts.requestMs + dataReadMs + 30_000);
  const ep = firstEndpoint(host);
  // Attempts 1, 2, 3 of one delivery, in order, as the service retries them.
  const retried = await complete(host, ep, [freshKey()]);
  answeredOrStop(
    { mode: ep.mode, kind: 'onComplete at attempt 1', o: retried.outcome },
    host.target.timeouts.requestMs,
  );
  const outcomes = [
    retried.outcome,
    ...(await inOrder([2, 3].map((attempt) => () => deliver(host, ep, retried.payload, { attempt })))),
  ];
  // Deliveries whose attempt 1 was lost on the way: attempt 2 alone, attempt 3 alone; a control at attempt 1.
  const [control, second, third] = await Promise.all(
    [1, 2, 3].map((attempt) => complete(host, ep, [freshKey()], { attempt })),
  );
  await attachEvidence(
    testInfo,
    'X-Service-Delivery-Attempt 2 and 3 carry the same payload and are answered and handled like attempt 1',
    [...outcomes, control!.outcome, second!.outcome, third!.outcome],
  );
  const deadlineMs = host.target.timeouts.requestMs;
  judgeAcks(callbacks(ep.mode, 'onComplete at attempt 1', [control!.outcome]), { deadlineMs });
  const retryRule = 'an onComplete at attempt 2 or 3 is acknowledged like attempt 1';
  judgeAcks(callbacks(ep.mode, 'onComplete', [...outcomes, second!.outcome, third!.outcome]), {
    deadlineMs,
    twoXx: { clause: 'HOST-12', id: 'delivery.retry-acked', rule: retryRule },
  });
  const readOf = (c: typeof control) => host.service.waitForRead(readOk(c!.handle, c!.keys[0]!), dataReadMs);
  const [controlRead, secondRead, thirdRead] = await Promise.all([readOf(control), readOf(second), readOf(third)]);
  // Whether the host reads after onComplete at all is HOST-13's; here only: like attempt 1.
  precondition(controlRead !== undefined, 'the keys of an onComplete at attempt 1 are read (HOST-13)', {
    expected: 'a read',
    seen: readsInWords(host, control!.handle),
  });
  for (const [c, read] of [
    [second, secondRead],
    [third, thirdRead],
  ] as const) {
    check
      .soft(
        'HOST-12',
        `an onComplete first seen at attempt ${c === second ? 2 : 3} is handled like attempt 1: its keys are read`,
        { id: 'delivery.unseen-retry-handled' },
      )
      .that(read !== undefined, {
        expected: `a read within ${dataReadMs} ms, as for attempt 1`,
        seen: readsInWords(host, c!.handle),
      });
  }
});

const TITLE_3 =
  `a later onComplete for the same key, with a new delivery id, is acknowledged and handled again ` +
  `(${cite('HOST-20')})`;
test(TITLE_3, { tag: tags('HOST-20') }, async ({ host }, testInfo) => {
  const dataReadMs = host.target.timeouts.dataReadMs;
  test.setTimeout(2 * host.target.timeouts.requestMs + 2 * dataReadMs + 20_000);
  const ep = firstEndpoint(host);
  const key = freshKey();
  const handle = freshHandle();
  // DELIV-13 reading: a new delivery id means a new conversation.
  const one = await complete(host, ep, [key], { handle });
  const deadlineMs = host.target.timeouts.requestMs;
  acknowledgedOrStop(callbacks(ep.mode, 'onComplete', [one.outcome]), { deadlineMs });
  const firstRead = await host.service.waitForRead(readOk(handle, key), dataReadMs);
  const seq = await journalSeq(host);
  const two = await complete(host, ep, [key], { handle });
  await attachEvidence(
    testInfo,
    'handling of onComplete is idempotent: a second completion of the same key is acknowledged and its key read again',
    [one.outcome, two.outcome],
  );
  judgeAcks(callbacks(ep.mode, 'later onComplete', [two.outcome]), {
    deadlineMs,
    twoXx: {
      clause: 'HOST-20',
      id: 'delivery.repeat-complete-acked',
      rule: 'a later onComplete of the same key, with a new delivery id, is acknowledged',
    },
  });
  precondition(firstRead !== undefined, 'the key of the first onComplete is read (HOST-13)', {
    expected: 'a read',
    seen: readsInWords(host, handle),
  });
  const again = await readAfter(host, readOk(handle, key), seq, dataReadMs);
  check
    .soft(
      'HOST-20',
      'a later onComplete of the same key, with a new delivery id, is handled again: the key is read again (section 6 rule 5)',
      { id: 'delivery.repeat-complete-read' },
    )
    .that(again !== undefined, { expected: `a second read within ${dataReadMs} ms`, seen: readsInWords(host, handle) });
});

const TITLE_4 =
  `every page of a bulk manifest, including a full 500-key page, is acknowledged in every signing mode ` +
  `(${cite('HOST-14', true)})`;
test(TITLE_4, { tag: tags('HOST-14', true) }, async ({ host }, testInfo) => {
  test.setTimeout(90_000);
  // Every mode at once; within a mode the pages go in order, as the service sends them.
  const sent = (
    await Promise.all(
      allEndpoints(host).map(async (ep) => {
        // Keys of realistic length: a 500-key page makes a JWS header well over 16 KB (PITFALLS).
        const keys = Array.from({ length: 1001 }, () => `key-${randomUUID()}`);
        const ctx = {
          workspaceKey: host.target.workspaceKey,
          configEnd: host.target.configEnd,
          endUserHandle: freshHandle(),
          conversationId: freshConversationId(),
          hookPath: ep.hookPath,
        };
        const pages = bulkPages(keys);
        const outcomes = await inOrder(
          pages.map(
            (page) => () =>
              deliver(
                host,
                ep,
                lifecyclePayload('config.bulk_deleted', ctx, {
                  count: page.count,
                  page: page.page,
                  totalPages: page.totalPages,
                  keys: page.keys,
                }),
              ),
          ),
        );
        return outcomes.map((o, i) => {
          const page = pages[i]!;
          return { o, mode: ep.mode, what: `page ${page.page} of ${page.totalPages} (${page.keys.length} keys)` };
        });
      }),
    )
  ).flat();
  await attachEvidence(
    testInfo,
    'a host mirroring per-key state consumes every page (1001 keys: pages of 500, 500 and 1)',
    sent.map((s) => s.o),
  );
  for (const { o, mode, what } of sent) {
    judgeAcks([{ mode, kind: what, o }], {
      deadlineMs: host.target.timeouts.requestMs,
      twoXx: {
        clause: 'HOST-14',
        id: 'delivery.every-page-acked',
        rule: `${mode}: ${what} of a bulk manifest is acknowledged`,
      },
    });
  }
});
