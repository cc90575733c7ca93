/**
 * HOST-12 ("the host treats attempts 2 and 3 like attempt 1") on verification: an onComplete at
 * attempt 2 or 3 whose signature fails verification is refused like one at attempt 1, in every
 * signing mode (5.2: every callback is verified, whatever X-Service-Delivery-Attempt says). Judged
 * only where the same receiver refuses the same forgery at attempt 1 (otherwise it is the verifier's
 * clause that fails, on every-signed-request.spec.ts's cases) and acknowledges a correctly signed
 * attempt 2. Each callback has its own conversation, so no dedupe joins them.
 */
import { test, hostTags, allEndpoints } from './fixtures.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { answered, describe, type Payload, type SendOutcome } from '../../judge/host/index.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { AnswerJudge, ackClauses, failNoAnswers, judgeAcks } from './harness/ack.ts';
import { precondition } from '../shared/index.ts';

const cite = ['HOST-12', ...ackClauses()].join(', ');

function onComplete(h: HostHarness, ep: ModeEndpoint): Payload {
  return lifecyclePayload('onComplete', {
    workspaceKey: h.target.workspaceKey,
    configEnd: h.target.configEnd,
    endUserHandle: freshHandle(),
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  });
}

/** A forgery: the bytes sent and the headers as the service's, the signature over other bytes. */
function forged(h: HostHarness, ep: ModeEndpoint, attempt: number): Promise<SendOutcome> {
  const p = onComplete(h, ep);
  return deliver(h, ep, p, { attempt, signedBody: Buffer.from(`${JSON.stringify(p)} `) });
}

const TITLE =
  'an onComplete at attempt 2 or 3 whose signature fails verification is refused like one at attempt 1,' +
  ` in every signing mode (${cite})`;
test(TITLE, { tag: hostTags('HOST-12', ...ackClauses()) }, async ({ host }, testInfo) => {
  const { requestMs } = host.target.timeouts;
  test.setTimeout(2 * requestMs + 20_000);
  const eps = allEndpoints(host).filter((e) => e.mode !== 'none');
  test.skip(eps.length === 0, 'capability signing not offered by the target (signing.mode none)');
  const sent = await Promise.all(
    eps.map(async (ep) => {
      const [control, first, second, third] = await Promise.all([
        deliver(host, ep, onComplete(host, ep), { attempt: 2 }),
        forged(host, ep, 1),
        forged(host, ep, 2),
        forged(host, ep, 3),
      ]);
      return { ep, control: control!, first: first!, retries: [second!, third!] };
    }),
  );
  await attachEvidence(
    testInfo,
    'a forged onComplete is refused whatever its X-Service-Delivery-Attempt',
    sent.flatMap((s) => [s.control, s.first, ...s.retries]),
  );
  // The correctly signed attempt 2 is judged as every callback is (harness/ack.ts); its 2xx is HOST-12's
  // own rule (a retry acknowledged like attempt 1), as in delivery.spec.ts.
  judgeAcks(
    sent.map((s) => ({ mode: s.ep.mode, kind: 'onComplete at attempt 2', o: s.control })),
    {
      deadlineMs: requestMs,
      twoXx: {
        clause: 'HOST-12',
        id: 'delivery.retry-acked',
        rule: 'an onComplete at attempt 2 is acknowledged like attempt 1',
      },
    },
  );
  const forgeries = sent.flatMap((s) => [s.first, ...s.retries].map((o, i) => ({ mode: s.ep.mode, i, o })));
  failNoAnswers(
    forgeries
      .filter((x) => !answered(x.o))
      .map((f) => ({ mode: f.mode, kind: `forged onComplete at attempt ${f.i + 1}`, o: f.o })),
    requestMs,
    'ack.answered',
  );
  const judge = new AnswerJudge(forgeries.map((f) => f.o));
  const is4xx = (o: SendOutcome) => answered(o) && o.status! >= 400 && o.status! < 500;
  const isAck = (o: SendOutcome) => answered(o) && o.status! >= 200 && o.status! < 300;
  // Judged where the baseline holds; a mode where it does not leaves HOST-12 blocked at the end.
  const judged = sent.filter((s) => is4xx(s.first) && isAck(s.control));
  for (const s of judged) {
    s.retries.filter(answered).forEach((o, i) => {
      const rule = `${s.ep.mode}: a forged onComplete at attempt ${i + 2} is refused like at attempt 1`;
      judge.soft('HOST-12', rule, 'delivery.retry-verified', is4xx(o), {
        expected: `a refusal (a 4xx; attempt 1 was answered ${s.first.status})`,
        seen: describe(o),
      });
    });
  }
  const blocked = sent.filter((s) => !judged.includes(s));
  precondition(
    blocked.length === 0,
    'the forged attempt 1 is refused and a correctly signed attempt 2 acknowledged' +
      " (the verifier's clause and HOST-12 decide those)",
    {
      expected: 'a 4xx and a 2xx in every mode',
      seen: blocked.map((s) => `${s.ep.mode}: ${describe(s.first)}; ${describe(s.control)}`).join('; '),
    },
  );
});
