/**
 * The system under test as one sequence sees it: a fresh workspace of its own, the data API
 * client and the driver (both writing every request into the sequence's script), the ledger of
 * its hook, and the timing of the target.
 */
import type { JournalEntry } from '../../../mock-host/index.ts';
import type { ServiceClient } from '../clients/service-client.ts';
import type { TestWorkspace, Timing } from '../fixtures.ts';
import { payload } from '../../../judge/service/journal.ts';
import { eventOf } from '../areas/scenario.ts';
import type { Coverage } from './coverage.ts';
import type { Ledger, StrayJudge } from './ledger.ts';
import { writeBefore, type Model } from './model.ts';
import type { RecordingDriver, StepLog } from './script.ts';
import type { Judge } from './violation.ts';

export interface Real extends Judge {
  ws: TestWorkspace;
  svc: ServiceClient;
  driver: RecordingDriver;
  timing: Timing;
  ledger: Ledger;
  log: StepLog;
  /** Steps run, by command (the run's statistics). */
  counts: Map<string, number>;
  /** Host REST writes (and seeds) of this sequence: its quiet window then also decides STATE-3. */
  hostWrites: number;
  /** The rows of section 3 and the event sequences of section 6 the run exercised (coverage.ts). */
  coverage: Coverage;
  /** This sequence's tag: its conversations' event trails stay apart from other lanes'. */
  sequenceTag: string;
  /** Wall ms when the current step began: nothing that arrived before it answers its expectations. */
  stepStartedMs: number;
}

/**
 * The rule a callback nobody expected breaks, judged from what the model knows of what it names:
 * an event about a record last written over REST breaks STATE-3; otherwise the rule of "when the
 * event fires" (EVT-16..23), and an extra page the paging rule (PAGE-2).
 */
export function strayJudge(m: Model): StrayJudge {
  return (e: JournalEntry) => {
    const p = payload(e);
    // What wrote the record last before the callback arrived (the step that may have caused it).
    const lastWrite = (key: unknown) => {
      const writes = typeof key === 'string' ? (m.byKey(key) ?? m.goneByKey(key))?.writes : undefined;
      return writes ? writeBefore(writes, e.arrival.wallMs)?.by : undefined;
    };
    const restAfterChat = (key: unknown) => {
      const writes = typeof key === 'string' ? (m.byKey(key) ?? m.goneByKey(key))?.writes : undefined;
      const before = (writes ?? []).filter((w) => w.atMs <= e.arrival.wallMs);
      const firstChat = before.findIndex((w) => w.by === 'chat');
      return firstChat >= 0 && before.slice(firstChat + 1).some((w) => w.by === 'rest');
    };
    switch (eventOf(e)) {
      case 'onStart':
        return { clause: 'EVT-16', rule: 'onStart fires once, when a conversation opens' };
      case 'config.saved':
        // A REST write to a record a chat turn touched also explains a surplus config.saved that arrives after a
        // later chat write: the two callbacks name the same conversation and key, so either may be the stray.
        if (lastWrite(p.serviceKey) === 'rest' || restAfterChat(p.serviceKey))
          return {
            clause: 'STATE-3',
            rule: 'a host REST write fires no event (neither onComplete nor config.saved)',
            id: 'model.rest-no-event',
          };
        return {
          clause: 'EVT-17',
          rule: 'config.saved fires once per touched instance per turn, for chat saves only',
          id: 'model.saved-once-per-instance',
        };
      case 'onComplete': {
        const keys = Array.isArray(p.serviceKeys) ? p.serviceKeys : [];
        if (keys.length > 0 && keys.every((k) => lastWrite(k) === 'rest'))
          return {
            clause: 'STATE-3',
            rule: 'a host REST write fires no event (neither onComplete nor config.saved)',
            id: 'model.rest-no-event',
          };
        return { clause: 'EVT-19', rule: 'onComplete fires only when the user says done' };
      }
      case 'config.deleted': {
        const g = typeof p.serviceKey === 'string' ? m.goneByKey(p.serviceKey) : undefined;
        if (g?.by === 'STATE-8')
          return {
            clause: 'EVT-23',
            rule: 'a per-key config.deleted of a scope delete names a key of the scope, once, as an event of the deleting conversation',
          };
        return {
          clause: 'EVT-22',
          rule: 'config.deleted fires once, as an event of the conversation that deleted the instance',
          id: 'model.deleted-fires',
        };
      }
      case 'config.bulk_deleted': {
        const ours = m.gone.some((g) => g.by === 'STATE-8' && String(g.conversationId) === String(p.conversationId));
        return ours
          ? { clause: 'PAGE-2', rule: 'a scope delete sends totalPages pages, no more' }
          : {
              clause: 'EVT-23',
              rule: 'config.bulk_deleted fires when the user deletes a whole scope, as an event of that conversation',
            };
      }
      case 'onSessionInterrupted':
        return {
          clause: 'EVT-20',
          rule: 'onSessionInterrupted fires once, when a conversation closes without completing',
        };
      case 'onSessionTimeout':
        return { clause: 'EVT-21', rule: 'onSessionTimeout fires once, when a conversation is swept' };
      default:
        return {
          clause: 'EVT-15',
          rule: 'a lifecycle callback is one of the events of section 6',
          id: 'model.unknown-event',
        };
    }
  };
}
