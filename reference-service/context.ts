/**
 * The running service's shared state and services: one object handed to routes, the driver, the
 * delivery engine and the facts fetcher. close() ends every timer and request (pending
 * deliveries are abandoned).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ServiceClock } from './clock.ts';
import type { FaultSet } from './faults.ts';
import { HttpSender } from './http-send.ts';
import type { Conversation, FactsEntry, Payload, ServiceLogLine, StoredRecord, Workspace } from './model.ts';
import type { KeyRing } from './signing.ts';

export interface UploadEntry {
  id: string;
  workspaceKey: string;
  state: 'accepted' | 'rejected';
  reason?: string;
}

/**
 * The delivery engine as the context hands it out: delivery.ts's Deliverer, declared here so that
 * neither file imports the other.
 */
export interface LifecycleDeliverer {
  /** Queues one lifecycle delivery behind the conversation's earlier ones; resolves when it is done. */
  enqueue(ws: Workspace, conversationId: number, event: string, payload: Payload): Promise<void>;
  idle(): Promise<void>;
}

const LOG_LIMIT = 10_000;

export class ServiceContext {
  readonly workspaces = new Map<string, Workspace>();
  readonly records = new Map<string, StoredRecord>();
  readonly conversations = new Map<number, Conversation>();
  readonly uploads = new Map<string, UploadEntry>();
  readonly facts = new Map<string, FactsEntry>();
  /** The driver's outage switch, by workspaceKey (outage.ts). */
  readonly outages = new Map<string, 500 | 503>();
  /** The driver's local listen pipes: where each workspace's events go instead of the host (HOOK-5). */
  readonly listenPipes = new Map<string, URL>();
  /**
   * Setting slots (workspaceKey, configEnd, endUserHandle) whose record the chat deleted: read by a seeded fault only
   * (faults.ts).
   */
  readonly deletedSettings = new Set<string>();
  readonly logLines: ServiceLogLine[] = [];
  readonly sender = new HttpSender();
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private seq = 0;
  private conversationSeq: number;
  closed = false;
  /** Set by the server right after construction. */
  deliverer!: LifecycleDeliverer;

  constructor(
    readonly clock: ServiceClock,
    readonly faults: FaultSet,
    readonly ring: KeyRing,
    private readonly sink?: (line: ServiceLogLine) => void,
  ) {
    // Random base: two services sharing one host never reuse a conversationId (delivery ids, HDR-3).
    this.conversationSeq = 1 + Math.floor(Math.random() * 1_000_000) * 1000;
  }

  nextConversationId(): number {
    this.conversationSeq += 1;
    return this.conversationSeq;
  }

  newServiceKey(): string {
    return `sk-${randomUUID()}`;
  }

  newSecretToken(prefix: string): string {
    return `${prefix}${randomBytes(18).toString('base64url')}`;
  }

  /** Never pass a secret here: the log is served by the driver (never contains secrets). */
  log(
    level: ServiceLogLine['level'],
    event: string,
    message: string,
    extra: { workspaceKey?: string; deliveryId?: string } = {},
  ): void {
    this.seq += 1;
    const line: ServiceLogLine = { seq: this.seq, at: new Date().toISOString(), level, event, message, ...extra };
    this.logLines.push(line);
    if (this.logLines.length > LOG_LIMIT) this.logLines.splice(0, this.logLines.length - LOG_LIMIT);
    this.sink?.(line);
  }

  /** A timer that close() cancels; the promise then resolves early and the caller checks `closed`. */
  sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.set(timer, resolve);
    });
  }

  findRecord(ws: Workspace, serviceKey: string): StoredRecord | undefined {
    const r = this.records.get(serviceKey);
    return r && r.workspaceKey === ws.workspaceKey ? r : undefined;
  }

  /** The key of a Setting slot in deletedSettings. */
  settingSlot(workspaceKey: string, configEnd: string, endUserHandle: string): string {
    return JSON.stringify([workspaceKey, configEnd, endUserHandle]);
  }

  recordsOf(ws: Workspace, configEnd: string, endUserHandle: string): StoredRecord[] {
    const out: StoredRecord[] = [];
    for (const r of this.records.values()) {
      if (r.workspaceKey === ws.workspaceKey && r.configEnd === configEnd && r.endUserHandle === endUserHandle)
        out.push(r);
    }
    return out;
  }

  close(): void {
    this.closed = true;
    for (const [timer, resolve] of this.timers) {
      clearTimeout(timer);
      resolve();
    }
    this.timers.clear();
    this.sender.close();
  }
}
