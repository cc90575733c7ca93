/**
 * HOST-8, HOST-9: what a correct verifier must accept during a rotation (the previous HMAC
 * secret, a rotated JWKS key) and how it keeps the JWKS document (cached, refetched when a kid is
 * unknown), watched on the harness's own JWKS server. The bad signatures are tried on every kind
 * of signed request in every-signed-request.spec.ts, whitespace in generated-payloads.spec.ts.
 * onStart is used here: it carries no keys, so no data API reads follow.
 */
import { test, hostTags, modeEndpoint } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver, type DeliverOptions } from './harness/deliver.ts';
import { probeCache, rotate, type Rotation } from './harness/jwks-document.ts';
import { attachEvidence } from './harness/evidence.ts';
import { acknowledgedOrStop, judgeAcks } from './harness/ack.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { answered, type Payload, type SendOutcome } from '../../judge/host/index.ts';
import { check } from '../shared/index.ts';

/**
 * HOST-8 reading of "Cache it": of callbacks under a known kid sent one at a time, not every one may
 * meet a fetch of the document. Up to this many are sent; the first verified without a fetch ends it.
 * Other tests' unknown kids put a fetch in a window now and then, never in all of them.
 */
const CACHE_TRIES = 16;

/**
 * Rotations one after the other: the second comes milliseconds after a fetch (the first's), so a
 * refetch cooldown refuses one of them whatever the receiver fetched before the test began.
 */
const ROTATIONS = 2;

function onStart(h: HostHarness, ep: ModeEndpoint): Payload {
  return lifecyclePayload('onStart', {
    workspaceKey: h.target.workspaceKey,
    configEnd: h.target.configEnd,
    endUserHandle: freshHandle(),
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  });
}

/** The acknowledgement duties of the JWKS tests' callbacks (harness/ack.ts): a 401 is JWKS verification's. */
const JWKS_ACK_TAGS = hostTags('HOST-8', 'HOST-1', 'HOST-2', 'HOST-7');

/**
 * A first callback under the current key, so the host has cached the document before what follows.
 * Judged as every callback is (HOST-1, HOST-2, HOST-7 on a 401); the test stops when it is not acknowledged.
 */
async function warmUp(h: HostHarness, ep: ModeEndpoint): Promise<SendOutcome> {
  const warm = await deliver(h, ep, onStart(h, ep));
  acknowledgedOrStop([{ mode: 'jwks', kind: 'onStart under the current key', o: warm }], {
    deadlineMs: h.target.timeouts.requestMs,
  });
  return warm;
}

test.describe('hmac rotation', () => {
  test(
    'hmac: a callback signed with the previous secret is acknowledged during the overlap (HOST-9, HOST-1, HOST-2)',
    {
      tag: hostTags('HOST-9', 'HOST-1', 'HOST-2'),
    },
    async ({ host }, testInfo) => {
      test.setTimeout(30_000);
      const ep = modeEndpoint(host, 'hmac');
      test.skip(
        ep.previousSecret === undefined,
        'capability previous secret not offered by the target (signing.previousSecret not set)',
      );
      // Genuine: the previous secret is valid during the overlap (5.2).
      const o: DeliverOptions = { signer: { mode: 'hmac', secret: ep.previousSecret ?? '' }, genuine: true };
      const out = await deliver(host, ep, onStart(host, ep), o);
      await attachEvidence(testInfo, 'either secret is accepted during a rotation', [out]);
      // No answer (or a 404) is HOST-1's, never a refusal of the previous secret (harness/ack.ts).
      judgeAcks([{ mode: 'hmac', kind: 'onStart signed with the previous secret', o: out }], {
        deadlineMs: host.target.timeouts.requestMs,
        twoXx: {
          clause: 'HOST-9',
          id: 'hmac.previous-secret-accepted',
          ownsRefusal: true,
          rule: 'a callback signed with the previous secret is acknowledged during the overlap',
        },
      });
    },
  );
});

test.describe('jwks', () => {
  const rotationTitle =
    'jwks: a callback under a newly published kid is acknowledged, ' +
    'the JWKS document fetched after the key was published (HOST-8, HOST-1, HOST-2, HOST-7)';
  test(rotationTitle, { tag: JWKS_ACK_TAGS }, async ({ host }, testInfo) => {
    test.setTimeout(40_000);
    const ep = modeEndpoint(host, 'jwks');
    // Warm up: the host must have cached the document before the rotation for a refetch to mean anything.
    const warm = await warmUp(host, ep);
    const rotations: Rotation[] = [];
    for (let i = 0; i < ROTATIONS; i++) rotations.push(await rotate(host, ep, onStart(host, ep)));
    const entries = rotations.map((r) => ({ kid: r.kid, publishedSeq: r.publishedSeq, fetchSeq: r.fetch?.seq }));
    await attachEvidence(
      testInfo,
      'a kid the host has not seen makes it refetch the JWKS document (a rotation)',
      [warm, ...rotations.map((r) => r.outcome)],
      entries,
    );
    // Whichever request made the host fetch (another test's unknown kid too): the verdict rests on a
    // fetch after the publication and the callback under the new kid accepted (reading of HOST-8).
    rotations.forEach((r, i) => {
      const which = i === 0 ? 'a rotated key' : 'a second rotated key, milliseconds after the last fetch';
      const id = 'jwks.refetch-on-new-kid';
      // No answer or a 404 is HOST-1's, never a refusal of the new kid; a 401 is HOST-8's (harness/ack.ts).
      const rule = `a callback signed with ${which} (a kid the cached document lacks) is acknowledged`;
      judgeAcks([{ mode: 'jwks', kind: `onStart under ${which}`, o: r.outcome }], {
        deadlineMs: host.target.timeouts.requestMs,
        twoXx: { clause: 'HOST-8', id, rule, ownsRefusal: true },
      });
      if (!answered(r.outcome)) return;
      check
        .soft('HOST-8', 'the JWKS document is fetched after the new key was published, before the answer', { id })
        .that(r.fetch !== undefined, {
          expected: `a fetch of the JWKS document journalled after seq ${r.publishedSeq}`,
          seen: 'no fetch since the key was published',
        });
    });
  });

  test(
    'jwks: the JWKS document is cached, not fetched for every callback (HOST-8, HOST-1, HOST-2, HOST-7)',
    {
      tag: JWKS_ACK_TAGS,
    },
    async ({ host }, testInfo) => {
      test.setTimeout(60_000);
      const ep = modeEndpoint(host, 'jwks');
      await warmUp(host, ep);
      const probe = await probeCache(host, ep, () => onStart(host, ep), CACHE_TRIES);
      const sent = probe.outcomes.length;
      const sentence = `callbacks under a known kid, one at a time: ${probe.withFetch} of ${sent} met a fetch of it`;
      await attachEvidence(testInfo, sentence, probe.outcomes);
      acknowledgedOrStop(
        probe.outcomes.map((o, i) => ({ mode: 'jwks', kind: `onStart #${i + 1} under a known kid`, o })),
        {
          deadlineMs: host.target.timeouts.requestMs,
        },
      );
      const rule = 'the JWKS document is cached: not every callback under a known kid meets a fetch of it';
      check('HOST-8', rule, { id: 'jwks.cached' }).that(probe.withFetch < sent, {
        expected: 'a callback answered with no fetch of the document while it was in flight',
        seen: `a fetch during each of ${sent} callbacks`,
      });
    },
  );
});
