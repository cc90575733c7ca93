import { test, expect } from '@playwright/test';
import { startHostHarness, type HostHarness, type ModeEndpoint } from '../../host/index.ts';
import { deliver } from '../../host/harness/deliver.ts';
import { probeCache, rotate } from '../../host/harness/jwks-document.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from '../../host/harness/payloads.ts';
import { isAck, type Payload } from '../../../judge/host/index.ts';

/**
 * HOST-8's verdicts rest on evidence another test cannot produce or hide: every test of a run signs
 * against one JWKS document (and, under `ccs-conformance host`, one receiver), so another test's
 * unknown kid may make the receiver fetch the document at any moment. Here that other test is
 * played on purpose, at the worst moment, against the reference receiver and its faulty variants.
 */
const onStart = (h: HostHarness, ep: ModeEndpoint): Payload =>
  lifecyclePayload('onStart', {
    workspaceKey: h.target.workspaceKey,
    configEnd: h.target.configEnd,
    endUserHandle: freshHandle(),
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  });

/** Another test's callback under a kid the document lacks: a correct receiver refetches, then refuses it. */
const strangerCallback = (h: HostHarness, ep: ModeEndpoint) => {
  const s = ep.stranger!;
  return deliver(h, ep, onStart(h, ep), { signer: { mode: 'jwks', privateKey: s.privateKey, kid: s.kid } });
};

async function withReceiver(fault: string | undefined, body: (h: HostHarness, ep: ModeEndpoint) => Promise<void>) {
  const h = await startHostHarness(fault === undefined ? {} : { CCS_HOST_FAULT: fault });
  try {
    const ep = h.endpoints.jwks!;
    expect(isAck(await deliver(h, ep, onStart(h, ep)))).toBe(true); // the document is cached
    await body(h, ep);
  } finally {
    await h.close();
  }
}

test(
  "a rotation passes when another test's unknown kid made the receiver fetch the new key " +
    "before the rotation's callback came (HOST-8)",
  async () => {
    await withReceiver(undefined, async (h, ep) => {
      let lastBeforeCallback = 0;
      const r = await rotate(h, ep, onStart(h, ep), async () => {
        expect((await strangerCallback(h, ep)).status).toBe(401);
        await h.service.sync();
        lastBeforeCallback = h.service.jwksFetches.at(-1)?.seq ?? 0;
      });
      // The rotation's own callback caused no fetch (the receiver already knew the kid): the former
      // "this callback caused a fetch" check failed here; the fetch after the publication is evidence.
      expect(await h.service.waitForJwksFetch(lastBeforeCallback, 0)).toBeUndefined();
      expect(isAck(r.outcome)).toBe(true);
      expect(r.fetch?.seq).toBeGreaterThan(r.publishedSeq);
    });
  },
);

test(
  "a receiver that never refetches still fails a rotation when another test's unknown kid comes in between " +
    '(HOST-8)',
  async () => {
    await withReceiver('never-refetches-jwks', async (h, ep) => {
      const r = await rotate(h, ep, onStart(h, ep), () => strangerCallback(h, ep));
      expect(isAck(r.outcome)).toBe(false);
      expect(r.fetch).toBeUndefined();
    });
  },
);

// Other tests' unknown kids, fired at once while the probe runs: fetches land in some windows.
async function probeUnderTraffic(h: HostHarness, ep: ModeEndpoint) {
  const traffic = Promise.all(Array.from({ length: 12 }, () => strangerCallback(h, ep)));
  const probe = await probeCache(h, ep, () => onStart(h, ep), 16);
  await traffic;
  return probe;
}

test(
  'the cache check passes a caching receiver and fails one that fetches for every callback, ' +
    "while other tests' unknown kids make it fetch (HOST-8)",
  async () => {
    await withReceiver(undefined, async (h, ep) => {
      const probe = await probeUnderTraffic(h, ep);
      expect(probe.refused).toBeUndefined();
      expect(probe.withFetch).toBeLessThan(probe.outcomes.length);
    });
    await withReceiver('jwks-fetch-every-request', async (h, ep) => {
      const probe = await probeUnderTraffic(h, ep);
      expect(probe.refused).toBeUndefined();
      expect(probe.withFetch).toBe(16);
    });
  },
);
