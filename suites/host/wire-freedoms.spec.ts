/**
 * HOST-27: what HTTP, JSON and JWS leave to the sender, varied. Every value of every freedom the contract
 * does not fix (suites/host/harness/wire/) is sent once per run on a correctly signed callback in each
 * signing mode, the other freedoms drawn from the run's seed: each must be acknowledged with a 2xx, and
 * the judge (harness/observer.ts) holds each acknowledged onComplete to a read of every key (HOST-13).
 * Then what HOST-7 refuses whatever its form: an ES256 signature of every length from 0 to 70 bytes but
 * 64, each answered 401 (HOST-3). The JWS forms a verifier must accept (leading zero bytes in r or s, the
 * header's member order, typ) and the shapes it must refuse (padding, the standard alphabet, a fourth
 * part) are signature cases, tried on every event in every-signed-request.spec.ts. The seed is printed;
 * `ccs-conformance host --seed N` sends the same forms again.
 */
import { LIFECYCLE_EVENTS, unixNow, type LifecycleEvent } from '../../protocol/index.ts';
import { test, hostTags, allEndpoints, modeEndpoint } from './fixtures.ts';
import { deliver, keyringOf } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { AnswerJudge, failNoAnswers, judgeAcks } from './harness/ack.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { inLanes } from './harness/send.ts';
import { answered, describe, isAck, type SendOutcome } from '../../judge/host/index.ts';
import { jsonIn } from './harness/wire/form.ts';
import { signatureOfLength } from './harness/wire/jws-shapes.ts';
import { wireCases, wirePayload, type WireCase } from './harness/wire/plan.ts';
import { wireSeed } from './harness/wire/seed.ts';
import { warnCheck } from '../shared/index.ts';
import type { TestInfo } from '@playwright/test';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';

/** A few at a time: each answer is timed against HOST-2 (harness/ack.ts). */
const LANES = 6;

function printSeed(testInfo: TestInfo): number {
  const seed = wireSeed();
  const line = `${seed} (replay: ccs-conformance host --grep HOST-27 --seed ${seed})`;
  testInfo.annotations.push({ type: 'ccs-seed', description: line });
  process.stdout.write(`wire forms, seed ${line}\n`);
  return seed;
}

interface Sent {
  ep: ModeEndpoint;
  c: WireCase;
  o: SendOutcome;
}

async function sendCase(h: HostHarness, ep: ModeEndpoint, c: WireCase, i: number): Promise<Sent> {
  const payload = wirePayload(h, ep, i);
  const o = await deliver(h, ep, payload, { wire: c.wire, ...(c.json ? { body: jsonIn(payload, c.json) } : {}) });
  return { ep, c, o };
}

const FORMS_TITLE =
  'a correctly signed callback is acknowledged with a 2xx, and every key of each onComplete read, whatever form ' +
  'HTTP and JSON leave to the sender: field name case and order, spaces around values, Content-Type parameters, ' +
  'chunked framing, a reused connection, member order and string escapes (HOST-27, HOST-13, HOST-1, HOST-2)';
test(FORMS_TITLE, { tag: hostTags('HOST-27', 'HOST-13', 'HOST-1', 'HOST-2') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 30_000);
  const seed = printSeed(testInfo);
  const cases = wireCases();
  const plan = allEndpoints(host).flatMap((ep) => cases.map((c, i) => ({ ep, c, i })));
  const reused = plan.filter((p) => p.c.wire.carry?.connection === 'reused');
  const rest = plan.filter((p) => !reused.includes(p));
  const outcomes = await inLanes(rest, LANES, (p) => sendCase(host, p.ep, p.c, p.i).then((s) => s.o));
  const sent: Sent[] = rest.flatMap((p, i) =>
    outcomes[i] === undefined ? [] : [{ ep: p.ep, c: p.c, o: outcomes[i] }],
  );
  // RFC 9112 9.3: the second of two callbacks in a row on a persistent connection goes out on the first's.
  // After a request got no answer none is sent (HOST-1 fails on it; a hanging receiver costs one deadline).
  for (const p of sent.every((s) => answered(s.o)) ? reused : []) {
    const first = await sendCase(host, p.ep, p.c, p.i);
    sent.push(first);
    if (!answered(first.o)) break;
    const second = await sendCase(host, p.ep, p.c, p.i + 100);
    sent.push(second);
    if (answered(second.o) && second.o.reusedConnection !== true)
      warnCheck(
        'HOST-27',
        `${p.ep.mode}: a callback on a reused connection`,
        'the receiver closed the connection after the first callback (its right: RFC 9112 9.6), so none was reused',
      );
  }
  await attachEvidence(
    testInfo,
    `every form HTTP and JSON leave to the sender is acknowledged (seed ${seed})`,
    sent.map((s) => s.o),
    sent.map((s) => ({ mode: s.ep.mode, freedom: s.c.freedom, wire: s.o.wire, status: s.o.status })),
    seed,
  );
  for (const s of sent) {
    const kind = `${s.c.freedom} (${s.o.wire ?? 'as listed'})`;
    const rule = `${s.ep.mode}: a correctly signed callback with ${s.c.freedom} is acknowledged with a 2xx [seed ${seed}]`;
    judgeAcks([{ mode: s.ep.mode, kind, o: s.o }], {
      deadlineMs: host.target.timeouts.requestMs,
      twoXx: { clause: 'HOST-27', id: s.c.id, rule, ownsRefusal: true },
    });
  }
});

/** RFC 7518 3.4: an ES256 signature is 64 bytes; every other length up to a DER signature's is tried. */
const LENGTHS = Array.from({ length: 71 }, (_, n) => n).filter((n) => n !== 64);

const LENGTHS_TITLE =
  'a JWS whose ES256 signature is of any length from 0 to 70 bytes but 64 is refused with 401 on every event ' +
  '(HOST-7, HOST-3, HOST-1)';
test(LENGTHS_TITLE, { tag: hostTags('HOST-7', 'HOST-3', 'HOST-1') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 30_000);
  const ep = modeEndpoint(host, 'jwks');
  printSeed(testInfo);
  const events = LIFECYCLE_EVENTS as readonly LifecycleEvent[];
  const payloadOf = (event: LifecycleEvent) =>
    lifecyclePayload(event, {
      workspaceKey: host.target.workspaceKey,
      configEnd: host.target.configEnd,
      endUserHandle: freshHandle(),
      conversationId: freshConversationId(),
      hookPath: ep.hookPath,
    });
  // The control: a refusal is evidence only where a correctly signed callback is acknowledged.
  const control = await deliver(host, ep, payloadOf('onStart'));
  const deadlineMs = host.target.timeouts.requestMs;
  const controlAcked = judgeAcks([{ mode: 'jwks', kind: 'onStart, correctly signed', o: control }], {
    deadlineMs,
    timed: false,
  });
  // No answer to the control: HOST-1 fails on it, and the lengths would cost one more deadline for nothing.
  const outcomes = await inLanes(answered(control) ? LENGTHS : [], 16, async (n) => {
    const payload = payloadOf(events[n % events.length]!);
    const body = Buffer.from(JSON.stringify(payload));
    const signature = await signatureOfLength({ payload: body, t: unixNow() }, keyringOf(ep), n);
    return deliver(host, ep, payload, { body, signature, genuine: false });
  });
  const sent = LENGTHS.flatMap((n, i) => (outcomes[i] === undefined ? [] : [{ n, o: outcomes[i] }]));
  await attachEvidence(testInfo, 'a signature of any length but 64 bytes is refused with 401', [
    control,
    ...sent.map((s) => s.o),
  ]);
  failNoAnswers(
    sent.filter((s) => !answered(s.o)).map((s) => ({ mode: 'jwks', kind: `a ${s.n}-byte signature`, o: s.o })),
    deadlineMs,
    'ack.answered',
  );
  const judge = new AnswerJudge(sent.map((s) => s.o));
  for (const s of sent.filter((x) => answered(x.o))) {
    const rule = `jwks: a JWS whose ES256 signature is ${s.n} bytes is refused`;
    if (isAck(s.o) || controlAcked)
      judge.soft('HOST-7', rule, 'wire.jws-signature-length', !isAck(s.o), {
        expected: 'refused (401)',
        seen: describe(s.o),
      });
    if (!isAck(s.o) && controlAcked)
      judge.soft('HOST-3', `${rule}: the refusal is 401`, 'sig.refusal-401', s.o.status === 401, {
        expected: '401',
        seen: describe(s.o),
      });
  }
});
