/**
 * HOST-1 / HOST-2: every lifecycle event, correctly signed, is acknowledged with a 2xx within the
 * contract's 10 s whole-request timeout (not scaled: the host must meet the real 10 s), and
 * quickly (read as within 1 s, SHOULD: acknowledge first, work afterwards). A correctly signed
 * callback refused with 401 is the verification of its mode refusing a good signature (HOST-10 in
 * HMAC, HOST-7 in JWKS: harness/judge-signatures.ts). Every event in every signing mode is sent at
 * once, so a slow or hanging receiver costs one 10 s wait, not one per event.
 */
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../protocol/index.ts';
import { test, allEndpoints } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { judgeCorrectlySigned } from './harness/judge-signatures.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { describe, type SendOutcome } from './harness/send.ts';
import { signedModeClauses } from './harness/modes.ts';
import { check } from '../shared/index.ts';

/** HOST-2 reading: within 1 s; 500 ms more for the harness's own jitter on a loaded machine. */
const QUICK_MS = 1_000;
const QUICK_TOLERANCE_MS = 500;

interface Sent { ep: ModeEndpoint; event: LifecycleEvent; outcome: SendOutcome }

function sendEvery(host: HostHarness, timeoutMs?: number): Promise<Sent[]> {
  return Promise.all(allEndpoints(host).flatMap((ep) => (LIFECYCLE_EVENTS as readonly LifecycleEvent[]).map(async (event) => {
    const ctx = { workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath };
    const payload = lifecyclePayload(event, ctx);
    if (event === 'onComplete') await host.service.announce(ctx.endUserHandle, payload.serviceKeys as string[]);
    return { ep, event, outcome: await deliver(host, ep, payload, timeoutMs === undefined ? {} : { timeoutMs }) };
  })));
}

{
  const clauses = ['HOST-1', ...signedModeClauses()];
  test(`every lifecycle event, correctly signed, is acknowledged with a 2xx within 10 s (${clauses.join(', ')})`, { tag: clauses.map((c) => `@${c}`) }, async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs + 20_000);
    const sent = await sendEvery(host);
    await attachEvidence(testInfo, `the host must answer every correctly signed event with a 2xx within ${host.target.timeouts.requestMs} ms (HOST-1)`, sent.map((s) => s.outcome));
    for (const s of sent) judgeCorrectlySigned(s.ep.mode, s.event, s.outcome, host.target.timeouts.requestMs);
  });
}

test('every lifecycle event is answered within 1 s: acknowledge first, work afterwards (HOST-2)', { tag: ['@HOST-2'] }, async ({ host }, testInfo) => {
  test.setTimeout(30_000);
  const sent = await sendEvery(host, QUICK_MS + QUICK_TOLERANCE_MS);
  await attachEvidence(testInfo, `the host should answer every event within ${QUICK_MS} ms (+${QUICK_TOLERANCE_MS} ms tolerance) (HOST-2)`, sent.map((s) => s.outcome));
  // HOST-2 decides the time only: whether the answer is a 2xx is HOST-1's (and the verifier's) rule.
  for (const s of sent) {
    check.soft('HOST-2', `${s.ep.mode} ${s.event} is answered within ${QUICK_MS} ms (+${QUICK_TOLERANCE_MS} ms)`, { id: 'ack.within-1s' })
      .that(s.outcome.failure !== 'timeout', { expected: `an answer within ${QUICK_MS + QUICK_TOLERANCE_MS} ms`, seen: describe(s.outcome) });
  }
});
