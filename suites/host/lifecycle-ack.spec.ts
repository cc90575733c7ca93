/**
 * HOST-1 / HOST-2: every lifecycle event, correctly signed, is acknowledged with a 2xx within the
 * contract's 10 s whole-request timeout (not scaled: the host must meet the real 10 s), and
 * quickly (read as within 1 s, SHOULD: acknowledge first, work afterwards), judged in one place for
 * every callback of the host suites (harness/ack.ts). A correctly signed callback refused with 401
 * is the verification of its mode refusing a good signature (HOST-10 in HMAC, HOST-7 in JWKS). A
 * refused connection is no answer: it fails HOST-1 and passes nothing. Every event in every signing mode is sent at
 * once, so a slow or hanging receiver costs one 10 s wait, not one per event.
 */
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../protocol/index.ts';
import { test, hostTags, allEndpoints } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { judgeAcks, QUICK_MS } from './harness/ack.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import type { SendOutcome } from '../../judge/host/index.ts';
import { signedModeClauses } from './harness/modes.ts';
import type { ClauseId } from '../../spec/index.ts';

interface Sent {
  ep: ModeEndpoint;
  event: LifecycleEvent;
  outcome: SendOutcome;
}

function sendEvery(host: HostHarness): Promise<Sent[]> {
  return Promise.all(
    allEndpoints(host).flatMap((ep) =>
      (LIFECYCLE_EVENTS as readonly LifecycleEvent[]).map(async (event) => {
        const ctx = {
          workspaceKey: host.target.workspaceKey,
          configEnd: host.target.configEnd,
          endUserHandle: freshHandle(),
          conversationId: freshConversationId(),
          hookPath: ep.hookPath,
        };
        const payload = lifecyclePayload(event, ctx);
        if (event === 'onComplete') await host.service.announce(ctx.endUserHandle, payload.serviceKeys as string[]);
        return { ep, event, outcome: await deliver(host, ep, payload) };
      }),
    ),
  );
}

{
  const clauses: ClauseId[] = ['HOST-1', 'HOST-2', ...signedModeClauses()];
  const title =
    'every lifecycle event, correctly signed, is acknowledged with a 2xx within 10 s, and within 1 s: ' +
    `acknowledge first, work afterwards (${clauses.join(', ')})`;
  test(title, { tag: hostTags(...clauses) }, async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs + 20_000);
    const deadlineMs = host.target.timeouts.requestMs;
    const sent = await sendEvery(host);
    const sentence =
      `the host must answer every correctly signed event with a 2xx within ${deadlineMs} ms (HOST-1), ` +
      `and should within ${QUICK_MS} ms (HOST-2)`;
    await attachEvidence(
      testInfo,
      sentence,
      sent.map((s) => s.outcome),
    );
    judgeAcks(
      sent.map((s) => ({ mode: s.ep.mode, kind: s.event, o: s.outcome })),
      { deadlineMs },
    );
  });
}
