/**
 * HOST-26, HOST-24: payloads generated from spec/openapi.yaml's webhooks, correctly signed, are
 * acknowledged with a 2xx; so are the written-in edges (bulk pages of 1, 499 and 500 keys, a short
 * last page, 255-character and non-ASCII endUserHandles, onComplete with many serviceKeys, the
 * largest conversationIds) and bodies whose whitespace is unusual. A 401 to one of them is the
 * verifier refusing these very bytes (HOST-4: over the raw bytes, whatever they hold); any other
 * refusal is the payload's own clause. Each is judged on every duty, not on its acknowledgement alone:
 * the judge (harness/observer.ts) holds each acknowledged onComplete to a read of every key of
 * serviceKeys (HOST-13), whatever its generated values. Every request of a test is sent at once, so a
 * receiver that hangs costs one 10 s wait per test. The seed is printed; `ccs-conformance host --seed N`
 * replays it.
 */
import type { TestInfo } from '@playwright/test';
import { test, hostTags, allEndpoints } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver } from './harness/deliver.ts';
import { edgePayloads } from './harness/edges.ts';
import { attachEvidence } from './harness/evidence.ts';
import { generatePayloads, generateSpacings, invalidBySpec, runSeed, spaced } from './harness/generated.ts';
import { describe, isAck, type Payload, type SendOutcome } from '../../judge/host/index.ts';
import { inLanes } from './harness/send.ts';
import { AnswerJudge, judgeAcks, ownClauseDecides } from './harness/ack.ts';
import { signingModesUnderTest } from './harness/modes.ts';
import { notExercised, precondition } from '../shared/index.ts';
import type { ClauseId, HostCheckId } from '../../spec/index.ts';

/** Bounded: a run is a few hundred requests at most, sent concurrently. */
const GENERATED_PER_MODE = 40;
const SPACED_PER_MODE = 12;
/**
 * Requests in flight at once: each answer is timed against HOST-2, so a burst must not queue them
 * behind one another; a hanging receiver still costs one 10 s wait per lane's request at most.
 */
const LANES = 8;

interface Sent {
  ep: ModeEndpoint;
  name: string;
  payload: Payload;
  outcome: SendOutcome;
}

function ctxOf(h: HostHarness, ep: ModeEndpoint) {
  return { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, hookPath: ep.hookPath };
}

function printSeed(testInfo: TestInfo, seed: number, clause: string): void {
  const line = `${seed} (replay: ccs-conformance host --grep ${clause} --seed ${seed})`;
  testInfo.annotations.push({ type: 'ccs-seed', description: line });
  process.stdout.write(`generated host payloads, seed ${line}\n`);
}

function excerpt(p: Payload): string {
  const s = JSON.stringify(p);
  return s.length > 300 ? `${s.slice(0, 300)}... (${s.length} characters)` : s;
}

/**
 * Per answer: HOST-1 (an answer within 10 s) and HOST-2 (within 1 s) as on every callback
 * (harness/ack.ts); then a 401 in a signed mode is the verifier's (HOST-4), anything else not 2xx
 * the payload's clause. A request left unanswered decides neither.
 */
/** The requests sent, with their answers (those left unsent after a request got no answer are left out). */
function sentOf<P extends Omit<Sent, 'outcome'>>(
  plan: readonly P[],
  outcomes: ReadonlyArray<SendOutcome | undefined>,
): Sent[] {
  return plan.flatMap((p, i) => (outcomes[i] === undefined ? [] : [{ ...p, outcome: outcomes[i] }]));
}

interface Settle {
  clause: ClauseId;
  id: HostCheckId;
  seed: number;
  deadlineMs: number;
}

async function settle(testInfo: TestInfo, sentence: string, sent: Sent[], s: Settle): Promise<void> {
  const { clause, id, seed, deadlineMs } = s;
  await attachEvidence(
    testInfo,
    sentence,
    sent.map((s) => s.outcome),
    undefined,
    seed,
  );
  const replay = ` [seed ${seed}; replay: ccs-conformance host --grep ${clause} --seed ${seed}]`;
  if (SIGNED.length === 0)
    notExercised('HOST-4', 'signing mode none: there is no signature to verify over the raw bytes');
  judgeAcks(
    sent.map((s) => ({ mode: s.ep.mode, kind: s.name, o: s.outcome })),
    { deadlineMs, twoXx: 'caller' },
  );
  const judge = new AnswerJudge(sent.map((s) => s.outcome));
  // No answer, a 404 (no hook at hookPath) or a redirect is HOST-1's alone (judgeAcks): it says nothing of the payload.
  for (const x of sent.filter((y) => ownClauseDecides(y.outcome, true))) {
    const seen = `${describe(x.outcome)}; payload ${excerpt(x.payload)}${replay}`;
    if (x.ep.mode !== 'none') {
      const rule = `${x.ep.mode} ${x.name}: the signature is verified over these raw bytes`;
      const verified = x.outcome.status !== 401;
      judge.soft('HOST-4', rule, 'payload.raw-bytes-verified', verified, { expected: 'not refused with 401', seen });
      if (x.outcome.status === 401) continue;
    }
    const acked = isAck(x.outcome);
    judge.soft(clause, `${x.ep.mode} ${x.name} is acknowledged with a 2xx`, id, acked, { expected: 'a 2xx', seen });
  }
}

const SIGNED = signingModesUnderTest();
/**
 * The payload's clause, HOST-13 (the judge's: every key of each acknowledged onComplete read), HOST-4 and the
 * acknowledgement duties of every callback (ack.ts). HOST-4 in every mode: in mode none the tests say why it
 * is not exercised (a notExercised of HOST-4), which names a clause of their tags only when the tag is there
 * (reports/check-clause-ids.ts).
 */
const cited = (c: ClauseId): ClauseId[] => [c, 'HOST-13', 'HOST-4', 'HOST-1', 'HOST-2'];
const withHost4 = (c: ClauseId): string[] => hostTags(...cited(c));

const GENERATED_TITLE =
  'generated valid payloads of every event and the edges (bulk pages of 1, 499 and 500 keys, ' +
  'a short last page, 255-character and non-ASCII endUserHandles, 300 serviceKeys, the largest conversationIds), ' +
  `correctly signed, are acknowledged with a 2xx, and every key of each onComplete is read (${cited('HOST-26').join(', ')})`;
test(GENERATED_TITLE, { tag: withHost4('HOST-26') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 30_000);
  const seed = runSeed();
  printSeed(testInfo, seed, 'HOST-26');
  const plan = allEndpoints(host).flatMap((ep) => [
    ...generatePayloads(ctxOf(host, ep), seed, GENERATED_PER_MODE).map((payload, i) => ({
      ep,
      payload,
      name: `generated #${i} ${payload.event}`,
    })),
    ...edgePayloads(ctxOf(host, ep)).map((e) => ({ ep, ...e })),
  ]);
  const refused = invalidBySpec(plan.map((p) => p.payload));
  precondition(refused.length === 0, `harness: every generated payload is valid per spec/openapi.yaml (seed ${seed})`, {
    expected: 'none refused',
    seen: JSON.stringify(refused).slice(0, 300),
  });
  const outcomes = await inLanes(plan, LANES, (p) => deliver(host, p.ep, p.payload));
  const sentence = `every valid payload of section 2.2 is acknowledged with a 2xx (seed ${seed})`;
  await settle(testInfo, sentence, sentOf(plan, outcomes), {
    clause: 'HOST-26',
    id: 'payload.generated-acked',
    seed,
    deadlineMs: host.target.timeouts.requestMs,
  });
});

const SPACED_TITLE =
  'generated payloads with JSON whitespace in unusual places, signed over those raw bytes, are ' +
  `acknowledged, and every key of each onComplete is read (${cited('HOST-24').join(', ')})`;
test(SPACED_TITLE, { tag: withHost4('HOST-24') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 30_000);
  const seed = runSeed();
  printSeed(testInfo, seed, 'HOST-24');
  const spacings = generateSpacings(seed, SPACED_PER_MODE);
  const plan = allEndpoints(host).flatMap((ep) =>
    generatePayloads(ctxOf(host, ep), seed, SPACED_PER_MODE).map((payload, i) => ({
      ep,
      payload,
      spacing: spacings[i % spacings.length]!,
      name: `generated #${i} ${payload.event} spaced with ${JSON.stringify(spacings[i % spacings.length]!.join(''))}`,
    })),
  );
  const outcomes = await inLanes(plan, LANES, (p) => {
    return deliver(host, p.ep, p.payload, { body: spaced(p.payload, p.spacing) });
  });
  const sentence = `a correctly signed body is acknowledged whatever its whitespace (seed ${seed})`;
  await settle(testInfo, sentence, sentOf(plan, outcomes), {
    clause: 'HOST-24',
    id: 'payload.whitespace-acked',
    seed,
    deadlineMs: host.target.timeouts.requestMs,
  });
});
