/**
 * Every value the contract allows, on every request kind it applies to, generated from the schemas
 * with the run's seed (harness/value-classes.ts, docs/values.md): callbacks whose endUserHandle,
 * serviceKeys, conversationId, timestamp, changedFields, count and page are of every class, and bodies
 * that write the same JSON in other bytes (HOST-26, HOST-4); the data API answering reads of keys of
 * every class with envelopes of every class (HOST-13); the facts GET for handles of every class, its
 * query in every common encoding, signed as sent (HOST-16). Each exchange is judged on every duty by
 * the judge (an acknowledged onComplete on the reads of its keys, HOST-13). The seed is printed;
 * `ccs-conformance host --seed N` replays it.
 */
import { test, hostTags, allEndpoints, firstEndpoint } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver, fetchFacts } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { complete, readOk, summary } from './harness/reads.ts';
import { inLanes, noAnswerHint } from './harness/send.ts';
import { describe, isAck, answered, type SendOutcome } from '../../judge/host/index.ts';
import { AnswerJudge, acknowledgedOrStop, ackClauses, judgeAcks, ownClauseDecides } from './harness/ack.ts';
import { signingModesUnderTest } from './harness/modes.ts';
import { valueCallbacks, type ValueCallback } from './harness/value-callbacks.ts';
import {
  ENVELOPE_CLASSES,
  HANDLE_CLASSES,
  KEY_CLASSES,
  QUERY_ENCODINGS,
  classSeed,
  envelopeKey,
  headerSafe,
  sampleClass,
  sampleHeaderSafe,
  valueSeed,
  valuesPerClass,
} from './harness/value-classes.ts';
import { invalidBySpec } from './harness/generated.ts';
import { check, notExercised, precondition } from '../shared/index.ts';
import type { TestInfo } from '@playwright/test';
import type { ClauseId } from '../../spec/index.ts';

/**
 * Requests in flight at once: few, so that this test's burst does not slow the receiver's answers to
 * the tests that time them (HOST-2) on the same receiver.
 */
const LANES = 4;

type Planned = ValueCallback & { ep: ModeEndpoint };

/** The callbacks of one endpoint: each class on an event whose members it fills (value-callbacks.ts). */
function callbackPlan(h: HostHarness, ep: ModeEndpoint, seed: number): Planned[] {
  const base = { workspaceKey: h.target.workspaceKey, configEnd: h.target.configEnd, hookPath: ep.hookPath };
  return valueCallbacks(base, seed, valuesPerClass()).map((c) => ({ ep, ...c }));
}

/** The run's seed, in the report and on the console, with the line that replays it. */
function printSeed(testInfo: TestInfo, seed: number, clause: string): string {
  const line = `${seed} (replay: ccs-conformance host --grep ${clause} --seed ${seed})`;
  testInfo.annotations.push({ type: 'ccs-seed', description: line });
  process.stdout.write(`host value classes, seed ${line}\n`);
  return ` [seed ${line}]`;
}

const SIGNED = signingModesUnderTest();
const CALLBACK_CLAUSES: ClauseId[] = ['HOST-26', 'HOST-4', 'HOST-1', 'HOST-2'];

test(
  `callbacks whose handles, keys and conversationIds are of every class the contract allows, and bodies written with \\u escapes, are acknowledged (${CALLBACK_CLAUSES.join(', ')})`,
  // The judge holds each onComplete here to its reads too (HOST-13, a clause of the observer's tags).
  { tag: hostTags(...CALLBACK_CLAUSES) },
  async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs * 2 + 30_000);
    const seed = valueSeed();
    const replay = printSeed(testInfo, seed, 'HOST-26');
    const plan = allEndpoints(host).flatMap((ep) => callbackPlan(host, ep, seed));
    const refused = invalidBySpec(plan.map((p) => p.payload));
    precondition(
      refused.length === 0,
      `harness: every value-class callback is valid per spec/openapi.yaml (seed ${seed})`,
      {
        expected: 'none refused',
        seen: JSON.stringify(refused).slice(0, 300),
      },
    );
    const outcomes = await inLanes(plan, LANES, (p) =>
      deliver(host, p.ep, p.payload, p.body === undefined ? {} : { body: p.body }),
    );
    const sent = plan.flatMap((p, i) => (outcomes[i] === undefined ? [] : [{ ...p, outcome: outcomes[i]! }]));
    await attachEvidence(
      testInfo,
      `every callback of a legal value class is acknowledged with a 2xx (seed ${seed})`,
      sent.map((s) => s.outcome),
      undefined,
      seed,
    );
    if (SIGNED.length === 0)
      notExercised('HOST-4', 'signing mode none: there is no signature to verify over the raw bytes');
    judgeAcks(
      sent.map((s) => ({ mode: s.ep.mode, kind: s.name, o: s.outcome })),
      { deadlineMs: host.target.timeouts.requestMs, twoXx: 'caller', timed: false },
    );
    const judge = new AnswerJudge(sent.map((s) => s.outcome));
    for (const x of sent.filter((y) => ownClauseDecides(y.outcome, true))) {
      const seen = `${describe(x.outcome)}; body ${(x.body ?? JSON.stringify(x.payload)).slice(0, 300)}${replay}`;
      if (x.ep.mode !== 'none') {
        const id = x.body === undefined ? 'values.callback-verified' : 'values.escaped-body-verified';
        const rule = `${x.ep.mode} ${x.name}: the signature is verified over the raw bytes sent`;
        judge.soft('HOST-4', rule, id, x.outcome.status !== 401, { expected: 'not refused with 401', seen });
        if (x.outcome.status === 401) continue;
      }
      judge.soft(
        'HOST-26',
        `${x.ep.mode} ${x.name} is acknowledged with a 2xx`,
        'values.callback-acked',
        isAck(x.outcome),
        {
          expected: 'a 2xx',
          seen,
        },
      );
    }
  },
);

/** Keys of this many envelope classes, then of this many key classes, ride on each onComplete, taken in turn. */
const ENVELOPES_PER_COMPLETE = 2;
const KEY_CLASSES_PER_COMPLETE = 3;

// An onComplete of every handle class goes out at once, each followed by five reads: HOST-2 (within 1 s)
// is judged where callbacks go out a few at a time, HOST-1 and the verifier's clause here.
const READ_CLAUSES: ClauseId[] = ['HOST-13', ...ackClauses(true).filter((c) => c !== 'HOST-2')];

test(
  `after onComplete the host reads every key, handles and keys of every class, each read answered with an envelope of every class section 2.3 allows (${READ_CLAUSES.join(', ')})`,
  { tag: hostTags(...READ_CLAUSES) },
  async ({ host }, testInfo) => {
    const deadline = host.target.timeouts.dataReadMs;
    test.setTimeout(host.target.timeouts.requestMs + deadline + 20_000);
    const ep = firstEndpoint(host);
    const seed = valueSeed();
    printSeed(testInfo, seed, 'HOST-13');
    // The envelope classes first (the one with a null field before the other): a reader that stops at the
    // first record it cannot handle misses the rest. Each class rides on a few onCompletes.
    const inTurn = <T>(xs: readonly T[], i: number, n: number): T[] =>
      Array.from({ length: n }, (_, j) => xs[(i * n + j) % xs.length]!);
    const keysOf = (i: number) => {
      const envelopes = inTurn(ENVELOPE_CLASSES, i, ENVELOPES_PER_COMPLETE).sort(
        (a, b) => ENVELOPE_CLASSES.indexOf(a) - ENVELOPE_CLASSES.indexOf(b),
      );
      const classes = inTurn(KEY_CLASSES, i, KEY_CLASSES_PER_COMPLETE);
      const keys = classes.map((k) => sampleClass(k, classSeed(seed, `read#${i}`))[0]!);
      return {
        keys: [...envelopes.map((c) => envelopeKey(c, classSeed(seed, `${c.id}#${i}`))), ...keys],
        classes: [...envelopes, ...classes].map((k) => k.id).join(', '),
      };
    };
    // Each key read within the deadline is the judge's rule (observer.ts), here in these words.
    const cs = await Promise.all(
      HANDLE_CLASSES.map((c, i) => {
        const { keys, classes } = keysOf(i);
        return complete(host, ep, keys, {
          handle: sampleClass(c, seed)[0]!,
          keysRead: {
            id: 'values.every-key-read',
            rule:
              `every key of an onComplete for a handle of ${c.id}, with keys of ${classes}, is read within ` +
              `${deadline} ms of the acknowledgement, its reads answered with those envelopes (seed ${seed})`,
          },
        });
      }),
    );
    acknowledgedOrStop(
      cs.map((c) => ({ mode: ep.mode, kind: 'onComplete', o: c.outcome })),
      { deadlineMs: host.target.timeouts.requestMs, timed: false },
    );
    // The reads are waited for here, so the evidence holds them; the judge decides them.
    const until = performance.now() + deadline;
    await Promise.all(
      cs.flatMap((c) => c.keys.map((k) => host.service.waitForRead(readOk(c.handle, k), until - performance.now()))),
    );
    const handles = new Set(cs.map((c) => c.handle));
    await attachEvidence(
      testInfo,
      `every key of serviceKeys must be read over the data API within ${deadline} ms of the acknowledgement`,
      cs.map((c) => c.outcome),
      host.service.reads.filter((r) => handles.has(r.endUserHandle)).map(summary),
      seed,
    );
  },
);

const HEADER_SAFE = headerSafe();

test(
  'the facts endpoint answers a correctly signed GET for handles of every class, its query in every common percent-encoding, verified as received, with the facts (HOST-16, HOST-15)',
  { tag: hostTags('HOST-16', 'HOST-15') },
  async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs + 20_000);
    const eps = allEndpoints(host).filter((e) => e.factsUrl !== undefined);
    test.skip(eps.length === 0, 'capability facts endpoint not offered by the target (factsPath not set)');
    test.skip(
      host.target.endUserHandle !== undefined,
      'the host target names its one endUserHandle: no handle of another class can be asked about',
    );
    const seed = valueSeed();
    printSeed(testInfo, seed, 'HOST-16');
    // Each class in two of the three encodings, taken in turn: every pair of encodings meets every few classes.
    const plan = eps.flatMap((ep) =>
      HEADER_SAFE.flatMap((c, i) =>
        [0, 1].map((j) => {
          const q = QUERY_ENCODINGS[(i + j) % QUERY_ENCODINGS.length]!;
          return { ep, c, q, handle: sampleHeaderSafe(c, classSeed(seed, q.id))[0]! };
        }),
      ),
    );
    const outcomes = await inLanes(plan, LANES, (p) =>
      fetchFacts(host, p.ep, { endUserHandle: p.handle, encode: p.q.encode }),
    );
    await attachEvidence(
      testInfo,
      `the facts GET must be answered with a 2xx within ${host.target.timeouts.requestMs} ms (seed ${seed})`,
      outcomes.filter((o): o is SendOutcome => o !== undefined),
      undefined,
      seed,
    );
    plan.forEach((p, i) => {
      const o = outcomes[i];
      if (o === undefined) return;
      check
        .soft(
          'HOST-16',
          `${p.ep.mode} facts GET for a handle of ${p.c.id}, its query encoded by ${p.q.id}, is answered with a 2xx`,
          {
            id: 'values.facts-handle-answered',
          },
        )
        .that(isAck(o), {
          expected: `a 2xx within ${host.target.timeouts.requestMs} ms (${p.q.words})`,
          seen: describe(o),
          ...(answered(o) ? {} : { hint: noAnswerHint(o, 'hostBaseUrl + factsPath') }),
        });
    });
  },
);
