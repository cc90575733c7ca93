/**
 * Deduplication of deliveries for a host (HOST-11).
 *
 * Why the key is (deliveryId, sha256 of the raw body) and not the id alone: the id is fixed per
 * (conversation, event) (HDR-3), so two config.saved of one conversation, and every page of one
 * config.bulk_deleted, share an id while being distinct deliveries. A retry, on the other hand,
 * is "the same payload re-sent" (section 6 rule 4, DELIV-11): same id, same body bytes (only the
 * signature's t changes, and it lives in a header). Keying on both recognises a retry and loses
 * no distinct delivery. Never key on X-Service-Delivery-Attempt (HOST-11).
 */
import { createHash } from 'node:crypto';
import { ccsError } from '../spec/index.ts';

export class DeliveryDeduper {
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  /** key -> first-seen time (monotonic ms); Map keeps insertion order, so the oldest is first. */
  private readonly seen = new Map<string, number>();

  constructor(o: { maxEntries?: number; ttlMs?: number } = {}) {
    this.maxEntries = o.maxEntries ?? 10_000;
    this.ttlMs = o.ttlMs ?? 24 * 60 * 60 * 1000;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw ccsError('PROTOCOL_DEDUPER_CONFIG_INVALID', {
        option: 'maxEntries',
        rule: 'a positive integer',
        got: String(o.maxEntries),
      });
    }
    if (!(this.ttlMs > 0))
      throw ccsError('PROTOCOL_DEDUPER_CONFIG_INVALID', { option: 'ttlMs', rule: 'positive', got: String(o.ttlMs) });
  }

  /** Entries currently remembered. */
  get size(): number {
    return this.seen.size;
  }

  /** True the first time a (deliveryId, body) pair is seen; false for a redelivery of it. */
  firstSeen(deliveryId: string, rawBody: Uint8Array): boolean {
    if (typeof deliveryId !== 'string' || deliveryId === '') {
      throw ccsError('PROTOCOL_DELIVERY_ID_INVALID');
    }
    const now = performance.now();
    this.expire(now);
    const key = `${deliveryId}\n${createHash('sha256').update(rawBody).digest('hex')}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, now);
    while (this.seen.size > this.maxEntries) {
      const oldest = this.seen.keys().next().value as string;
      this.seen.delete(oldest);
    }
    return true;
  }

  private expire(now: number): void {
    for (const [key, at] of this.seen) {
      if (now - at <= this.ttlMs) break;
      this.seen.delete(key);
    }
  }
}
