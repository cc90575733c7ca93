/**
 * EVT-14 reading: the payload's timestamp, read as UTC (no zone is given), is the sending time. Held to
 * the arrival as SIGN-4 holds t: more than 300 s away is the service's clock or zone (a local time read as
 * UTC is hours off), between a few seconds and 300 s the judge cannot tell a late send from two machines'
 * clocks and warns. A retry re-sends the body of attempt 1, so its timestamp is as old as that attempt.
 */
import type { JournalEntry } from '../../mock-host/index.ts';
import { timestampMs } from './journal.ts';
import { at } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

const WINDOW_MS = 300_000;
/** Past this the distance is worth a word: longer than the contract's longest retry schedule (55 s). */
const NEAR_MS = 60_000;
const SENDING_TIME: CheckWords = { id: 'payload.timestamp-sending-time' };
const RULE = 'timestamp is the sending time, read as UTC';

/** The last timestamp read and its time: callbacks sent together share one, parsed once. */
let last = { text: '', ms: 0 };

export function judgeSendingTime(e: JournalEntry, timestamp: string, v: Verdicts): void {
  if (last.text !== timestamp) last = { text: timestamp, ms: timestampMs(timestamp) };
  const delta = Math.abs(last.ms - e.arrival.wallMs);
  const near = delta <= WINDOW_MS;
  v.that(
    'EVT-14',
    RULE,
    near,
    SENDING_TIME,
    near
      ? undefined
      : () => ({ expected: 'within 300 s of the arrival', seen: `${timestamp} is ${delta} ms from it (${at(e)})` }),
  );
  if (near && delta > NEAR_MS)
    v.warn('EVT-14', RULE, `${timestamp} is ${Math.round(delta / 1000)} s from the arrival of ${at(e)}`);
}
