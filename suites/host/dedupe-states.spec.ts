/**
 * HOST-11 in the states a dedupe meets beyond one redelivery (section 6: dedupe on
 * X-Service-Delivery-Id): several events of one conversation, each with its own delivery id (HDR-3),
 * and a genuine delivery that follows a forged copy of it (same delivery id, refused 401). In both,
 * the onComplete must be handled: its keys read. The tests send; the judge (judge/host/duties.ts)
 * holds the onComplete to its reads, decided where a control onComplete of a fresh conversation in the
 * same test was read (whether the receiver reads at all is HOST-13's), so a missing read here is the
 * dedupe's; and it holds the forged copy to its refusal (the verifier's clause of the first signing mode).
 */
import { test, hostTags, allEndpoints, firstEndpoint } from './fixtures.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload } from './harness/payloads.ts';
import { answered, describe, type Payload, type SendOutcome, type RefusalCheck } from '../../judge/host/index.ts';
import { complete, readOk } from './harness/reads.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { ackClauses, answeredOrStop, failNoAnswer, judgeAcks, acknowledgedOrStop } from './harness/ack.ts';
import { precondition } from '../shared/index.ts';
import { signingModesUnderTest } from './harness/modes.ts';
import type { ClauseId } from '../../spec/index.ts';

const cite = ['HOST-11', ...ackClauses(true)].join(', ');
const tags = hostTags('HOST-11', ...ackClauses(true));

/**
 * The forged copy is signed over other whitespace than the bytes sent: the signature case of the first signing
 * mode under test (signature-cases-window.ts), HOST-4's in HMAC, HOST-7's (step 6) in JWKS.
 */
const FORGED: RefusalCheck =
  signingModesUnderTest()[0] === 'jwks'
    ? {
        clause: 'HOST-7',
        id: 'sig.jws-reserialized-body',
        rule: 'a forged copy (signed over other whitespace than the bytes sent) is refused',
      }
    : {
        clause: 'HOST-4',
        id: 'sig.reserialized-body',
        rule: 'a forged copy (signed over other whitespace than the bytes sent) is refused',
      };
const FORGED_CLAUSES: ClauseId[] = ['HOST-11', ...new Set<ClauseId>([FORGED.clause, ...ackClauses(true)])];

/** An onComplete of a fresh conversation, not yet sent (deliver.ts serves its keys). */
function announced(h: HostHarness, ep: ModeEndpoint): Payload {
  const endUserHandle = freshHandle();
  const keys = [freshKey()];
  const ctx = {
    workspaceKey: h.target.workspaceKey,
    configEnd: h.target.configEnd,
    endUserHandle,
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  };
  return lifecyclePayload('onComplete', ctx, { serviceKeys: keys });
}

/** Waits for the reads of an onComplete (the judge decides them), so the evidence holds them. */
const readOf = (h: HostHarness, p: Payload) =>
  h.service.waitForRead(
    readOk(p.endUserHandle as string, (p.serviceKeys as string[])[0]!),
    h.target.timeouts.dataReadMs,
  );

const TITLE_1 =
  'onStart, config.saved and onComplete of one conversation, each with its own delivery id, are each ' +
  `handled: the onComplete's keys are read (${cite})`;
test(TITLE_1, { tag: tags }, async ({ host }, testInfo) => {
  const { requestMs, dataReadMs } = host.target.timeouts;
  test.setTimeout(4 * requestMs + dataReadMs + 20_000);
  const ep = firstEndpoint(host);
  const control = await complete(host, ep, [freshKey()]);
  answeredOrStop({ mode: ep.mode, kind: 'control onComplete', o: control.outcome }, requestMs);
  const done = announced(host, ep);
  const ctx = {
    workspaceKey: host.target.workspaceKey,
    configEnd: host.target.configEnd,
    endUserHandle: done.endUserHandle as string,
    conversationId: done.conversationId,
    hookPath: ep.hookPath,
  };
  // In the order the service sends them (section 6), each waited for as the service waits for its answer.
  const outcomes: SendOutcome[] = [];
  for (const p of [lifecyclePayload('onStart', ctx), lifecyclePayload('config.saved', ctx), done]) {
    outcomes.push(await deliver(host, ep, p));
  }
  const kinds = ['onStart', 'config.saved', 'onComplete'];
  const sent = [control.outcome, ...outcomes].map((o, i) => ({
    mode: ep.mode,
    kind: ['control onComplete', ...kinds][i]!,
    o,
  }));
  await attachEvidence(
    testInfo,
    'the events of one conversation have different delivery ids (HDR-3): a later one is' +
      ' no duplicate of an earlier one',
    [control.outcome, ...outcomes],
  );
  acknowledgedOrStop(sent, { deadlineMs: requestMs });
  await Promise.all([readOf(host, control.payload), readOf(host, done)]);
});

const TITLE_2 =
  'a forged copy of an onComplete (same delivery id, signed over other bytes) is refused, and the genuine one ' +
  `that follows it is acknowledged and handled: its keys are read (${FORGED_CLAUSES.join(', ')})`;
test(TITLE_2, { tag: hostTags(...FORGED_CLAUSES) }, async ({ host }, testInfo) => {
  const { requestMs, dataReadMs } = host.target.timeouts;
  test.setTimeout(3 * requestMs + dataReadMs + 20_000);
  const ep = allEndpoints(host).find((e) => e.mode !== 'none');
  test.skip(ep === undefined, 'capability a signing mode not offered by the target: no copy can be forged');
  const control = await complete(host, ep!, [freshKey()]);
  answeredOrStop({ mode: ep!.mode, kind: 'control onComplete', o: control.outcome }, requestMs);
  const done = announced(host, ep!);
  // The forged copy: the same bytes and headers, signed over other bytes (a signature that fails verification).
  // Its refusal is a duty the judge holds it to (any 4xx: 401 itself is HOST-3's, judged on the signature
  // cases); a refused copy makes the genuine delivery the first one received, so the judge decides the
  // genuine one's reads only where the copy was refused.
  const forged = await deliver(host, ep!, done, {
    signedBody: Buffer.from(`${JSON.stringify(done)} `),
    expect: { refused: FORGED },
  });
  // No answer is no refusal (PITFALLS "Evidence"): HOST-1 fails on it, and the test stops there.
  if (!answered(forged)) {
    failNoAnswer({ mode: ep!.mode, kind: 'forged onComplete', o: forged }, requestMs, 'ack.answered');
    precondition(false, 'the forged onComplete is answered (HOST-1)', {
      expected: 'an HTTP answer',
      seen: describe(forged),
    });
  }
  const genuine = await deliver(host, ep!, done);
  await attachEvidence(
    testInfo,
    'a delivery refused for its signature was never received: the genuine delivery with' +
      ' the same delivery id is its first',
    [control.outcome, forged, genuine],
  );
  acknowledgedOrStop([{ mode: ep!.mode, kind: 'control onComplete', o: control.outcome }], { deadlineMs: requestMs });
  judgeAcks([{ mode: ep!.mode, kind: 'genuine onComplete after a forged copy', o: genuine }], {
    deadlineMs: requestMs,
  });
  await Promise.all([readOf(host, control.payload), readOf(host, done)]);
});
