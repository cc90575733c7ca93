/**
 * One journal entry. Written on arrival (PITFALLS: record on arrival, complete later) with what
 * the request line gives; the rest (headers as an object, body bytes as base64, digest, JSON,
 * addressing, schema and signature verdicts, header checks) is worked out from the raw request
 * when someone first reads the entry, or at once when someone is listening or a script, the
 * enforcement of signatures or a forward needs it (settle.ts). A reader never sees the
 * difference: every journal read settles the entries it hands out.
 *
 * Every field is declared here, in the order the journal has always written them, so an entry
 * serializes to the same bytes whichever order its parts were worked out in (an undefined field
 * is left out by JSON.stringify).
 */
import { releaseBody, type KeptBody } from './body-store.ts';
import { monoNow, monoText, wallMsOf, wallNow } from './clock.ts';
import type { EntryCheck, EntryKind, FinishOutcome, JournalEntry, SignatureRecord } from './types.ts';

/** What an entry keeps of its request until it is settled (then released). */
export interface Pending extends KeptBody {
  /** settles entries of this host, in the order their bodies were read (attempt counting) */
  readonly settler: Settler;
  /** arrival on the monotonic clock: whole seconds and nanoseconds past them (clock.ts) */
  readonly monoS: number;
  readonly monoSubNs: number;
  /** arrival on the wall clock, in ms since clock.ts loaded */
  readonly wallOffMs: number;
  readonly rawHeaders: string[];
  /** head fields (headers, query, arrival ...) written */
  head: boolean;
  /** the body was read and its analysis waits for a reader */
  read: boolean;
  /** the body part is done (analysed, or it could not be read): nothing more will come */
  analysed: boolean;
  /** sha256 of the body, hex (taken when the attempts are counted, attempts.ts) */
  sha: string;
  /** this delivery's count of (delivery id, body digest) so far, in the order bodies were read */
  attemptsSeen: number;
  /** the body read after this one, while both wait to be counted (attempts.ts) */
  nextRead: Pending | undefined;
  /** the route as it was on arrival, then when the body had been read (routes may change afterwards) */
  route: unknown;
  /** the signature verdict when it was needed on the request path (enforce, JWKS) */
  signature: SignatureRecord | undefined;
  /**
   * The verdicts a request line needed before the entry was settled (schema, checks; the
   * signature goes to `signature`): settling reuses them, so they are worked out once.
   */
  facts: { schema: JournalEntry['schema']; checks: EntryCheck[] } | undefined;
  /** the end, as the arrival is kept (valid once outcome is set) */
  finishedMonoS: number;
  finishedMonoSubNs: number;
  finishedWallOffMs: number;
  outcome: FinishOutcome | undefined;
}

export interface Settler {
  /** Writes the head fields of an entry from its pending request. */
  head(e: Entry, p: Pending): void;
  /** Writes what the body gives: bytes, JSON, addressing, schema, signature, checks. */
  body(e: Entry, p: Pending): void;
  /** The body's verdicts for a request line, kept for settling (settle.ts); undefined: settle instead. */
  facts(e: Entry, p: Pending): JournalEntry | undefined;
  /** The id and addressing of a read body for a summary, without settling: a scratch record. */
  addressing(e: Entry, p: Pending): JournalEntry | undefined;
  /** The id the entry of this seq gets. */
  id(seq: number): string;
}

export class Entry implements JournalEntry {
  seq: number;
  id!: string;
  arrival!: { monoNs: string; wallMs: number; iso: string };
  method: string;
  url: string;
  path: string;
  query!: Record<string, string | string[]>;
  headers!: Record<string, string | string[]>;
  rawHeaders!: string[];
  bodyBase64 = '';
  bodySize = 0;
  bodySha256 = '';
  transfer?: 'content-length' | 'chunked' | 'none';
  kind: EntryKind;
  signature!: SignatureRecord;
  checks!: EntryCheck[];
  json?: unknown;
  parseError?: string;
  event?: string;
  deliveryId?: string;
  endUserHandle?: string;
  workspaceKey?: string;
  attempt?: number;
  schema?: { name: string; valid: boolean; errors: string[] };
  step?: { script: string; index: number; explain: string };
  unmatched?: string;
  response?: JournalEntry['response'];
  finished?: { monoNs: string; wallMs: number; outcome: FinishOutcome };
  #pending: Pending | undefined;
  /** handed to a reader: from now on it is kept settled as the request goes on */
  #seen = false;

  constructor(seq: number, method: string, url: string, path: string, kind: EntryKind, pending: Pending) {
    this.seq = seq;
    this.method = method;
    this.url = url;
    this.path = path;
    this.kind = kind;
    this.#pending = pending;
  }

  /** The pending request of an entry not yet settled. */
  static pendingOf(e: Entry): Pending | undefined {
    return e.#pending;
  }

  static isSeen(e: Entry): boolean {
    return e.#seen;
  }

  /** Works out everything the request gives so far; marks the entry as held by a reader. */
  static settle(e: Entry): Entry {
    e.#seen = true;
    const p = e.#pending;
    if (p === undefined) return e;
    if (!p.head) p.settler.head(e, p);
    if (p.read) {
      p.read = false;
      p.analysed = true;
      p.settler.body(e, p);
      releaseBody(p);
    }
    if (p.outcome !== undefined && e.finished === undefined) Entry.writeFinished(e, p);
    // done once both ends are recorded; a body still on its way (a JWKS fetch, say) keeps what
    // it needs until it is analysed
    if (e.finished !== undefined && p.analysed) e.#pending = undefined;
    return e;
  }

  /** Records the end of the request: written at once for a held entry, else kept as numbers. */
  static finish(e: Entry, outcome: FinishOutcome): boolean {
    if (e.finished !== undefined) return false;
    const p = e.#pending;
    if (p === undefined || e.#seen) {
      e.finished = { monoNs: process.hrtime.bigint().toString(), wallMs: Date.now(), outcome };
      if (p !== undefined && p.analysed) e.#pending = undefined;
      return true;
    }
    if (p.outcome !== undefined) return false;
    const [s, ns] = monoNow();
    p.finishedMonoS = s;
    p.finishedMonoSubNs = ns;
    p.finishedWallOffMs = wallNow();
    p.outcome = outcome;
    return true;
  }

  static isFinished(e: Entry): boolean {
    return e.finished !== undefined || e.#pending?.outcome !== undefined;
  }

  private static writeFinished(e: Entry, p: Pending): void {
    e.finished = {
      monoNs: monoText(p.finishedMonoS, p.finishedMonoSubNs),
      wallMs: wallMsOf(p.finishedWallOffMs),
      outcome: p.outcome!,
    };
  }
}

/** Settles any journal entry handed to a reader (a plain entry is already complete). */
export function settled<T extends JournalEntry>(e: T): T {
  if (e instanceof Entry) Entry.settle(e);
  return e;
}
