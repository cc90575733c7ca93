/**
 * "Acknowledge first, work afterwards" (HOST-2, 4.1) is only seen when the work is slow (PITFALLS
 * "Evidence"): here the harness's data API holds every read of an onComplete's keys for seconds, or
 * answers 409 before the record. A receiver that does its reads before answering is late (HOST-2),
 * or past the 10 s whole-request timeout (HOST-1); one that holds a lock over its reads keeps other
 * callbacks waiting (HOST-2). Judged as every callback is (harness/ack.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { test, hostTags, firstEndpoint } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { deliver } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { ackClauses, judgeAcks, QUICK_MS, QUICK_TOLERANCE_MS } from './harness/ack.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload } from './harness/payloads.ts';
import { byKey, complete, readOk, summary } from './harness/reads.ts';
import { answered, type SendOutcome } from '../../judge/host/index.ts';
import { notExercised } from '../shared/index.ts';

/** How long the data API holds each read: seconds, as a loaded or remote service does. */
const HOLD_MS = 3_000;
/**
 * A record mid-migration: answered 409 this many times, each held, before the envelope (at once):
 * 12 s of holds and about 3 s of a fair back-off, past the 10 s the service waits for an answer.
 */
const CONFLICTS = 4;

const CLAUSES = ackClauses(true);
const cite = CLAUSES.join(', ');

function otherCallback(h: HostHarness, ep: ModeEndpoint, event: 'onStart' | 'config.saved'): Promise<SendOutcome> {
  const ctx = {
    workspaceKey: h.target.workspaceKey,
    configEnd: h.target.configEnd,
    endUserHandle: freshHandle(),
    conversationId: freshConversationId(),
    hookPath: ep.hookPath,
  };
  return deliver(h, ep, lifecyclePayload(event, ctx));
}

/**
 * Two callbacks sent while a read of the onComplete is held. The read is released once they and the onComplete
 * are answered, or after twice the time they have to answer: a receiver whose answers wait for that read is
 * seen late however slow the machine, and a correct one is not held longer than its answers take.
 */
async function sendWhileHeld(
  h: HostHarness,
  ep: ModeEndpoint,
  held: { handle: string; key: string; completion: Promise<unknown> },
): Promise<SendOutcome[]> {
  const sent = Promise.all([otherCallback(h, ep, 'onStart'), otherCallback(h, ep, 'config.saved')]);
  const waited = new AbortController();
  const late = delay(2 * (QUICK_MS + QUICK_TOLERANCE_MS), undefined, { signal: waited.signal }).catch(() => undefined);
  await Promise.race([Promise.all([sent, held.completion]), late]);
  waited.abort();
  await h.service.release(held.handle, held.key);
  return sent;
}

const HELD_TITLE =
  `an onComplete whose reads the data API holds, and callbacks sent while ` +
  `they are held, are acknowledged within 1 s: acknowledge first, work afterwards (${cite})`;
test(HELD_TITLE, { tag: hostTags(...CLAUSES) }, async ({ host }, testInfo) => {
  const deadlineMs = host.target.timeouts.requestMs;
  test.setTimeout(2 * deadlineMs + 20_000);
  const ep = firstEndpoint(host);
  const handle = freshHandle();
  const [held, conflicted] = [freshKey(), freshKey()];
  // Held until the answers are in (released below), at most the service's whole wait.
  await host.service.script(handle, held, [], { ms: deadlineMs });
  await host.service.script(handle, conflicted, [409, 409]);
  const done = complete(host, ep, [held, conflicted], { handle });
  // While the first read is held: the receiver is working on the onComplete now.
  const firstRead = await host.service.waitForRead(byKey(handle, held), host.target.timeouts.dataReadMs);
  const during = firstRead === undefined ? [] : await sendWhileHeld(host, ep, { handle, key: held, completion: done });
  await host.service.release(handle, held);
  const c = await done;
  const reads = host.service.reads.filter((r) => r.endUserHandle === handle).map(summary);
  await attachEvidence(
    testInfo,
    'the data API holds a read of the onComplete until it and the callbacks sent meanwhile are answered (at most ' +
      `${2 * (QUICK_MS + QUICK_TOLERANCE_MS)} ms): each must be answered within about 1 s`,
    [c.outcome, ...during],
    reads,
  );
  judgeAcks([{ mode: ep.mode, kind: 'onComplete (its reads held)', o: c.outcome }], {
    deadlineMs,
    quickId: 'ack.within-1s-slow-reads',
    quickWhile: ' while its data API reads are slow',
  });
  if (firstRead === undefined) {
    notExercised(
      'HOST-2',
      'the host did not read the keys of the onComplete: no callback was sent while a read ' +
        'was held (HOST-13 decides the reads)',
    );
    return;
  }
  judgeAcks(
    during.map((o, i) => ({ mode: ep.mode, kind: i === 0 ? 'onStart' : 'config.saved', o })),
    {
      deadlineMs,
      quickId: 'ack.within-1s-during-reads',
      quickWhile: ' while the reads of an earlier onComplete are held',
    },
  );
});

const LONG_TITLE =
  `an onComplete whose reads take longer than 10 s (answered 409 ${CONFLICTS} times, each held ` +
  `${HOLD_MS / 1000} s) is acknowledged with a 2xx within 10 s (${cite})`;
test(LONG_TITLE, { tag: hostTags(...CLAUSES) }, async ({ host }, testInfo) => {
  const deadlineMs = host.target.timeouts.requestMs;
  test.setTimeout(deadlineMs + CONFLICTS * HOLD_MS + host.target.timeouts.dataReadMs + 20_000);
  const ep = firstEndpoint(host);
  const handle = freshHandle();
  const key = freshKey();
  const conflicts = Array.from({ length: CONFLICTS }, () => 409);
  await host.service.script(handle, key, conflicts, { ms: HOLD_MS, reads: CONFLICTS });
  const c = await complete(host, ep, [key], { handle });
  await attachEvidence(
    testInfo,
    `the first ${CONFLICTS} reads are answered 409, each held ${HOLD_MS} ms: the reads ` +
      `outlast the ${deadlineMs} ms the service waits, so only a receiver that answers first meets it`,
    [c.outcome],
  );
  const kind = `onComplete (its reads held ${HOLD_MS} ms, answered 409 ${CONFLICTS} times)`;
  judgeAcks([{ mode: ep.mode, kind, o: c.outcome }], {
    deadlineMs,
    quickId: 'ack.within-1s-slow-reads',
    quickWhile: ' while its data API reads are slow',
  });
  // The answer decided both clauses: once the first read is in (and held), the rest of the script is dropped
  // (the next read gets the record at once) and the reads waited for until the record is served, so the
  // next test on this receiver does not inherit them: at most the read held now and dataReadMs of back-off.
  if (answered(c.outcome)) {
    await host.service.waitForRead(byKey(handle, key), host.target.timeouts.dataReadMs);
    await host.service.script(handle, key, [], { ms: 0, reads: 0 });
    await host.service.waitForRead(readOk(handle, key), HOLD_MS + host.target.timeouts.dataReadMs);
  }
});
