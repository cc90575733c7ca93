/**
 * The host as a reader of the data API after onComplete (HOST-13, section 6 rule 8) and as its
 * client (HOST-21, HOST-22, section 7 "Client behaviour"), observed on the harness's data API.
 * Each test uses its own endUserHandle and keys, so reads of parallel tests never mix.
 */
import { test, expect, firstEndpoint } from './fixtures.ts';
import type { HostHarness } from './harness/harness.ts';
import type { DataRead } from './harness/service-side.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload } from './harness/payloads.ts';
import { describe, isAck, type SendOutcome } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe.configure({ mode: 'parallel' });

async function completeKeys(h: HostHarness, handle: string, keys: string[]): Promise<SendOutcome> {
  const ep = firstEndpoint(h);
  await h.service.announce(handle, keys);
  const p = lifecyclePayload('onComplete', { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, endUserHandle: handle, conversationId: freshConversationId(), hookPath: ep.hookPath }, { serviceKeys: keys });
  return deliver(h, ep, p);
}

/** A read covers a key when it asks for it by key, or lists the user's records (which include it). */
const covers = (handle: string, key: string) => (r: DataRead) => r.endUserHandle === handle && (r.serviceKey === key || r.serviceKey === null);
const summary = (r: DataRead) => ({ endUserHandle: r.endUserHandle, serviceKey: r.serviceKey, status: r.status, seq: r.seq });

test('after onComplete the host reads every key in serviceKeys over the data API (HOST-13)', { tag: clauseTags('HOST-13') }, async ({ host }, testInfo) => {
  const deadline = host.target.timeouts.dataReadMs;
  test.setTimeout(host.target.timeouts.requestMs + deadline + 20_000);
  const handle = freshHandle();
  const keys = [freshKey(), freshKey(), freshKey()];
  const ack = await completeKeys(host, handle, keys);
  expect(isAck(ack), describe(ack)).toBe(true);
  const until = performance.now() + deadline;
  const missing: string[] = [];
  for (const k of keys) {
    if ((await host.service.waitForRead(covers(handle, k), until - performance.now())) === undefined) missing.push(k);
  }
  const seen = host.service.reads.filter((r) => r.endUserHandle === handle).map(summary);
  await attachEvidence(testInfo, `every key of serviceKeys must be read over the data API within ${deadline} ms of the acknowledgement`, [ack], seen);
  expect(missing, `keys never read within ${deadline} ms`).toEqual([]);
});

test('a data API read answered 409 is retried (HOST-21)', { tag: clauseTags('HOST-21') }, async ({ host }, testInfo) => {
  const deadline = host.target.timeouts.dataReadMs;
  test.setTimeout(host.target.timeouts.requestMs + 2 * deadline + 20_000);
  const handle = freshHandle();
  const key = freshKey();
  await host.service.script(handle, key, [409]);
  const ack = await completeKeys(host, handle, [key]);
  test.skip(!isAck(ack), `not exercised: the onComplete was not acknowledged (see HOST-1): ${describe(ack)}`);
  const first = await host.service.waitForRead((r) => r.endUserHandle === handle && r.serviceKey === key, deadline);
  test.skip(first === undefined, 'not exercised: the host did not read the key by key after onComplete (see HOST-13)');
  const retry = await host.service.waitForRead((r) => r.endUserHandle === handle && r.serviceKey === key && r.seq > (first?.seq ?? 0), deadline);
  const seen = host.service.reads.filter((r) => r.endUserHandle === handle).map(summary);
  await attachEvidence(testInfo, `a read answered 409 (mid-migration) should be retried with backoff; deadline ${deadline} ms`, [ack], seen);
  expect(retry, `no retry of ${key} within ${deadline} ms of the 409`).toBeDefined();
});

test('a data API read answered 401 is not retried (HOST-22)', { tag: clauseTags('HOST-22') }, async ({ host }, testInfo) => {
  const deadline = host.target.timeouts.dataReadMs;
  const quiet = host.target.timeouts.noRetryWindowMs;
  test.setTimeout(host.target.timeouts.requestMs + deadline + quiet + 20_000);
  const handle = freshHandle();
  const key = freshKey();
  await host.service.script(handle, key, [401, 401, 401, 401, 401]);
  const ack = await completeKeys(host, handle, [key]);
  test.skip(!isAck(ack), `not exercised: the onComplete was not acknowledged (see HOST-1): ${describe(ack)}`);
  const first = await host.service.waitForRead((r) => r.endUserHandle === handle && r.serviceKey === key, deadline);
  test.skip(first === undefined, 'not exercised: the host did not read the key by key after onComplete (see HOST-13)');
  // No contract window for a host's retries: the target's noRetryWindowMs (default 5 s) is the
  // time we watch; the same read repeated within it is a retry.
  const again = await host.service.waitForRead((r) => r.endUserHandle === handle && r.serviceKey === key && r.seq > (first?.seq ?? 0), quiet);
  const seen = host.service.reads.filter((r) => r.endUserHandle === handle).map(summary);
  await attachEvidence(testInfo, `a read answered 401 must never be retried (watched for ${quiet} ms)`, [ack], seen);
  expect(again, `the 401 read of ${key} was repeated ${again ? Math.round(again.atMs - (first?.atMs ?? 0)) : 0} ms later`).toBeUndefined();
});
