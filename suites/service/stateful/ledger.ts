/**
 * The callbacks a sequence expects, and what its workspace's hook really received. Every entry is
 * judged once, as it arrives: matched to the expectation it answers (by event, conversation and
 * key, never by the content a rule decides) and its content checked, or judged a stray by the
 * rule it breaks (strays.ts). A step waits for its own expectations (deadline from timing); the
 * sequence ends with one quiet window in which nothing unexpected may arrive.
 */
import type { JournalEntry, MockHost } from '../../../mock-host/index.ts';
import type { ClauseId, ServiceCheckId } from '../../../spec/index.ts';
import { CONTRACT } from '../../../protocol/index.ts';
import { describe, header, payload, rawBody } from '../areas/journal.ts';
import { eventOf } from '../areas/scenario.ts';
import { show } from '../../shared/index.ts';
import { must, type Judge } from './violation.ts';
import type { Status } from './model.ts';

export interface Expected {
  event: string;
  conversationId: number;
  /** The acting user of the conversation (EVT-11). */
  user: number;
  /** config.saved, config.deleted: the record named. */
  key?: string;
  /** onComplete: the finalized keys. */
  keys?: string[];
  /** config.saved: callbackStatus at save time, and the paths the turn saved. */
  callbackStatus?: Status;
  changedFields?: string[];
  /** config.bulk_deleted: the deleted scope. */
  manifest?: string[];
  /** Per-key config.deleted of a scope delete: allowed, never required (EVT-23 reading). */
  optional?: boolean;
  /** Whose rule the arrival is, in words, and its fault-model check id if a row names it. */
  arrival: ClauseId;
  rule: string;
  arrivalId?: ServiceCheckId;
  /** Told of each entry matched to it (the model keeps onComplete delivery ids). */
  onMatch?: (e: JournalEntry) => void;
  /** Delivery ids an onComplete of these keys carried before (DELIV-13). */
  earlierIds?: string[];
  /** Wall ms when the step began: an entry that arrived earlier is not this step's. */
  since?: number;
  matched: JournalEntry[];
}

/** How many POSTs an expectation takes: one, or one per page of a bulk manifest (PAGE-3). */
function capacity(x: Expected): number {
  return x.manifest ? Math.max(1, Math.ceil(x.manifest.length / CONTRACT.bulkPageSize)) : 1;
}

/** EVT-8: a dotted field path (name, address.city). */
const DOTTED_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

function isObjectBody(e: JournalEntry): boolean {
  try {
    const v = JSON.parse(rawBody(e).toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

const done = (x: Expected) => x.optional === true || x.matched.length >= capacity(x);
const keysOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []);
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

export type StrayJudge = (e: JournalEntry) => { clause: ClauseId; rule: string; id?: ServiceCheckId };

export class Ledger {
  private readonly expectations: Expected[] = [];
  private readonly pending = new Map<number, JournalEntry>();
  private readonly judged = new Set<number>();
  private wake: (() => void) | undefined;
  private readonly off: () => void;

  constructor(
    host: MockHost,
    readonly hookPath: string,
    private readonly users: readonly string[],
    private readonly j: Judge,
    private readonly stray: StrayJudge,
  ) {
    // An entry is judged once its body is in (phase body, or finished for one without a body).
    this.off = host.journal.onEntry((e, phase) => {
      if (e.path !== hookPath || phase === 'arrival' || this.judged.has(e.seq)) return;
      this.pending.set(e.seq, e);
      this.wake?.();
    });
  }

  close(): void {
    this.off();
  }

  /** Entries the hook received so far (for the printed script). */
  received(): number {
    return this.judged.size + this.pending.size;
  }

  /**
   * Waits until every expectation of the step has arrived (a miss fails the arrival's clause at
   * the deadline), judging each entry as it comes.
   */
  async settle(step: Expected[], deadlineMs: number): Promise<void> {
    this.expectations.push(...step);
    const until = performance.now() + deadlineMs;
    for (;;) {
      this.drain();
      const missing = step.find((x) => !done(x));
      if (missing === undefined) return;
      const left = until - performance.now();
      if (left <= 0) {
        const seen = this.expectations
          .filter((x) => x.conversationId === missing.conversationId)
          .flatMap((x) => x.matched);
        const got = missing.matched.length;
        must(
          this.j,
          false,
          missing.arrival,
          missing.rule,
          {
            expected: `${capacity(missing)} ${missing.event}${missing.key ? ` naming ${missing.key}` : ''} of conversation ${missing.conversationId} within ${Math.round(deadlineMs)} ms`,
            seen: `${got} arrived; the conversation's callbacks: ${seen.map(describe).join(' | ') || 'none'}`,
          },
          missing.arrivalId ? { id: missing.arrivalId } : {},
        );
      }
      await this.nap(left);
    }
  }

  /** Watches the hook for windowMs: anything that is no expectation's answer fails its rule. */
  async quiet(windowMs: number): Promise<void> {
    const until = performance.now() + windowMs;
    for (;;) {
      this.drain();
      const left = until - performance.now();
      if (left <= 0) return;
      await this.nap(left);
    }
  }

  private nap(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private drain(): void {
    const list = [...this.pending.values()].sort((a, b) => a.seq - b.seq);
    this.pending.clear();
    for (const e of list) {
      if (this.judged.has(e.seq)) continue;
      this.judged.add(e.seq);
      this.judge(e);
    }
  }

  /** The expectation an entry answers: same event and conversation (and key, for a per-key event); required ones first. */
  private match(e: JournalEntry): Expected | undefined {
    const ev = eventOf(e);
    const p = payload(e);
    // The type of conversationId is EVT-13's rule: a string naming the same conversation still names it.
    const conv = String(p.conversationId);
    const fits = (x: Expected) =>
      x.event === ev &&
      String(x.conversationId) === conv &&
      (x.key === undefined || x.key === p.serviceKey) &&
      x.matched.length < capacity(x) &&
      e.arrival.wallMs >= (x.since ?? 0);
    return this.expectations.find((x) => fits(x) && !x.optional) ?? this.expectations.find(fits);
  }

  private judge(e: JournalEntry): void {
    // EVT-1 first: an entry whose body is not a JSON object cannot be told apart by its members.
    must(
      this.j,
      isObjectBody(e),
      'EVT-1',
      'a lifecycle callback body is a JSON object',
      { expected: 'a JSON object', seen: describe(e) },
      { id: 'model.json-object' },
    );
    const x = this.match(e);
    if (x === undefined) {
      const s = this.stray(e);
      must(
        this.j,
        false,
        s.clause,
        s.rule,
        { expected: 'no such callback', seen: describe(e) },
        { ...(s.id ? { id: s.id } : {}), kind: 'stray' },
      );
      return;
    }
    x.matched.push(e);
    if (!x.optional) this.j.tally.add(x.arrival);
    x.onMatch?.(e);
    const p = payload(e);
    // EVT-11: the acting user of the conversation, never an org handle.
    must(
      this.j,
      p.endUserHandle === this.users[x.user],
      'EVT-11',
      'a callback names the acting user of its conversation in endUserHandle',
      { expected: show(this.users[x.user]), seen: `endUserHandle ${show(p.endUserHandle)} in ${describe(e)}` },
      { id: 'model.acting-user' },
    );
    if (x.event === 'onComplete') {
      const keys = keysOf(p.serviceKeys);
      const want = x.keys ?? [];
      must(
        this.j,
        sameSet(keys, want) && keys.length === new Set(keys).size,
        'EVT-6',
        'onComplete names every instance the completion finalizes, and no other',
        {
          expected: `serviceKeys ${show([...want].sort())}`,
          seen: `serviceKeys ${show(p.serviceKeys)} in ${describe(e)}`,
        },
        { id: 'model.oncomplete-keys' },
      );
      const id = header(e, 'x-service-delivery-id');
      if ((x.earlierIds ?? []).length > 0)
        must(
          this.j,
          id !== undefined && !x.earlierIds!.includes(id),
          'DELIV-13',
          'a later completion of a key fires onComplete with a new delivery id',
          { expected: `a delivery id other than ${x.earlierIds!.map((i) => show(i)).join(', ')}`, seen: show(id) },
        );
    } else if (x.event === 'config.saved') {
      must(
        this.j,
        p.callbackStatus === 'PENDING' || p.callbackStatus === 'DELIVERED',
        'EVT-8',
        'config.saved carries callbackStatus PENDING or DELIVERED',
        { expected: 'PENDING or DELIVERED', seen: `callbackStatus ${show(p.callbackStatus)} in ${describe(e)}` },
      );
      must(
        this.j,
        x.callbackStatus === undefined
          ? p.callbackStatus === 'PENDING' || p.callbackStatus === 'DELIVERED'
          : p.callbackStatus === x.callbackStatus,
        'EVT-18',
        `config.saved carries the record's callbackStatus at save time (${x.callbackStatus ?? 'PENDING or DELIVERED'})`,
        {
          expected: x.callbackStatus ?? 'PENDING or DELIVERED',
          seen: `callbackStatus ${show(p.callbackStatus)} in ${describe(e)}`,
        },
        { id: 'model.saved-status' },
      );
      const changed = keysOf(p.changedFields);
      const want = x.changedFields ?? [];
      const notPaths = (Array.isArray(p.changedFields) ? p.changedFields : [p.changedFields]).filter(
        (f: unknown) => !(typeof f === 'string' && DOTTED_PATH.test(f)),
      );
      must(this.j, notPaths.length === 0, 'EVT-8', 'changedFields holds dotted field paths, never values', {
        expected: 'dotted field paths',
        seen: `changedFields ${show(p.changedFields)} in ${describe(e)}`,
      });
      must(
        this.j,
        want.every((f) => changed.includes(f)),
        'EVT-17',
        'the one config.saved of an instance names every field the turn saved to it',
        {
          expected: `changedFields with ${show(want)}`,
          seen: `changedFields ${show(p.changedFields)} in ${describe(e)}`,
        },
        { id: 'model.saved-once-per-instance' },
      );
      must(
        this.j,
        changed.every((f) => want.includes(f)),
        'EVT-8',
        'changedFields names what the turn changed, nothing else',
        {
          expected: `changedFields within ${show(want)}`,
          seen: `changedFields ${show(p.changedFields)} in ${describe(e)}`,
        },
      );
    } else if (x.event === 'config.bulk_deleted') {
      this.judgePage(x, e);
    }
  }

  private judgePage(x: Expected, e: JournalEntry): void {
    const p = payload(e);
    const n = x.manifest!.length;
    const keys = keysOf(p.keys);
    must(
      this.j,
      keys.length <= CONTRACT.bulkPageSize,
      'PAGE-1',
      `a config.bulk_deleted page holds at most ${CONTRACT.bulkPageSize} keys`,
      { expected: `at most ${CONTRACT.bulkPageSize} keys`, seen: `${keys.length} keys in #${e.seq}` },
    );
    must(this.j, p.count === n, 'PAGE-4', 'every page carries count, the total number of keys deleted', {
      expected: `count ${n}`,
      seen: `count ${show(p.count)} in ${describe(e)}`,
    });
    const pages = capacity(x);
    if (x.matched.length < pages) return;
    const all = x.matched.flatMap((m) => keysOf(payload(m).keys));
    const twice = all.filter((k, i) => all.indexOf(k) !== i);
    const missing = x.manifest!.filter((k) => !all.includes(k));
    const foreign = all.filter((k) => !x.manifest!.includes(k));
    must(
      this.j,
      twice.length === 0 && missing.length === 0 && foreign.length === 0,
      'PAGE-5',
      'the pages of a scope delete name exactly the records of the scope, each once',
      {
        expected: `the ${n} keys of the scope`,
        seen: `missing ${show(missing, 160)}; not of the scope ${show(foreign, 160)}; twice ${show(twice, 160)}`,
      },
      { id: 'model.manifest' },
    );
    const numbers = x.matched.map((m) => payload(m).page).sort((a, b) => Number(a) - Number(b));
    const totals = new Set(x.matched.map((m) => payload(m).totalPages));
    must(
      this.j,
      numbers.every((v, i) => v === i + 1) && totals.size === 1 && totals.has(pages),
      'PAGE-2',
      `the pages are numbered 1 to totalPages = ceil(${n} / ${CONTRACT.bulkPageSize})`,
      {
        expected: `pages 1..${pages}, totalPages ${pages}`,
        seen: `pages ${show(numbers)}, totalPages ${show([...totals])}`,
      },
    );
  }
}
