/**
 * The callbacks a sequence expects, and what its workspace's hook really received. Every entry is
 * judged once, as it arrives: matched to the expectation it answers (by event, conversation and
 * key, never by the content a rule decides) and its content checked, or judged a stray by the
 * rule it breaks (real.ts). A step waits for its own expectations (deadline from timing); the
 * sequence ends with one quiet window in which nothing unexpected may arrive.
 *
 * The contract gives no time within which an event fires after its trigger: the deadline is the
 * harness's, so a miss fails only when the service had the time to send (the Load check below).
 */
import type { JournalEntry, MockHost } from '../../../mock-host/index.ts';
import type { ClauseId, ServiceCheckId } from '../../../spec/index.ts';
import { describe, header, payload, rawBody } from '../../../judge/service/journal.ts';
import { eventOf } from '../areas/scenario.ts';
import { must, type Judge } from './violation.ts';
import type { Status } from './model.ts';
import { capacity, judgeContent } from './ledger-content.ts';
import type { Expected } from './expected.ts';

export type { Expected };

function isObjectBody(e: JournalEntry): boolean {
  try {
    const v = JSON.parse(rawBody(e).toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

const done = (x: Expected) => x.optional === true || x.matched.length >= capacity(x);

export type StrayJudge = (e: JournalEntry) => { clause: ClauseId; rule: string; id?: ServiceCheckId };

/**
 * How a step's deadline learns whether the machine was loaded: the service's answer time to a
 * request it answers at once, and the rule turning a lag into more waiting (Timing.loadExtensionMs).
 */
export interface Load {
  roundTripMs(): Promise<number>;
  extensionMs(lagMs: number, extendedMs: number): number;
}

/** Lets the I/O the event loop has ready (a callback already in the socket) run before a verdict. */
const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Turns of the event loop a request takes from its socket to the journal (headers, body, its end). */
const IO_TURNS = 3;

export class Ledger {
  private readonly expectations: Expected[] = [];
  private readonly pending = new Map<number, JournalEntry>();
  private readonly judged = new Set<number>();
  /**
   * Delivery ids of the callbacks matched so far, with the attempt numbers received of each: another attempt of one
   * is that delivery re-sent, not a new event.
   */
  private readonly delivered = new Map<string, Set<number>>();
  private wake: (() => void) | undefined;
  private readonly off: () => void;

  constructor(
    host: MockHost,
    readonly hookPath: string,
    private readonly users: readonly string[],
    private readonly j: Judge,
    private readonly stray: StrayJudge,
    private readonly load?: Load,
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
    let until = performance.now() + deadlineMs;
    let extendedMs = 0;
    for (;;) {
      this.drain();
      if (step.every(done)) return;
      const left = until - performance.now();
      if (left <= 0) {
        // Timers run before the event loop reads its sockets: a callback already received is let in first.
        const extraMs = await this.loaded(-left, extendedMs);
        const missing = step.find((x) => !done(x));
        if (missing === undefined) return;
        if (extraMs > 0) {
          until = performance.now() + extraMs;
          extendedMs += extraMs;
          continue;
        }
        const seen = this.expectations
          .filter((x) => x.conversationId === missing.conversationId)
          .flatMap((x) => x.matched);
        const got = missing.matched.length;
        const waited = Math.round(deadlineMs + extendedMs);
        must(
          this.j,
          false,
          missing.arrival,
          missing.rule,
          {
            expected: `${capacity(missing)} ${missing.event}${missing.key ? ` naming ${missing.key}` : ''} of conversation ${missing.conversationId} within ${waited} ms${extendedMs > 0 ? ` (${Math.round(deadlineMs)} ms, extended for a loaded machine)` : ''}`,
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

  /**
   * At a deadline: lets in what the sockets hold, then how much longer to wait (0: the miss stands).
   * lateMs: how late the harness's own timer fired; the service's lag is its answer time to a trivial
   * request, asked only when the harness itself was on time (a probe that fails adds nothing).
   */
  private async loaded(lateMs: number, extendedMs: number): Promise<number> {
    for (let i = 0; i < IO_TURNS; i++) await ioTurn();
    this.drain();
    if (this.load === undefined) return 0;
    let lagMs = lateMs;
    if (this.load.extensionMs(lagMs, extendedMs) === 0) lagMs = await this.load.roundTripMs().catch(() => 0);
    for (let i = 0; i < IO_TURNS; i++) await ioTurn();
    this.drain();
    return this.load.extensionMs(lagMs, extendedMs);
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

  /**
   * The expectation an entry answers: same event and conversation (and key, for a per-key event); required ones first.
   */
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
    // "A slow-but-successful attempt can still be followed by a retry" (DELIV-12): a later attempt of a delivery
    // already matched re-sends that callback (DELIV-11); whether a retry was due is DELIV-10's and DELIV-12's to judge.
    // So is its first attempt when a retry of it reached the hook first (a loaded machine hands the hook two sockets in
    // either order); how the attempts are numbered is HDR-4's.
    const id = header(e, 'x-service-delivery-id');
    const attempt = Number(header(e, 'x-service-delivery-attempt'));
    const attempts = id === undefined ? undefined : this.delivered.get(id);
    if (attempts !== undefined && (attempt > 1 || (attempt === 1 && !attempts.has(1)))) {
      attempts.add(attempt);
      return;
    }
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
    if (id !== undefined) this.delivered.set(id, new Set(Number.isInteger(attempt) ? [attempt] : []));
    if (!x.optional) this.j.tally.add(x.arrival);
    x.onMatch?.(e);
    judgeContent(this.j, this.users, x, e);
  }
}
