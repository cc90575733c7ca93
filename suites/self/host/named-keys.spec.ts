/**
 * The host direction's judge (suites/host/harness/observer.ts) against correct receivers it must pass: a host
 * may read any key any callback the harness sent named (an onComplete's serviceKeys, the serviceKey of
 * config.saved and config.deleted, a bulk page's keys), whichever test sent it. The reference receiver's
 * variant reads-saved-record also reads the record a config.saved or config.deleted names (the natural
 * reaction to a notification that carries no values), in the conversation of an onComplete whose keys it
 * reads: the judge finds no rule broken and every duty held. The same traffic as the host suites', through
 * the same harness: deliver.ts records each exchange in the judge's ledger.
 */
import { test, expect } from '@playwright/test';
import { startHostHarness, type HostHarness, type ModeEndpoint } from '../../host/index.ts';
import { deliver } from '../../host/harness/deliver.ts';
import { judgeDuties, isAck } from '../../../judge/host/index.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload } from '../../host/harness/payloads.ts';

/** The reference receivers in-process (no target, no fault), whatever the run around this test set. */
const ENV = { ...process.env, CCS_HOST_TARGET: '', CCS_HOST_FAULT: '', CCS_SERVICE_CONTROL: '', CCS_SERVICE_PORT: '' };
/** The clauses the duties of this traffic decide. */
const TAGGED = new Set(['HOST-11', 'HOST-13', 'HOST-15']);

/** One conversation's onStart, config.saved, onComplete and config.deleted, and a control onComplete before them. */
async function conversation(h: HostHarness, ep: ModeEndpoint): Promise<{ handle: string; saved: string }> {
  const base = { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, hookPath: ep.hookPath };
  const control = lifecyclePayload('onComplete', {
    ...base,
    endUserHandle: freshHandle(),
    conversationId: freshConversationId(),
  });
  expect(isAck(await deliver(h, ep, control))).toBe(true);
  const ctx = { ...base, endUserHandle: freshHandle(), conversationId: freshConversationId() };
  const saved = freshKey();
  for (const p of [
    lifecyclePayload('onStart', ctx),
    lifecyclePayload('config.saved', ctx, { serviceKey: saved }),
    lifecyclePayload('onComplete', ctx, { serviceKeys: [freshKey(), freshKey()] }),
    lifecyclePayload('config.deleted', ctx, { serviceKey: freshKey() }),
    lifecyclePayload('config.bulk_deleted', ctx, { count: 2, page: 1, totalPages: 1, keys: [freshKey(), freshKey()] }),
  ])
    expect(isAck(await deliver(h, ep, p))).toBe(true);
  return { handle: ctx.endUserHandle, saved };
}

test('a receiver that also reads the records config.saved and config.deleted name passes the judge (HOST-13)', async () => {
  test.setTimeout(30_000);
  const h = await startHostHarness(ENV, { variant: 'reads-saved-record' });
  try {
    const me = test.info().testId;
    const sent = await Promise.all(Object.values(h.endpoints).map((ep) => conversation(h, ep)));
    // The variant read what config.saved named (the record exists: the data API serves it).
    for (const { handle, saved } of sent) {
      const read = await h.service.waitForRead((r) => r.endUserHandle === handle && r.serviceKey === saved, 5_000);
      expect(read?.status, `the read of the saved record of ${handle}`).toBe(200);
    }
    const verdicts = await judgeDuties(h.observer.ledger, h.service, me, TAGGED, { dataReadMs: 5_000 }, true);
    expect(verdicts.filter((v) => !v.ok)).toEqual([]);
    // The onCompletes' keys read (HOST-13) and the conversation's onComplete handled (HOST-11), in both modes.
    const ids = verdicts.map((v) => `${v.clause} ${v.id}`).sort();
    expect(new Set(ids)).toEqual(
      new Set(['HOST-13 observe.every-key-read', 'HOST-11 delivery.same-conversation-handled']),
    );
    expect(await h.observer.collect(me)).toEqual([]);
  } finally {
    await h.close();
  }
});

test('the judge still fails a read of a key no callback named, in the test that named the user (HOST-13)', async () => {
  test.setTimeout(30_000);
  const h = await startHostHarness(ENV);
  try {
    const me = test.info().testId;
    const ep = Object.values(h.endpoints)[0]!;
    const { handle } = await conversation(h, ep);
    await h.service.sync();
    const path = `/api/${h.target.workspaceKey}/endpoints/settings/data/${encodeURIComponent(handle)}/made-up`;
    const res = await fetch(h.service.url + path, { headers: { authorization: `Bearer ${h.target.bearerToken}` } });
    expect(res.status).toBe(404);
    expect((await h.observer.collect(me)).map((v) => v.id)).toContain('observe.read-announced-key');
  } finally {
    await h.close();
  }
});
