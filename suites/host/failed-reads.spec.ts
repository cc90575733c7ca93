/**
 * HOST-13 when a read fails (section 6 rule 8: "reads every key in serviceKeys"): one key of several
 * answers 404, answers 409 before its 200, is held past the read deadline, or answers 200 with a
 * record at section 2.3's edges (data null), and every other key of the same onComplete must still be
 * read (PITFALLS: "read every key" shows only when one read fails).
 * The failing key comes first in serviceKeys, so a reader that stops at its first failure reads no
 * other key. Then more reads of one onComplete fail at once than a pool of readers holds
 * (harness/pool-reads.ts). Each case has its own endUserHandle, so the reads of parallel tests never mix.
 */
import { test, hostTags, firstEndpoint } from './fixtures.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshHandle, freshKey } from './harness/payloads.ts';
import { complete, readOk, summary } from './harness/reads.ts';
import { ackClauses, acknowledgedOrStop } from './harness/ack.ts';
import { POOL_KEYS, POOL_WORDS, poolCapMs, sendPoolCase } from './harness/pool-reads.ts';

const cite = ['HOST-13', 'HOST-21', ...ackClauses(true)].join(', ');

/** The ways the first key's read fails, each with the check id that judges the other keys' reads. */
const FAILURES = [
  { id: 'data.every-key-read-after-404', words: 'answers 404', statuses: [404, 404, 404, 404, 404, 404] },
  { id: 'data.every-key-read-after-409', words: 'answers 409, then 200', statuses: [409] },
  { id: 'data.every-key-read-after-held', words: 'is held past the read deadline', statuses: [], held: true },
  // Section 2.3: data is "object or null"; empty maps and a field beyond those listed are allowed too.
  {
    id: 'data.every-key-read-after-null-data',
    words: 'answers 200 with data null, empty errors and warnings maps and' + ' a field beyond those listed',
    statuses: [200],
  },
] as const;

const TITLE =
  'after onComplete the host reads every other key of serviceKeys when the read of one key answers 404, ' +
  'answers 409 before its 200, is held past the read deadline, or answers a record whose data is null; and after ' +
  `${POOL_WORDS}, it reads every key and retries every 503 and 409 until it gets the record (${cite})`;
test(TITLE, { tag: hostTags('HOST-13', 'HOST-21', ...ackClauses(true)) }, async ({ host }, testInfo) => {
  const deadline = host.target.timeouts.dataReadMs;
  // HOST-13 reading: the held read is answered only after the deadline the other keys are judged by.
  const holdMs = deadline + 1_000;
  const { requestMs } = host.target.timeouts;
  test.setTimeout(2 * requestMs + holdMs + deadline + poolCapMs(host) + 20_000);
  const ep = firstEndpoint(host);
  const cases = await Promise.all(
    FAILURES.map(async (f) => {
      const handle = freshHandle();
      const failing = freshKey();
      const others = [freshKey(), freshKey()];
      await host.service.script(handle, failing, f.statuses, 'held' in f ? { ms: holdMs, reads: 1 } : undefined);
      // Every key read is the judge's rule (harness/observer.ts), here in these words: the failing key counts as
      // read by its read answered as scripted.
      const keysRead = {
        id: f.id,
        rule:
          `every key of serviceKeys is read within ${deadline} ms of the held read's answer although the read of ` +
          `the first key ${f.words}`,
      };
      return { f, others, c: await complete(host, ep, [failing, ...others], { handle, keysRead }) };
    }),
  );
  const sent = cases.map(({ c }) => ({ mode: ep.mode, kind: 'onComplete', o: c.outcome }));
  acknowledgedOrStop(sent, { deadlineMs: requestMs });
  // HOST-13 reading: the other keys within the deadline from the held read's answer (the contract sets no
  // time limit on a read, so awaiting it is no fault, nor is a receiver that handles one onComplete at a
  // time and so reads the other cases' keys after it).
  // The reads are waited for here, so the evidence holds them and the judge finds them in.
  const until = performance.now() + holdMs + deadline;
  await Promise.all(
    cases.flatMap(({ others, c }) =>
      others.map((k) => host.service.waitForRead(readOk(c.handle, k), until - performance.now())),
    ),
  );
  const handles = new Set(cases.map(({ c }) => c.handle));
  await attachEvidence(
    testInfo,
    `with the first key's read failing, every other key must be read within ${deadline} ms` +
      " of the held read's answer",
    cases.map(({ c }) => c.outcome),
    host.service.reads.filter((r) => handles.has(r.endUserHandle)).map(summary),
  );
  // Then the 64-key case, once the keys above are read (a receiver that handles one onComplete at a time
  // reads them first, as the deadline above allows); a receiver that answers nothing stopped the test above.
  const pool = await sendPoolCase(host, ep);
  acknowledgedOrStop([{ mode: ep.mode, kind: `onComplete of ${POOL_KEYS} keys`, o: pool.c.outcome }], {
    deadlineMs: requestMs,
  });
  await pool.judge(testInfo);
});
