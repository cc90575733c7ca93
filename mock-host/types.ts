/**
 * The mock host's public data shapes. Everything here is JSON-serializable data (the admin API
 * serves journal entries as they are), so suites, the CLI and remote tools read the same thing.
 */
import type { SignatureVerdict, SignatureVerdictKind } from '../protocol/index.ts';
import type { ResponseScript } from './scripts/definitions.ts';

import type { RouteKind } from './route-kind.ts';
export type { RouteKind };
export type EntryKind = RouteKind | 'unrouted' | 'admin';

/** The verdict kinds, defined once in protocol/ (the one verifier). */
export type SignatureVerdictName = SignatureVerdictKind;

export type SigningConfig =
  | { mode: 'none' }
  | { mode: 'hmac'; secrets: string[] }
  | { mode: 'jwks'; jwksUrl?: string; jwks?: { keys: object[] } };

export interface RouteConfig {
  kind: RouteKind;
  path: string;
  signing?: SigningConfig;
  /** Answer 401 when verification fails (HOST-3); overrides the host-wide option. */
  enforce?: boolean;
  /** JSON Schema of the FACTS class, used to build answers that do not fit (FACTS-8). */
  factsSchema?: object;
  defaultFacts?: object;
}

export interface MockHostOptions {
  port?: number;
  host?: string;
  routes?: RouteConfig[];
  enforce?: boolean;
  bodyLimit?: number;
  maxEntries?: number;
  scripts?: ResponseScript[];
  forwardTo?: string;
  /** The time scale of the service under test, if known: the inspector scales the contract's windows by it. */
  timeScale?: number;
  maxHeaderSize?: number;
  /** Host-wide signing used by routes that do not set their own. */
  signing?: SigningConfig;
}

export interface EntryFilter {
  path?: string;
  kind?: EntryKind;
  method?: string;
  event?: string;
  deliveryId?: string;
  endUserHandle?: string;
  workspaceKey?: string;
  completed?: boolean;
  predicate?: (e: JournalEntry) => boolean;
}

/** A signature verdict as the journal records it: protocol/'s verdict, unchanged. */
export type SignatureRecord = SignatureVerdict;

export interface EntryCheck {
  name: string;
  clause: string;
  ok: boolean;
  detail: string;
}

export type FaultName = 'reset' | 'close' | 'never' | 'hold' | 'refuse';
export type FinishOutcome = 'answered' | 'reset' | 'closed' | 'aborted-by-client' | 'client-closed';

export interface JournalEntry {
  seq: number;
  id: string;
  arrival: { monoNs: string; wallMs: number; iso: string };
  method: string;
  url: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[]>;
  rawHeaders: string[];
  bodyBase64: string;
  bodySize: number;
  bodySha256: string;
  /** How the body came: declared length, chunked, or no body. */
  transfer?: 'content-length' | 'chunked' | 'none';
  json?: unknown;
  parseError?: string;
  kind: EntryKind;
  event?: string;
  deliveryId?: string;
  attempt?: number;
  endUserHandle?: string;
  workspaceKey?: string;
  schema?: { name: string; valid: boolean; errors: string[] };
  signature: SignatureRecord;
  checks: EntryCheck[];
  step?: { script: string; index: number; explain: string };
  unmatched?: string;
  response?: {
    status?: number;
    delayMs?: number;
    fault?: FaultName;
    bodyBase64?: string;
    forwardedTo?: string;
  };
  finished?: { monoNs: string; wallMs: number; outcome: FinishOutcome };
}

export type EntryPhase = 'arrival' | 'body' | 'finished';

/** A change of the journal: an entry arrived, was completed, or was dropped past maxEntries. */
export interface JournalChange {
  kind: 'arrived' | 'completed' | 'dropped';
  entry: JournalEntry;
}

export interface Journal {
  entries(filter?: EntryFilter): JournalEntry[];
  waitFor(filter: EntryFilter, o: { count?: number; timeoutMs: number }): Promise<JournalEntry[]>;
  deliveries(filter?: EntryFilter): Map<string, JournalEntry[]>;
  since(seq: number): JournalEntry[];
  readonly dropped: number;
  /** Fires on arrival, when the body has been read, and on completion (phase says which). */
  onEntry(listener: (e: JournalEntry, phase: EntryPhase) => void): () => void;
  /** Fires on arrival and completion of an entry, and when one is dropped; returns the unsubscribe. */
  subscribe(listener: (change: JournalChange) => void): () => void;
}

export interface Verdict {
  ok: boolean;
  sentence: string;
  evidence: { seqs: number[]; times?: Record<string, number>; details?: unknown };
}
