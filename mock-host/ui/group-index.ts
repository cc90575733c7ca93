/**
 * The journal grouped by delivery id, kept up to date from the journal's changes rather than
 * rebuilt per request: a page of groups over 100,000 entries then costs a walk over the groups,
 * not a regrouping of every entry. Built on the first query, so a host whose page is never opened
 * pays nothing. Groups sit in a Map in order of last activity (a new attempt moves its group to
 * the end), and a page is cut from the end: newest activity first.
 */
import type { JournalChange } from '../types.ts';
import type { JournalEntry } from '../types.ts';
import { entryMatches, groupOf, MAX_PAGE, type Group, type GroupQuery } from './groups.ts';

interface Journalish {
  entries(): JournalEntry[];
  readonly size?: number;
  subscribe(listener: (change: JournalChange) => void): () => void;
}

// a request's addressing (delivery id, event) is known once its body has been read and analysed
const addressed = (e: JournalEntry) => e.bodySha256 !== '';
const keyOf = (e: JournalEntry) => (e.deliveryId !== undefined ? `d:${e.deliveryId}` : `s:${e.seq}`);

export class GroupIndex {
  private groups = new Map<string, JournalEntry[]>();
  private waiting = new Set<JournalEntry>();
  private size = 0;
  private off: (() => void) | undefined;

  constructor(private readonly journal: Journalish) {}

  private start(): void {
    for (const e of this.journal.entries()) this.take(e);
    this.off = this.journal.subscribe((c) => {
      if (c.kind === 'arrived') this.take(c.entry);
      else if (c.kind === 'completed') this.settle(c.entry);
      else this.drop(c.entry);
    });
  }

  private take(e: JournalEntry): void {
    this.size++;
    if (addressed(e)) this.place(e);
    else this.waiting.add(e);
  }

  private settle(e: JournalEntry): void {
    if (this.waiting.delete(e)) this.place(e);
  }

  private place(e: JournalEntry): void {
    const key = keyOf(e);
    const list = this.groups.get(key) ?? [];
    let i = list.length;
    while (i > 0 && list[i - 1]!.seq > e.seq) i--;
    list.splice(i, 0, e);
    // re-inserted: the group moves to the end, the newest activity
    this.groups.delete(key);
    this.groups.set(key, list);
  }

  private drop(e: JournalEntry): void {
    this.size--;
    if (this.waiting.delete(e)) return;
    const key = keyOf(e);
    const list = this.groups.get(key);
    if (!list) return;
    const i = list.indexOf(e);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.groups.delete(key);
  }

  /** Forget everything (the journal was cleared); the next query rebuilds. */
  reset(): void {
    this.off?.();
    this.off = undefined;
    this.groups.clear();
    this.waiting.clear();
    this.size = 0;
  }

  close(): void {
    this.reset();
  }

  page(q: GroupQuery): { total: number; groups: Group[]; journalSize: number } {
    // a journal cleared in-process (not through the admin reset) no longer matches: rebuild
    if (this.off && this.journal.size !== undefined && this.journal.size !== this.size) this.reset();
    if (!this.off) this.start();
    for (const e of [...this.waiting]) if (addressed(e)) this.settle(e);
    const limit = Math.min(q.limit, MAX_PAGE);
    const filtered =
      q.event !== undefined || q.deliveryId !== undefined || q.endUserHandle !== undefined || q.verdict !== undefined;
    const all = [...this.groups];
    const groups: Group[] = [];
    let total = 0;
    // requests whose body is still coming: shown first, as the newest, each on its own
    const pending = filtered ? [] : [...this.waiting].reverse();
    for (const e of pending) {
      if (total >= q.offset && groups.length < limit) groups.push(groupOf(`s:${e.seq}`, [e]));
      total++;
    }
    for (let i = all.length - 1; i >= 0; i--) {
      const [key, list] = all[i]!;
      if (filtered && !list.some((e) => entryMatches(e, q))) continue;
      if (total >= q.offset && groups.length < limit) groups.push(groupOf(key, list));
      total++;
    }
    return { total, groups, journalSize: this.size };
  }
}
