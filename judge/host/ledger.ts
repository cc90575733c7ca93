/**
 * The ledger of the host direction's judge (DESIGN "One judge per direction"): every callback and facts GET
 * the harness sends (suites/host/harness/deliver.ts), whichever test sends it, with its answer, whether a
 * correct verifier accepts it (genuine), the journal position when it left, and what its sender says must
 * follow. Beside it, every key a callback named for a user (onComplete serviceKeys, config.saved and
 * config.deleted serviceKey, config.bulk_deleted keys) and every key a test announced: a host may read any of
 * them (read-rules.ts). At the end of the test that sent them, duties.ts derives what must have happened by
 * then and judge-duties.ts judges it. Per worker: its tests run one at a time, each with its own handles and
 * keys; the test running now is told by whoever keeps the ledger (the suites' observer), so the judge needs no
 * test runner.
 */
import { createHash } from 'node:crypto';
import { lcDeliveryId } from '../../protocol/index.ts';
import type { ClauseId, HostCheckId } from '../../spec/index.ts';
import type { SendOutcome } from './exchange.ts';
import type { Payload } from './payload.ts';
import type { ServiceSide } from './service-side-types.ts';

/** The check of HOST-13's "every key read" for an onComplete whose test has words of its own for it. */
export interface KeysReadCheck {
  id: HostCheckId;
  rule: string;
}

/** A copy the receiver must refuse (a forgery a test sends on purpose), and the check that decides it. */
export interface RefusalCheck {
  clause: ClauseId;
  id: HostCheckId;
  rule: string;
}

/** What a sender says must follow, beyond what the judge derives from the ledger itself (duties.ts). */
export interface Expectation {
  keysRead?: KeysReadCheck;
  refused?: RefusalCheck;
}

export interface Exchange {
  /** Order of recording. */
  n: number;
  testId: string | undefined;
  kind: 'callback' | 'facts';
  mode: string;
  /** Signed as the service signs (t inside the window): a correct verifier accepts it. */
  genuine: boolean;
  outcome: SendOutcome;
  /** The journal position when it was sent: a read journalled later may follow it. */
  at: number;
  /** Monotonic ms when it was sent (this process's clock). */
  sentAtMs: number;
  endUserHandle: string;
  /** A callback's payload, delivery id, body digest and attempt. */
  payload?: Payload;
  deliveryId?: string;
  bodyHash?: string;
  attempt?: number;
  expect?: Expectation;
}

/** Keys a callback named (or a test announced) for a user, by whom and when. */
export interface Named {
  testId: string | undefined;
  keys: ReadonlySet<string>;
  at: number;
}

export type Sent = Omit<Exchange, 'n' | 'testId' | 'bodyHash' | 'deliveryId'> & { body?: Buffer };

/** The id of the test running now, or undefined outside a test (a self test drives the harness outside one). */
export type CurrentTest = () => string | undefined;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []);

/** The keys of an onComplete's serviceKeys. */
export const serviceKeysOf = (p: Payload | undefined): string[] =>
  p?.event === 'onComplete' ? strings(p.serviceKeys) : [];

/** Every key a callback names (2.2): serviceKeys, serviceKey, keys. */
export function namedKeysOf(p: Payload): string[] {
  const one = typeof p.serviceKey === 'string' ? [p.serviceKey] : [];
  return [...strings(p.serviceKeys), ...one, ...strings(p.keys)];
}

/** The records a callback says exist, which the data API then serves: an onComplete's, a config.saved's. */
export function servedKeysOf(p: Payload): string[] {
  if (p.event === 'onComplete') return strings(p.serviceKeys);
  return p.event === 'config.saved' && typeof p.serviceKey === 'string' ? [p.serviceKey] : [];
}

export class Ledger {
  readonly exchanges: Exchange[] = [];
  private readonly byOutcome = new WeakMap<SendOutcome, Exchange>();
  private readonly named = new Map<string, Named[]>();
  /** The last announcement of each (user, key), and whether a callback has taken its position yet. */
  private readonly served = new Map<string, { at: number; used: boolean }>();

  /** currentTest: the id of the test running now, asked each time an exchange or a naming is recorded. */
  constructor(
    private readonly service: ServiceSide,
    private readonly currentTest: CurrentTest,
  ) {}

  /** Records keys named for a user (a callback sent, or a test's announcement). */
  name(endUserHandle: string, keys: readonly string[], at: number, testId = this.currentTest()): void {
    if (keys.length === 0) return;
    const list = this.named.get(endUserHandle) ?? [];
    list.push({ testId, keys: new Set(keys), at });
    this.named.set(endUserHandle, list);
  }

  namedFor(endUserHandle: string): readonly Named[] {
    return this.named.get(endUserHandle) ?? [];
  }

  /** A test announced keys (ServiceSide.announce, wrapped by the observer): the data API serves them from `at`. */
  announced(endUserHandle: string, keys: readonly string[], at: number): void {
    this.name(endUserHandle, keys, at);
    for (const k of keys) this.served.set(`${endUserHandle}\u0000${k}`, { at, used: false });
  }

  /** The journal position as this worker knows it (exact in-process; a lower bound when shared). */
  localSeq(): number {
    return Math.max(0, ...this.service.reads.map((r) => r.seq), ...this.service.jwksFetches.map((f) => f.seq));
  }

  /**
   * Before a callback leaves: serves the records it says exist, and gives the journal position it leaves at.
   * An announcement made for it (complete(), a test's prepare step) gives it without a round trip, so a
   * window edge still leaves in its second; a callback sent again (a redelivery) asks the journal.
   */
  async serve(p: Payload): Promise<number> {
    const handle = String(p.endUserHandle);
    const keys = servedKeysOf(p);
    if (keys.length === 0) return this.localSeq();
    const known = keys.map((k) => this.served.get(`${handle}\u0000${k}`));
    if (known.every((x) => x !== undefined && !x.used)) {
      for (const x of known) x!.used = true;
      return Math.max(...known.map((x) => x!.at));
    }
    if (known.some((x) => x === undefined)) {
      // The records are the callback's workspace's (a sandbox's read under its own workspaceKey, 2.1).
      const ws = typeof p.workspaceKey === 'string' ? p.workspaceKey : undefined;
      const at = await this.service.announce(handle, keys, ws);
      for (const k of keys) this.served.get(`${handle}\u0000${k}`)!.used = true;
      return at;
    }
    await this.service.sync();
    return this.localSeq();
  }

  /** Records an exchange once its answer (or its failure) is in. */
  add(s: Sent): Exchange {
    const { body, ...rest } = s;
    const e: Exchange = {
      ...rest,
      n: this.exchanges.length + 1,
      testId: this.currentTest(),
      ...(s.payload !== undefined
        ? {
            deliveryId: lcDeliveryId(s.payload.conversationId, s.payload.event),
            bodyHash: createHash('sha256')
              .update(body ?? JSON.stringify(s.payload))
              .digest('hex'),
          }
        : {}),
    };
    this.exchanges.push(e);
    this.byOutcome.set(e.outcome, e);
    if (s.payload !== undefined) this.name(e.endUserHandle, namedKeysOf(s.payload), e.at, e.testId);
    return e;
  }

  /** The exchange an outcome came from. */
  of(outcome: SendOutcome): Exchange | undefined {
    return this.byOutcome.get(outcome);
  }

  ofTest(testId: string): Exchange[] {
    return this.exchanges.filter((e) => e.testId === testId);
  }
}
