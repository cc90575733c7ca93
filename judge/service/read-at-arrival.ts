/**
 * STATE-7 decided at arrival (live `observe --data-api`): the key a config.deleted names is read under
 * every configEnd path form as soon as the callback arrives, before a later scope delete could remove a
 * record the chat delete kept. The contract says the record is already gone when config.deleted is sent
 * (section 6), so a 200 then is a record the chat delete kept. The reads are judged when observing ends
 * (judgeChatDeletes, read-back.ts), once a completed record read back 200 proved the path form.
 */
import { CONFIG_END_FORMS, type ConfigEndForm } from '../../spec/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { bodyOf } from './words.ts';
import { read, type ReadBackOptions, type Where } from './data-api-read.ts';

export interface ArrivalRead extends Where {
  /** The status each path form answered, or the error that left the read unmade. */
  byForm: Partial<Record<ConfigEndForm, number>>;
  error?: string;
}

/** The reads made at arrival, by the seq of the config.deleted they follow. */
export type ArrivalReads = Map<number, ArrivalRead>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export class ArrivalReader {
  private readonly pending = new Map<number, Promise<ArrivalRead>>();
  private readonly seen = new Set<string>();

  constructor(private readonly o: ReadBackOptions) {}

  /** Each journal change: a config.deleted seen for the first time (not a retry of it) is read now. */
  see(e: JournalEntry): void {
    if (e.kind !== 'lifecycle') return;
    const p = bodyOf(e);
    if (p?.event !== 'config.deleted') return;
    const where = {
      workspaceKey: str(p.workspaceKey),
      configEnd: str(p.configEnd),
      endUserHandle: str(p.endUserHandle),
      serviceKey: str(p.serviceKey),
    };
    if (!where.workspaceKey || !where.configEnd || !where.endUserHandle || !where.serviceKey) return;
    // a retry names what attempt 1 named, which was read when attempt 1 arrived
    const once = `${e.deliveryId ?? e.seq}\u0000${e.bodySha256}`;
    if (this.seen.has(once)) return;
    this.seen.add(once);
    this.pending.set(e.seq, this.readAll(where as Where));
  }

  private async readAll(w: Where): Promise<ArrivalRead> {
    const got: ArrivalRead = { ...w, byForm: {} };
    // the token may come into being during the observation (the team's tests create the workspace)
    if (!this.o.token) return { ...got, error: 'no Bearer token yet when it arrived' };
    try {
      for (const form of CONFIG_END_FORMS) got.byForm[form] = (await read(this.o, w, form)).status;
    } catch (error) {
      got.error = (error as Error).message;
    }
    return got;
  }

  /** Every read made, once each has answered (each has its own deadline). */
  async settled(): Promise<ArrivalReads> {
    const out: ArrivalReads = new Map();
    for (const [seq, p] of this.pending) out.set(seq, await p);
    return out;
  }
}
