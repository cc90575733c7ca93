/**
 * HOST-1 / HOST-2: every lifecycle event, correctly signed, is acknowledged with a 2xx within the
 * contract's 10 s whole-request timeout (not scaled: the host must meet the real 10 s), and
 * quickly (read as within 1 s, SHOULD: acknowledge first, work afterwards). All signing modes
 * under test are sent at once, so a slow receiver costs one 10 s wait per event, not one per mode.
 */
import { LIFECYCLE_EVENTS } from '../../protocol/index.ts';
import { test, expect, allEndpoints } from './fixtures.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { describe, isAck } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

/** HOST-2 reading: within 1 s; 500 ms more for the harness's own jitter on a loaded machine. */
const QUICK_MS = 1_000;
const QUICK_TOLERANCE_MS = 500;

test.describe.configure({ mode: 'parallel' });

for (const event of LIFECYCLE_EVENTS) {
  test(`${event}, correctly signed, is acknowledged with a 2xx within 10 s (HOST-1)`, { tag: clauseTags('HOST-1') }, async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs + 20_000);
    const outcomes = await Promise.all(
      allEndpoints(host).map((ep) => {
        const ctx = { workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath };
        const payload = lifecyclePayload(event, ctx);
        if (event === 'onComplete') host.service.announce(ctx.endUserHandle, payload.serviceKeys as string[]);
        return deliver(host, ep, payload);
      }),
    );
    await attachEvidence(testInfo, `the host must answer a correctly signed ${event} with a 2xx within ${host.target.timeouts.requestMs} ms (HOST-1)`, outcomes);
    for (const o of outcomes) expect(isAck(o), describe(o)).toBe(true);
  });

  test(`${event} is acknowledged within 1 s: acknowledge first, work afterwards (HOST-2)`, { tag: clauseTags('HOST-2') }, async ({ host }, testInfo) => {
    test.setTimeout(30_000);
    const outcomes = await Promise.all(
      allEndpoints(host).map((ep) => {
        const ctx = { workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath };
        const payload = lifecyclePayload(event, ctx);
        if (event === 'onComplete') host.service.announce(ctx.endUserHandle, payload.serviceKeys as string[]);
        return deliver(host, ep, payload, { timeoutMs: QUICK_MS + QUICK_TOLERANCE_MS });
      }),
    );
    await attachEvidence(testInfo, `the host should acknowledge ${event} within ${QUICK_MS} ms (+${QUICK_TOLERANCE_MS} ms tolerance) (HOST-2)`, outcomes);
    for (const o of outcomes) expect(isAck(o), describe(o)).toBe(true);
  });
}
