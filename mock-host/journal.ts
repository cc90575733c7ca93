/**
 * The journal: one entry per request, written on arrival and completed when the response is
 * sent or the connection ends (PITFALLS: recording only on completion hides hung and reset
 * requests). Optionally bounded; the oldest entries go first and are counted in `dropped`.
 * Every entry it hands out (reads, listeners, subscribers) is settled first (entry.ts).
 */
import { ccsError } from '../spec/index.ts';
import { settled } from './entry.ts';
import type { EntryFilter, EntryPhase, Journal, JournalChange, JournalEntry } from './types.ts';

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
  for (const k of [
    'path',
    'kind',
    'method',
    'event',
    'deliveryId',
    'endUserHandle',
    'workspaceKey',
    'completed',
  ] as const) {
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
type Subscriber = (change: JournalChange) => void;

function call(subscribers: Subscriber[], change: JournalChange): void {
  for (const f of subscribers) {
    try {
      f(change);
    } catch {
      // a listener's bug must never stall the host
    }
  }
}

function tell(listeners: Listener[], e: JournalEntry, phase: EntryPhase): void {
  for (const l of listeners) {
    try {
      l(e, phase);
    } catch {
      // a listener's bug must never stall the host
    }
  }
}

export class JournalStore implements Journal {
  private list: JournalEntry[] = [];
  private head = 0; // index of the first live entry in `list` (cheap drop of the oldest)
  private droppedCount = 0;
  private nextSeq = 1;
  // arrays replaced whole on (un)subscribe, so a listener that unsubscribes mid-call is safe
  private listeners: Listener[] = [];
  private lazyListeners: Listener[] = [];
  private subscribers: Subscriber[] = [];
  private lazySubscribers: Subscriber[] = [];
  private readonly maxEntries: number;
  private readonly onDrop: ((e: JournalEntry) => void) | undefined;

  /** onDrop: told of each entry pushed out past maxEntries, before anyone else */
  constructor(o: { maxEntries?: number; onDrop?: (e: JournalEntry) => void } = {}) {
    this.maxEntries = o.maxEntries && o.maxEntries > 0 ? o.maxEntries : Infinity;
    this.onDrop = o.onDrop;
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
      // the slot is cleared, so a dropped entry is freed even before the array is compacted
      (this.list as Array<JournalEntry | undefined>)[this.head] = undefined;
      this.head++;
      this.droppedCount++;
      if (this.head > 1024 && this.head > this.list.length / 2) {
        this.list = this.list.slice(this.head);
        this.head = 0;
      }
      this.onDrop?.(old);
      if (this.lazySubscribers.length !== 0) call(this.lazySubscribers, { kind: 'dropped', entry: old });
      if (this.subscribers.length !== 0) call(this.subscribers, { kind: 'dropped', entry: settled(old) });
    }
    this.emit(e, 'arrival');
  }

  /** Tells listeners of a phase of an entry; costs nothing when nobody listens. */
  emit(e: JournalEntry, phase: EntryPhase): void {
    if (this.lazySubscribers.length !== 0 && phase !== 'body')
      call(this.lazySubscribers, { kind: phase === 'arrival' ? 'arrived' : 'completed', entry: e });
    if (this.listeners.length === 0 && this.subscribers.length === 0) {
      if (this.lazyListeners.length !== 0) tell(this.lazyListeners, e, phase);
      return;
    }
    settled(e);
    tell(this.listeners, e, phase);
    if (this.lazyListeners.length !== 0) tell(this.lazyListeners, e, phase);
    if (this.subscribers.length !== 0 && phase !== 'body')
      call(this.subscribers, { kind: phase === 'arrival' ? 'arrived' : 'completed', entry: e });
  }

  clear(): void {
    this.list = [];
    this.head = 0;
    this.droppedCount = 0;
  }

  entries(filter?: EntryFilter): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = this.head; i < this.list.length; i++) {
      const e = settled(this.list[i]!);
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

  onEntry(listener: Listener): () => void {
    return this.attach(
      () => this.listeners,
      (next) => (this.listeners = next),
      listener,
    );
  }

  /**
   * Like onEntry, but the entry is handed over as it stands, perhaps not yet settled: nothing is
   * worked out for this listener on the request path. It must read the entry through settled()
   * (or, for a request line, lines.ts) when it needs more than seq, method, url, path and kind.
   */
  onEntryLazy(listener: Listener): () => void {
    return this.attach(
      () => this.lazyListeners,
      (next) => (this.lazyListeners = next),
      listener,
    );
  }

  /**
   * Changes as they happen: 'arrived' (request line and headers recorded), 'completed' (answered
   * or ended, everything recorded), 'dropped' (pushed out past maxEntries, counted in dropped).
   * Without subscribers nothing is allocated for them on the request path.
   */
  subscribe(listener: Subscriber): () => void {
    return this.attach(
      () => this.subscribers,
      (next) => (this.subscribers = next),
      listener,
    );
  }

  /**
   * Like subscribe, but the entry is handed over as it stands, perhaps not yet settled: nothing is
   * worked out for this subscriber on the request path (see onEntryLazy).
   */
  subscribeLazy(listener: Subscriber): () => void {
    return this.attach(
      () => this.lazySubscribers,
      (next) => (this.lazySubscribers = next),
      listener,
    );
  }

  /** Adds a listener to one of the arrays above, replaced whole (see there); returns its remover. */
  private attach<T>(get: () => T[], set: (next: T[]) => void, listener: T): () => void {
    set([...get(), listener]);
    return () => set(get().filter((l) => l !== listener));
  }

  waitFor(filter: EntryFilter, o: { count?: number; timeoutMs: number }): Promise<JournalEntry[]> {
    const count = o.count ?? 1;
    if (!Number.isFinite(o.timeoutMs) || o.timeoutMs < 0) {
      return Promise.reject(ccsError('MOCKHOST_WAIT_INVALID', { timeoutMs: String(o.timeoutMs) }));
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
          ccsError('MOCKHOST_WAIT_TIMEOUT', {
            timeoutMs: o.timeoutMs,
            count,
            filter: describeFilter(filter),
            arrived: got.length,
            arrivals: got.length ? ` (${got.map(summarizeEntry).join('; ')})` : '',
            recent: recent.length ? recent.join('; ') : 'none',
            matched: got.map((e) => e.seq),
          }),
        );
      }, o.timeoutMs);
    });
  }
}
