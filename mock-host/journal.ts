/**
 * The journal: one entry per request, written on arrival and completed when the response is
 * sent or the connection ends (PITFALLS: recording only on completion hides hung and reset
 * requests). Optionally bounded; the oldest entries go first and are counted in `dropped`.
 */
import { CcsError } from '../spec/index.ts';
import type { EntryFilter, EntryPhase, Journal, JournalEntry } from './types.ts';

export function matchesFilter(e: JournalEntry, f: EntryFilter | undefined): boolean {
  if (!f) return true;
  if (f.path !== undefined && e.path !== f.path) return false;
  if (f.kind !== undefined && e.kind !== f.kind) return false;
  if (f.method !== undefined && e.method.toUpperCase() !== f.method.toUpperCase()) return false;
  if (f.event !== undefined && e.event !== f.event) return false;
  if (f.deliveryId !== undefined && e.deliveryId !== f.deliveryId) return false;
  if (f.endUserHandle !== undefined && e.endUserHandle !== f.endUserHandle) return false;
  if (f.workspaceKey !== undefined && e.workspaceKey !== f.workspaceKey) return false;
  if (f.completed !== undefined && (e.finished !== undefined) !== f.completed) return false;
  if (f.predicate !== undefined && !f.predicate(e)) return false;
  return true;
}

/** Describes a filter in words, for timeout messages. */
export function describeFilter(f: EntryFilter): string {
  const parts: string[] = [];
  for (const k of ['path', 'kind', 'method', 'event', 'deliveryId', 'endUserHandle', 'workspaceKey', 'completed'] as const) {
    if (f[k] !== undefined) parts.push(`${k}=${String(f[k])}`);
  }
  if (f.predicate) parts.push('predicate');
  return parts.length ? parts.join(', ') : 'any request';
}

/** One line naming an entry: seq, method, path, event, delivery id, attempt, answer. */
export function summarizeEntry(e: JournalEntry): string {
  const bits = [`#${e.seq} ${e.method} ${e.path}`];
  if (e.event) bits.push(`event=${e.event}`);
  if (e.deliveryId) bits.push(`id=${e.deliveryId}`);
  if (e.attempt !== undefined) bits.push(`attempt=${e.attempt}`);
  if (e.response?.status !== undefined) bits.push(`status=${e.response.status}`);
  if (e.response?.fault) bits.push(`fault=${e.response.fault}`);
  return bits.join(' ');
}

type Listener = (e: JournalEntry, phase: EntryPhase) => void;

/** A change to the journal, as told to subscribers: an entry arrived, completed, or was dropped. */
export interface JournalChange {
  kind: 'arrived' | 'completed' | 'dropped';
  entry: JournalEntry;
}

export class JournalStore implements Journal {
  private list: JournalEntry[] = [];
  private head = 0; // index of the first live entry in `list` (cheap drop of the oldest)
  private droppedCount = 0;
  private nextSeq = 1;
  private listeners = new Set<Listener>();
  private subscribers = new Set<(change: JournalChange) => void>();
  private readonly maxEntries: number;

  constructor(o: { maxEntries?: number } = {}) {
    this.maxEntries = o.maxEntries && o.maxEntries > 0 ? o.maxEntries : Infinity;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.list.length - this.head;
  }

  allocateSeq(): number {
    return this.nextSeq++;
  }

  add(e: JournalEntry): void {
    this.list.push(e);
    if (this.size > this.maxEntries) {
      const old = this.list[this.head]!;
      this.head++;
      this.droppedCount++;
      this.tell({ kind: 'dropped', entry: old });
      if (this.head > 1024 && this.head > this.list.length / 2) {
        this.list = this.list.slice(this.head);
        this.head = 0;
      }
    }
    this.emit(e, 'arrival');
  }

  emit(e: JournalEntry, phase: EntryPhase): void {
    if (phase === 'arrival') this.tell({ kind: 'arrived', entry: e });
    else if (phase === 'finished') this.tell({ kind: 'completed', entry: e });
    for (const l of this.listeners) {
      try {
        l(e, phase);
      } catch {
        // a listener's bug must never stall the host
      }
    }
  }

  clear(): void {
    this.list = [];
    this.head = 0;
    this.droppedCount = 0;
  }

  entries(filter?: EntryFilter): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = this.head; i < this.list.length; i++) {
      const e = this.list[i]!;
      if (matchesFilter(e, filter)) out.push(e);
    }
    return out;
  }

  since(seq: number): JournalEntry[] {
    return this.entries({ predicate: (e) => e.seq > seq });
  }

  deliveries(filter?: EntryFilter): Map<string, JournalEntry[]> {
    const map = new Map<string, JournalEntry[]>();
    for (const e of this.entries(filter)) {
      if (e.deliveryId === undefined) continue;
      const group = map.get(e.deliveryId);
      if (group) group.push(e);
      else map.set(e.deliveryId, [e]);
    }
    return map;
  }

  /** Tells the listener of every change from now on; returns the unsubscribe function. */
  subscribe(listener: (change: JournalChange) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  private tell(change: JournalChange): void {
    for (const l of this.subscribers) {
      try {
        l(change);
      } catch {
        // a subscriber's bug must never stall the host
      }
    }
  }

  onEntry(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  waitFor(filter: EntryFilter, o: { count?: number; timeoutMs: number }): Promise<JournalEntry[]> {
    const count = o.count ?? 1;
    if (!Number.isFinite(o.timeoutMs) || o.timeoutMs < 0) {
      return Promise.reject(new CcsError('MOCKHOST_WAIT_INVALID', `waitFor needs a timeoutMs >= 0, got ${String(o.timeoutMs)}`));
    }
    const matched = new Map<number, JournalEntry>();
    for (const e of this.entries(filter)) matched.set(e.seq, e);
    const ordered = () => [...matched.values()].sort((a, b) => a.seq - b.seq);
    if (matched.size >= count) return Promise.resolve(ordered().slice(0, count));
    return new Promise((resolve, reject) => {
      const off = this.onEntry((e) => {
        if (matched.has(e.seq) || !matchesFilter(e, filter)) return;
        matched.set(e.seq, e);
        if (matched.size >= count) {
          clearTimeout(timer);
          off();
          resolve(ordered().slice(0, count));
        }
      });
      const timer = setTimeout(() => {
        off();
        const got = ordered();
        const recent = this.entries().slice(-5).map(summarizeEntry);
        reject(
          new CcsError(
            'MOCKHOST_WAIT_TIMEOUT',
            `waited ${o.timeoutMs} ms for ${count} request(s) matching ${describeFilter(filter)}; ${got.length} arrived` +
              (got.length ? ` (${got.map(summarizeEntry).join('; ')})` : '') +
              `. Last requests in the journal: ${recent.length ? recent.join('; ') : 'none'}`,
            { matched: got.map((e) => e.seq), filter: describeFilter(filter) },
          ),
        );
      }, o.timeoutMs);
    });
  }
}
