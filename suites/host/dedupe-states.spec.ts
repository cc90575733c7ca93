/**
 * HOST-11 in the states a dedupe meets beyond one redelivery (section 6: dedupe on
 * X-Service-Delivery-Id): several events of one conversation, each with its own delivery id (HDR-3),
 * and a genuine delivery that follows a forged copy of it (same delivery id, refused 401). In both,
 * the onComplete must be handled: its keys read. A control onComplete of a fresh conversation shows
 * that the receiver reads at all (HOST-13 decides that), so a missing read here is the dedupe's.
 */
import { test, hostTags, allEndpoints, firstEndpoint } from './fixtures.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload, type Payload } from './harness/payloads.ts';
import { answered, type SendOutcome } from './harness/send.ts';
import { complete, readOk, readsInWords, type Completion } from './harness/reads.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { ackClauses, answeredOrStop, judgeAcks, acknowledgedOrStop } from './harness/ack.ts';
import { check, precondition } from '../shared/index.ts';
import type { HostCheckId } from '../../spec/index.ts';

const cite = ['HOST-11', ...ackClauses(true)].join(', ');
const tags = hostTags('HOST-11', ...ackClauses(true));

/** An onComplete of a fresh conversation whose keys the data API serves, not yet sent. */
async function announced(h: HostHarness, ep: ModeEndpoint): Promise<Payload> {
  const endUserHandle = freshHandle();
  const keys = [freshKey()];
  await h.service.announce(endUserHandle, keys);
  const ctx = {
    workspaceKey: h.target.workspaceKey,
    configEnd: h.target.configEnd,
    endUserHandle,
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  };
  return lifecyclePayload('onComplete', ctx, { serviceKeys: keys });
}

const readOf = (h: HostHarness, p: Payload) =>
  h.service.waitForRead(
    readOk(p.endUserHandle as string, (p.serviceKeys as string[])[0]!),
    h.target.timeouts.dataReadMs,
  );

/**
 * HOST-11: the onComplete under test is handled (its key read) as the control onComplete is; the
 * control not read is HOST-13's, judged elsewhere, so here it only stops the test.
 */
async function handledLikeControl(
  h: HostHarness,
  control: Completion,
  done: Payload,
  rule: string,
  id: HostCheckId,
): Promise<void> {
  const [controlRead, read] = await Promise.all([readOf(h, control.payload), readOf(h, done)]);
  precondition(controlRead !== undefined, 'the key of a control onComplete is read (HOST-13)', {
    expected: 'a read',
    seen: readsInWords(h, control.handle),
  });
  check.soft('HOST-11', rule, { id }).that(read !== undefined, {
    expected: `a read within ${h.target.timeouts.dataReadMs} ms, as for the control`,
    seen: readsInWords(h, done.endUserHandle as string),
  });
}

const TITLE_1 =
  'onStart, config.saved and onComplete of one conversation, each with its own delivery id, are each ' +
  `handled: the onComplete's keys are read (${cite})`;
test(TITLE_1, { tag: tags }, async ({ host }, testInfo) => {
  const { requestMs, dataReadMs } = host.target.timeouts;
  test.setTimeout(4 * requestMs + dataReadMs + 20_000);
  const ep = firstEndpoint(host);
  const control = await complete(host, ep, [freshKey()]);
  answeredOrStop({ mode: ep.mode, kind: 'control onComplete', o: control.outcome }, requestMs);
  const done = await announced(host, ep);
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
  await handledLikeControl(
    host,
    control,
    done,
    'an onComplete that follows onStart and config.saved of its' + ' conversation is handled: its key is read',
    'delivery.same-conversation-handled',
  );
});

const TITLE_2 =
  'a genuine onComplete that follows a forged copy of it (same delivery id, refused 401) is acknowledged ' +
  `and handled: its keys are read (${cite})`;
test(TITLE_2, { tag: tags }, async ({ host }, testInfo) => {
  const { requestMs, dataReadMs } = host.target.timeouts;
  test.setTimeout(3 * requestMs + dataReadMs + 20_000);
  const ep = allEndpoints(host).find((e) => e.mode !== 'none');
  test.skip(ep === undefined, 'capability a signing mode not offered by the target: no copy can be forged');
  const control = await complete(host, ep!, [freshKey()]);
  answeredOrStop({ mode: ep!.mode, kind: 'control onComplete', o: control.outcome }, requestMs);
  const done = await announced(host, ep!);
  // The forged copy: the same bytes and headers, signed over other bytes (a signature that fails verification).
  const forged = await deliver(host, ep!, done, { signedBody: Buffer.from(`${JSON.stringify(done)} `) });
  // Refusing it is the verifier's duty, judged on every signature case (every-signed-request.spec.ts): here a step.
  // Any refusal (a 4xx) makes the genuine delivery the first one received; 401 itself is HOST-3's.
  const refused = forged.status !== undefined && forged.status >= 400 && forged.status < 500 && forged.status !== 404;
  precondition(
    refused,
    "the forged copy is refused (HOST-3 and the verifier's clause, judged by the signature tests)",
    { expected: 'a 4xx (401)', seen: answered(forged) ? `${forged.status}` : `no answer (${forged.failure})` },
  );
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
  await handledLikeControl(
    host,
    control,
    done,
    'a genuine onComplete that follows a forged copy with its delivery id' + ' is handled: its key is read',
    'delivery.genuine-after-forged-handled',
  );
});
