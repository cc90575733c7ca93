/**
 * The window's edges (HOST-5, HOST-6) depend on the second in which the receiver reads t: a case
 * at an edge is sent at the start of a whole second of the wall clock, so it is read within that
 * second. Waits at most one second (the next boundary), never a fixed pause.
 */
import { unixNow } from '../../../protocol/index.ts';

/** Past this much of a second, wait for the next one: the edge cases need the rest of it to be read. */
const LATEST_START_MS = 100;

export async function atStartOfSecond<T>(send: (now: number) => Promise<T>): Promise<T> {
  const into = Date.now() % 1000;
  if (into > LATEST_START_MS) await new Promise((resolve) => setTimeout(resolve, 1000 - into + 2));
  return send(unixNow());
}
