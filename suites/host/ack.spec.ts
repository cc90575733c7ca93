/**
 * HOST-1 / HOST-2: every lifecycle event, correctly signed, is acknowledged with a 2xx within the
 * contract's 10 s whole-request timeout (not scaled: the host must meet the real 10 s), and
 * quickly (read as within 1 s, SHOULD: acknowledge first, work afterwards). Every event in every
 * signing mode is sent at once, so a slow or hanging receiver costs one 10 s wait, not one per
 * event; each assertion names its event and mode.
 */
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../protocol/index.ts';
import { test, expect, allEndpoints } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { describe, isAck, type SendOutcome } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

/** HOST-2 reading: within 1 s; 500 ms more for the harness's own jitter on a loaded machine. */
const QUICK_MS = 1_000;
const QUICK_TOLERANCE_MS = 500;

test.describe.configure({ mode: 'parallel' });

interface Sent { ep: ModeEndpoint; event: LifecycleEvent; outcome: SendOutcome }

function sendEvery(host: HostHarness, timeoutMs?: number): Promise<Sent[]> {
  return Promise.all(allEndpoints(host).flatMap((ep) => (LIFECYCLE_EVENTS as readonly LifecycleEvent[]).map(async (event) => {
    const ctx = { workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath };
    const payload = lifecyclePayload(event, ctx);
    if (event === 'onComplete') await host.service.announce(ctx.endUserHandle, payload.serviceKeys as string[]);
    return { ep, event, outcome: await deliver(host, ep, payload, timeoutMs === undefined ? {} : { timeoutMs }) };
  })));
}

test('every lifecycle event, correctly signed, is acknowledged with a 2xx within 10 s (HOST-1)', { tag: clauseTags('HOST-1') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 20_000);
  const sent = await sendEvery(host);
  await attachEvidence(testInfo, `the host must answer every correctly signed event with a 2xx within ${host.target.timeouts.requestMs} ms (HOST-1)`, sent.map((s) => s.outcome));
  for (const s of sent) expect.soft(isAck(s.outcome), `${s.ep.mode} ${s.event} must be acknowledged with a 2xx within ${host.target.timeouts.requestMs} ms (HOST-1): ${describe(s.outcome)}`).toBe(true);
});

test('every lifecycle event is acknowledged within 1 s: acknowledge first, work afterwards (HOST-2)', { tag: clauseTags('HOST-2') }, async ({ host }, testInfo) => {
  test.setTimeout(30_000);
  const sent = await sendEvery(host, QUICK_MS + QUICK_TOLERANCE_MS);
  await attachEvidence(testInfo, `the host should acknowledge every event within ${QUICK_MS} ms (+${QUICK_TOLERANCE_MS} ms tolerance) (HOST-2)`, sent.map((s) => s.outcome));
  for (const s of sent) expect.soft(isAck(s.outcome), `${s.ep.mode} ${s.event} should be acknowledged within ${QUICK_MS} ms (+${QUICK_TOLERANCE_MS} ms) (HOST-2): ${describe(s.outcome)}`).toBe(true);
});
