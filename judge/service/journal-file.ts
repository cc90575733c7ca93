/**
 * A saved journal: the mock host's /__admin/journal.jsonl lines (one entry a line), then one line saying
 * when the observation ended on the same monotonic clock, so a saved journal decides the quiet windows as
 * the live run did. A driven run's journal starts with a line of what its judge was told (run-journal.ts).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { JournalEntry } from '../../mock-host/index.ts';
import type { JwksDocumentSeen } from '../../protocol/index.ts';
import type { Tolerances } from '../../target/service/timing.ts';

/** The first line's key of a run's journal (entries follow, then the end line). */
export const RUN_JOURNAL_META = 'ccsRunJournal';

/** What the judge of a run's journal is told: the rest it reads from the entries (each route's signing mode). */
export interface RunJournalMeta {
  /** The Playwright project and worker whose mock host received the traffic. */
  project: string;
  worker: number;
  /** The service's time scale: every contract duration the judge holds the traffic to is multiplied by it. */
  timeScale: number;
  tolerances: Tolerances;
  /** Every hook path the run's workspaces had (a callback elsewhere is HOOK-1's). */
  hookPaths: string[];
  /** The windows in which the mock host refused connections, on its monotonic clock (decimal ns). */
  refusals: Array<{ startMonoNs: string; endMonoNs?: string }>;
  /** Entries the mock host's journal dropped past its bound: no series is complete then. */
  dropped: number;
  /** The JWKS documents the mock host fetched to verify with (SIGN-9); absent in journals of earlier versions. */
  jwksDocuments?: JwksDocumentSeen[];
}

/** The meta line's value in a parsed line, if it is one. */
export function runJournalMetaOf(line: unknown): RunJournalMeta | undefined {
  const m = (line as Record<string, unknown> | null)?.[RUN_JOURNAL_META] as RunJournalMeta | undefined;
  if (!m || typeof m !== 'object') return undefined;
  const ok =
    typeof m.project === 'string' &&
    typeof m.timeScale === 'number' &&
    Array.isArray(m.hookPaths) &&
    typeof m.tolerances?.minMs === 'number' &&
    typeof m.tolerances?.relative === 'number';
  return ok ? m : undefined;
}

/** The last line: the end of observing, and the JWKS documents the mock host fetched to verify with (SIGN-9). */
export function endRecord(endNs: bigint, jwksDocuments?: readonly JwksDocumentSeen[]): string {
  const documents = jwksDocuments !== undefined && jwksDocuments.length > 0 ? { jwksDocuments } : {};
  return JSON.stringify({ observeEnd: { monoNs: endNs.toString(), ...documents } });
}

/**
 * The bytes written at a time: the journal of 100,000 callbacks is never one string of hundreds of MB.
 * Each line is encoded straight into one reused buffer (a string of n characters takes at most 3n bytes).
 */
const CHUNK_BYTES = 1 << 21;

/** Saves entries, one a line, then the end line; a driven run's meta line first (it holds the documents then). */
export function writeJournal(
  file: string,
  entries: JournalEntry[],
  endNs: bigint,
  meta?: RunJournalMeta,
  jwksDocuments?: readonly JwksDocumentSeen[],
): void {
  const fd = openSync(file, 'w');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    const line = (text: string) => {
      if (used + 3 * text.length + 1 > CHUNK_BYTES) {
        writeSync(fd, chunk, 0, used);
        used = 0;
      }
      // a line longer than the buffer (a callback of megabytes) is written by itself
      if (3 * text.length + 1 > CHUNK_BYTES) writeSync(fd, text + '\n');
      else {
        used += chunk.write(text, used);
        chunk[used++] = 0x0a;
      }
    };
    if (meta) line(JSON.stringify({ [RUN_JOURNAL_META]: meta }));
    for (const e of entries) line(JSON.stringify(e));
    line(endRecord(endNs, jwksDocuments));
    writeSync(fd, chunk, 0, used);
  } finally {
    closeSync(fd);
  }
}
