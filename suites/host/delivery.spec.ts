/**
 * Delivery semantics on the host side (section 6), watched on what the receiver answers and what
 * it then reads: a redelivery is acknowledged and deduped on its delivery id (HOST-11), attempts 2
 * and 3 are treated like attempt 1, also for a delivery whose attempt 1 never arrived (HOST-12), a
 * later onComplete of the same key is acknowledged and handled again (HOST-20), every page of a
 * bulk manifest is acknowledged (HOST-14, with a full 500-key page: a ~30 KB JWS header in JWKS
 * mode, PITFALLS). The tests send; what an onComplete's history makes of its reads (a redelivery not
 * read again, a delivery first seen at attempt 2 read, a later completion read again) is the judge's
 * rule (judge/host/duties.ts), decided where the test's plain onCompletes were read.
 */
import { randomUUID } from 'node:crypto';
import { bulkPages, unixNow } from '../../protocol/index.ts';
import { test, hostTags, allEndpoints, firstEndpoint } from './fixtures.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload } from './harness/payloads.ts';
import type { SendOutcome } from '../../judge/host/index.ts';
import { complete, readOk } from './harness/reads.ts';
import { ackClauses, acknowledgedOrStop, answeredOrStop, judgeAcks, type SentCallback } from './harness/ack.ts';
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
  // The redelivery follows the first handling: the judge then watches its quiet window for a second round
  // of reads (HOST-11 reading: four times the first reads' latency, 2 s at least, dataReadMs at most).
  await host.service.waitForRead(readOk(done.handle, key), dataReadMs);
  // The redeliveries: the same payload re-signed with a fresh t (5.2.5); onComplete as its attempt 2.
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
  // The onCompletes first seen at attempt 2 or 3 are read like the control at attempt 1: the judge's rule
  // (judge/host/duties.ts), decided where the control was read (whether the host reads at all is
  // HOST-13's).
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
  // The later completion follows the first one's read: the judge then holds it to a read of its own, after it
  // left (judge/host/duties.ts), decided where the first one was read.
  await host.service.waitForRead(readOk(handle, key), dataReadMs);
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
