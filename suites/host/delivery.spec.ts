/**
 * Delivery semantics on the host side (section 6): redeliveries and retries are acknowledged
 * (HOST-11, HOST-12), a later onComplete for the same key too (HOST-20), every page of a bulk
 * manifest (HOST-14, with a full 500-key page: a ~30 KB JWS header in JWKS mode, PITFALLS).
 */
import { randomUUID } from 'node:crypto';
import { bulkPages, unixNow } from '../../protocol/index.ts';
import { test, expect, allEndpoints, firstEndpoint } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload, type Payload } from './harness/payloads.ts';
import { describe, isAck, type SendOutcome } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe.configure({ mode: 'parallel' });

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

async function complete(h: HostHarness, ep: ModeEndpoint, keys: string[], handle = freshHandle(), conversationId = freshConversationId()): Promise<Payload> {
  await h.service.announce(handle, keys);
  return lifecyclePayload('onComplete', { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, endUserHandle: handle, conversationId, hookPath: ep.hookPath }, { serviceKeys: keys });
}

test('the same delivery sent twice (same delivery id, fresh signature) is acknowledged both times (HOST-11)', { tag: clauseTags('HOST-11') }, async ({ host }, testInfo) => {
  test.setTimeout(60_000);
  const ep = firstEndpoint(host);
  const saved = lifecyclePayload('config.saved', { workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath });
  const done = await complete(host, ep, [freshKey()]);
  // Both deliveries at once, each followed by its redelivery: the same payload re-signed with a
  // fresh t (5.2.5); the attempt header stays 1 here. A first delivery left unanswered ends it.
  const outcomes = (await Promise.all([saved, done].map((p) => inOrder([
    () => deliver(host, ep, p, { t: unixNow() - 2 }),
    () => deliver(host, ep, p, { t: unixNow() }),
  ])))).flat();
  await attachEvidence(testInfo, 'a redelivery (same X-Service-Delivery-Id, fresh signature) is answered with a 2xx like the first', outcomes);
  for (const o of outcomes) expect(isAck(o), describe(o)).toBe(true);
});

test('onComplete attempts 2 and 3 are acknowledged like attempt 1 (HOST-12)', { tag: clauseTags('HOST-12') }, async ({ host }, testInfo) => {
  test.setTimeout(60_000);
  const ep = firstEndpoint(host);
  const p = await complete(host, ep, [freshKey()]);
  const outcomes = await inOrder([1, 2, 3].map((attempt) => () => deliver(host, ep, p, { attempt })));
  await attachEvidence(testInfo, 'X-Service-Delivery-Attempt 2 and 3 carry the same payload and are answered like attempt 1', outcomes);
  for (const o of outcomes) expect(isAck(o), describe(o)).toBe(true);
});

test('a later onComplete for the same key with a new delivery id is acknowledged (HOST-20)', { tag: clauseTags('HOST-20') }, async ({ host }, testInfo) => {
  test.setTimeout(60_000);
  const ep = firstEndpoint(host);
  const key = freshKey();
  const handle = freshHandle();
  // DELIV-13 reading: a new delivery id means a new conversation.
  const outcomes = await inOrder([
    async () => deliver(host, ep, await complete(host, ep, [key], handle)),
    async () => deliver(host, ep, await complete(host, ep, [key], handle)),
  ]);
  await attachEvidence(testInfo, 'handling of onComplete is idempotent: a second completion of the same key is acknowledged', outcomes);
  for (const o of outcomes) expect(isAck(o), describe(o)).toBe(true);
});

test('every page of a bulk manifest, including a full 500-key page, is acknowledged in every signing mode (HOST-14)', { tag: clauseTags('HOST-14') }, async ({ host }, testInfo) => {
  test.setTimeout(90_000);
  // Every mode at once; within a mode the pages go in order, as the service sends them.
  const outcomes = (await Promise.all(allEndpoints(host).map((ep) => {
    // Keys of realistic length: a 500-key page makes a JWS header well over 16 KB (PITFALLS).
    const keys = Array.from({ length: 1001 }, () => `key-${randomUUID()}`);
    const ctx = { workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath };
    return inOrder(bulkPages(keys).map((page) => () =>
      deliver(host, ep, lifecyclePayload('config.bulk_deleted', ctx, { count: page.count, page: page.page, totalPages: page.totalPages, keys: page.keys }))));
  }))).flat();
  await attachEvidence(testInfo, 'a host mirroring per-key state consumes every page (1001 keys: pages of 500, 500 and 1)', outcomes);
  for (const o of outcomes) expect(isAck(o), describe(o)).toBe(true);
});
