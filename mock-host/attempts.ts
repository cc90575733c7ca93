/**
 * Counts the attempts of each delivery (DELIV-11: a retry is the same payload re-sent, so an
 * attempt is a body with the same delivery id and the same bytes). The count of a request depends
 * on the order bodies were read in, not on when anyone looks: bodies are queued in that order as
 * they are read and counted, in that order, only when a count is first needed (an entry settled,
 * a request line or a summary written). The request path itself only queues: the digest and the
 * table of every delivery id seen are the most expensive part of keeping a journal of many
 * thousand callbacks, and nobody may ever read most of them.
 */
import { EMPTY_SHA, deliveryIdOf, sha256Hex } from './analyze.ts';
import { keptBody } from './body-store.ts';
import type { Pending } from './entry.ts';

/** Per delivery id: the digest of its only body so far (count 1), or counts per body digest. */
export type AttemptCounts = Map<string, string | Map<string, number>>;

/**
 * Counts one attempt: same id and same bytes. Returns this request's count, 0 without a delivery
 * id. Most ids are seen once: they keep only their digest (a string the entry holds anyway).
 */
export function countAttempt(counts: AttemptCounts, deliveryId: string | undefined, sha: string): number {
  if (deliveryId === undefined) return 0;
  const seen = counts.get(deliveryId);
  if (seen === undefined) {
    counts.set(deliveryId, sha);
    return 1;
  }
  if (typeof seen === 'string') {
    const byDigest = new Map<string, number>([[seen, 1]]);
    counts.set(deliveryId, byDigest);
    const n = (byDigest.get(sha) ?? 0) + 1;
    byDigest.set(sha, n);
    return n;
  }
  const n = (seen.get(sha) ?? 0) + 1;
  seen.set(sha, n);
  return n;
}

export class AttemptCounter {
  private readonly counts: AttemptCounts = new Map();
  // the bodies waiting, oldest first, linked through Pending.nextRead: a list costs the request
  // path one field write, where an array of every body would be grown and copied as it fills
  private first: Pending | undefined;
  private last: Pending | undefined;

  /** A body has been read (and kept in p, body-store.ts): it takes its place in the count. */
  read(p: Pending): void {
    if (this.last === undefined) this.first = p;
    else this.last.nextRead = p;
    this.last = p;
  }

  /**
   * The entry of p has left the journal (past its bound): if its body still waits, everything
   * read until now is counted, so the queue never keeps a dropped entry alive. Entries leave
   * oldest first, so this happens about once per bound's worth of drops.
   */
  dropped(p: Pending | undefined): void {
    if (p !== undefined && (p.nextRead !== undefined || p === this.last)) this.drain();
  }

  /** Counts every body read so far, in the order read: p.sha and p.attemptsSeen are set. */
  drain(): void {
    let p = this.first;
    this.first = this.last = undefined;
    while (p !== undefined) {
      const body = keptBody(p)!;
      p.sha = body.length ? sha256Hex(body) : EMPTY_SHA;
      p.attemptsSeen = countAttempt(this.counts, deliveryIdOf(p.rawHeaders), p.sha);
      const next = p.nextRead;
      p.nextRead = undefined;
      p = next;
    }
  }

  /** Forgets every delivery seen; the bodies already read keep the counts they had. */
  clear(): void {
    this.drain();
    this.counts.clear();
  }
}
