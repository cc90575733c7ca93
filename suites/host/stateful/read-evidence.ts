/**
 * What the sequences' scripted data API answers show of section 7 "Client behaviour" when the receiver keeps
 * it. The judge's read rules (judge/host/read-rules.ts) report breaks only, so a clause they never fail would
 * stay "not exercised"; each pass here rests on reads the service side journalled, watched as the fixed tests
 * watch them (suites/host/data-reads.spec.ts):
 *   - HOST-21: a read a script answered 409 or 503, then its retry seen (the same record read again, within the
 *     read deadline), the retry judged by the read rules (the Bearer token, a back-off);
 *   - HOST-22: a read a script answered 400 or 401, then its record watched for the target's no-retry window
 *     (noRetryWindowMs) with no read the read rules call a retry.
 */
import type { ClauseId } from '../../../spec/index.ts';
import { readViolations, type DataRead } from '../../../judge/host/index.ts';
import type { HostHarness } from '../harness/harness.ts';
import { HostStepViolation, type HostTally } from './violation.ts';
import type { World } from './world.ts';

const RETRIED = new Set([409, 503]);
const REFUSED = new Set([400, 401]);

const sameRecord = (a: DataRead) => (b: DataRead) =>
  b.seq > a.seq && b.endUserHandle === a.endUserHandle && b.serviceKey === a.serviceKey;

/** The last read of each record among reads (a retried record's last 409 or 503). */
function lastOfEach(reads: readonly DataRead[]): DataRead[] {
  const last = new Map<string, DataRead>();
  for (const r of reads) last.set(`${r.endUserHandle}\u0000${r.serviceKey}`, r);
  return [...last.values()];
}

/**
 * HOST-21 in a sequence: each record whose read a script answered 409 or 503 is waited for its retry until the
 * read deadline; a retry seen and within the read rules holds HOST-21, one that breaks them fails it, none
 * leaves it to the fixed test (no evidence either way). The sequence's 400 and 401 reads are kept for HOST-22.
 */
export async function judgeScriptedReads(w: World, testId: string, tagged: ReadonlySet<ClauseId>): Promise<void> {
  const { h } = w;
  const mine = new Set(w.handles);
  const scripted = h.service.reads.filter(
    (r) => r.seq > w.startSeq && mine.has(r.endUserHandle) && r.scripted === true && r.bearer === 'sent',
  );
  if (tagged.has('HOST-22'))
    for (const r of scripted.filter((x) => REFUSED.has(x.status)))
      w.tally.refused.push({ read: r, testId, seenAtMs: performance.now() });
  if (!tagged.has('HOST-21')) return;
  const until = performance.now() + h.target.timeouts.dataReadMs;
  for (const r of lastOfEach(scripted.filter((x) => RETRIED.has(x.status)))) {
    const retry = await h.service.waitForRead(sameRecord(r), Math.max(0, until - performance.now()));
    if (retry === undefined) continue;
    const v = readViolations(retry, testId, h.service.reads, h.observer.ledger).find((x) => tagged.has(x.clause));
    if (v !== undefined)
      throw new HostStepViolation(v.clause, v.id, `the judge: ${v.rule}`, v.expected, v.request + (v.note ?? ''));
    w.tally.add('HOST-21');
  }
}

/**
 * HOST-22 at the run's end: the refused reads whose no-retry window has passed (the oldest waited for when
 * none has), each holding HOST-22 when no later read of its record is a retry by the read rules. A retry seen
 * only now, after its sequence was judged, holds nothing (the fixed test fails it).
 */
export async function judgeRefusedReads(h: HostHarness, tally: HostTally): Promise<void> {
  if (tally.refused.length === 0) return;
  const quiet = h.target.timeouts.noRetryWindowMs;
  const oldest = Math.min(...tally.refused.map((x) => x.seenAtMs));
  const wait = oldest + quiet - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await h.service.sync();
  const now = performance.now();
  for (const { read, testId } of tally.refused.filter((x) => x.seenAtMs + quiet <= now)) {
    const later = h.service.reads.filter(sameRecord(read));
    const ledger = h.observer.ledger;
    const retried = later.some((x) =>
      readViolations(x, testId, h.service.reads, ledger).some((v) => v.clause === 'HOST-22'),
    );
    if (!retried) tally.add('HOST-22');
  }
  tally.refused.length = 0;
}
