/**
 * The executable model of sections 2.3, 3 and 6 the stateful suite checks a service against: the
 * records of two end users (their state, values, hold and identity label), the records gone (and
 * by which rule), and the conversations (open or closed, the instances each touched). Pure: the
 * commands (commands.ts) read it to decide what the service must answer and send, and update it
 * with what happened.
 */
import type { ClauseId } from '../../../spec/index.ts';

export type End = '/profile' | '/addresses';
/** The Setting class (one record per user, 2.3 rule 3) and the List class of the test workspace. */
export const SETTING: End = '/profile';
export const LIST: End = '/addresses';
/** The fields a save or a write may set: each save gives them fresh values, so each save changes them. */
export const FIELDS: Record<End, readonly string[]> = {
  '/profile': ['name', 'email', 'age'],
  '/addresses': ['street', 'city'],
};
/** The List's identity field: unique among a user's records (2.3 rule 3, DATA-12). */
export const IDENTITY = 'label';

export type Status = 'PENDING' | 'DELIVERED';

/** A field value the model knows, with the rule that wrote it (a chat save, a REST write). */
export interface Known {
  value: unknown;
  by: ClauseId;
}

export interface RecordState {
  /** The model's own number for the record (#3), stable before its key is known. */
  id: number;
  /** Its serviceKey; unknown for a Setting written over REST whose answer named no key (UNSPEC-8). */
  key?: string;
  user: number;
  end: End;
  label?: string;
  /** Undefined: the contract allows either (a REST write over a DELIVERED record); the next read decides. */
  status?: Status;
  /** The rule that decides the status a read must show (STATE-1, STATE-2, STATE-4, STATE-6). */
  statusBy: ClauseId;
  /** Field values the model knows; a field a REST write left out is unknown (merge or replace is not shown). */
  values: Map<string, Known | undefined>;
  held: boolean;
  /**
   * What wrote it, when (wall ms as the request left): a stray event naming it is judged by the write before it
   * (STATE-3 after a REST write).
   */
  writes: Write[];
  /** Delivery ids of the onComplete deliveries that named it (DELIV-13). */
  onCompleteIds: string[];
}

export interface Write {
  by: 'chat' | 'rest';
  atMs: number;
}

/** The write of a record that came last before a moment (wall ms). */
export function writeBefore(writes: readonly Write[], atMs: number): Write | undefined {
  return [...writes].reverse().find((w) => w.atMs <= atMs) ?? writes[0];
}

export interface GoneRecord {
  id: number;
  key?: string;
  user: number;
  end: End;
  label?: string;
  /** STATE-7: deleted through the chat; STATE-8: in a deleted scope. */
  by: 'STATE-7' | 'STATE-8';
  /** The deleting conversation. */
  conversationId: number;
  writes: Write[];
}

export interface ConversationState {
  id: number;
  user: number;
  end: End;
  open: boolean;
  /** Record ids saved in this conversation, in order of first touch. */
  touched: number[];
}

export class Model {
  readonly records: RecordState[] = [];
  readonly gone: GoneRecord[] = [];
  readonly conversations: ConversationState[] = [];
  private counter = 0;
  private nextId = 1;

  constructor(
    readonly users: readonly string[],
    private readonly tag: string,
  ) {}

  /** A value no earlier save used: every save changes what it names (changedFields is then exact). */
  fresh(field: string): unknown {
    this.counter += 1;
    return field === 'age' ? 1000 + this.counter : `${field}-${this.tag}-${this.counter}`;
  }

  freshLabel(): string {
    this.counter += 1;
    return `L${this.counter}-${this.tag}`;
  }

  add(
    r: Omit<RecordState, 'id' | 'onCompleteIds' | 'held' | 'values'> & { values?: Map<string, Known | undefined> },
  ): RecordState {
    const rec: RecordState = { id: this.nextId++, held: false, onCompleteIds: [], values: r.values ?? new Map(), ...r };
    this.records.push(rec);
    return rec;
  }

  remove(rec: RecordState, by: GoneRecord['by'], conversationId: number): GoneRecord {
    this.records.splice(this.records.indexOf(rec), 1);
    const g: GoneRecord = {
      id: rec.id,
      user: rec.user,
      end: rec.end,
      by,
      conversationId,
      writes: rec.writes,
      ...(rec.key !== undefined ? { key: rec.key } : {}),
      ...(rec.label !== undefined ? { label: rec.label } : {}),
    };
    this.gone.push(g);
    return g;
  }

  openConversation(user: number): ConversationState | undefined {
    return this.conversations.find((c) => c.user === user && c.open);
  }

  live(user: number, end?: End): RecordState[] {
    return this.records.filter((r) => r.user === user && (end === undefined || r.end === end));
  }

  /** Live records of a user the model can address by key, not held. */
  addressable(user: number, end?: End): RecordState[] {
    return this.live(user, end).filter((r) => r.key !== undefined && !r.held);
  }

  setting(user: number): RecordState | undefined {
    return this.live(user, SETTING)[0];
  }

  byId(id: number): RecordState | undefined {
    return this.records.find((r) => r.id === id);
  }

  byKey(key: string): RecordState | undefined {
    return this.records.find((r) => r.key === key);
  }

  goneByKey(key: string): GoneRecord | undefined {
    return this.gone.find((g) => g.key === key);
  }

  /** Labels of a user's live List records: a label among them is taken (DATA-12). */
  labelsInUse(user: number): Set<string> {
    return new Set(
      this.live(user, LIST)
        .map((r) => r.label)
        .filter((l): l is string => l !== undefined),
    );
  }

  /** Gone labelled List records of a user whose label no live record holds again. */
  freedLabels(user: number): GoneRecord[] {
    const used = this.labelsInUse(user);
    return this.gone.filter((g) => g.user === user && g.end === LIST && g.label !== undefined && !used.has(g.label));
  }

  /** The records a completion of this conversation finalizes: every live instance it touched (the driver's default). */
  completion(c: ConversationState): RecordState[] {
    return c.touched.map((id) => this.byId(id)).filter((r): r is RecordState => r !== undefined);
  }
}

/** The rule a read of the record's status checks, in words. */
export function statusRule(by: ClauseId): string {
  switch (by) {
    case 'STATE-1':
      return 'a record saved through the chat reads PENDING until a completion';
    case 'STATE-2':
      return 'a record written over REST reads PENDING';
    case 'STATE-4':
      return 'a completed record reads DELIVERED';
    case 'STATE-6':
      return 'a DELIVERED record edited through the chat still reads DELIVERED';
    default:
      return 'the record reads the callbackStatus its last transition gave it';
  }
}

/** Picks the n-th of a list, wrapping (commands carry indexes, resolved against the model when they run). */
export function pick<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}
