/**
 * What a sequence expects of one callback (ledger.ts matches arrivals to it, ledger-content.ts
 * judges their content): its own module, so both import it without importing each other.
 */
import type { JournalEntry } from '../../../mock-host/index.ts';
import type { ClauseId, ServiceCheckId } from '../../../spec/index.ts';
import type { Status } from './model.ts';
import type { DecidedBy } from './transitions.ts';

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
  /**
   * onComplete, config.bulk_deleted: who decided what it names. The service, when the trigger named no
   * keys (the driver's default: the model predicts the service's own choice); the harness, naming them.
   */
  by?: DecidedBy;
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
