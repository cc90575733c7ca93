/**
 * The journal `observe` saves beside its reports and reads back with --from: the mock host's
 * /__admin/journal.jsonl lines (one entry a line), then one line saying when the observation ended on
 * the same monotonic clock, so a saved journal decides the quiet windows as the live run did. A
 * journal exported from a mock host (no end line) ends at its last entry. /__admin/journal's JSON
 * ({ entries: [...] }) is read too.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { JournalEntry } from '../../mock-host/index.ts';
import { ccsError } from '../../spec/index.ts';

export const JOURNAL_FILE = 'journal.jsonl';

function endRecord(endNs: bigint): string {
  return JSON.stringify({ observeEnd: { monoNs: endNs.toString() } });
}

function isEntry(v: unknown): v is JournalEntry {
  const e = v as JournalEntry;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.seq === 'number' &&
    typeof e.arrival?.monoNs === 'string' &&
    typeof e.kind === 'string' &&
    typeof e.signature === 'object' &&
    Array.isArray(e.checks)
  );
}

/**
 * The bytes written at a time: the journal of 100,000 callbacks is never one string of hundreds of MB.
 * Each line is encoded straight into one reused buffer (a string of n characters takes at most 3n bytes).
 */
const CHUNK_BYTES = 1 << 21;

/** Saves entries, one a line, then the end line. */
export function writeJournal(file: string, entries: JournalEntry[], endNs: bigint): void {
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
    for (const e of entries) line(JSON.stringify(e));
    line(endRecord(endNs));
    writeSync(fd, chunk, 0, used);
  } finally {
    closeSync(fd);
  }
}

/** text: the file's content when the caller has read it already. */
export function readJournalFile(file: string, text?: string): { entries: JournalEntry[]; endNs?: bigint } {
  if (text === undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw ccsError('CLI_FILE_UNREADABLE', {
        flag: 'from',
        file,
        errno: (error as NodeJS.ErrnoException).code ?? 'error',
      });
    }
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
    const doc = JSON.parse(trimmed) as { entries?: unknown[] };
    if (Array.isArray(doc.entries)) return { entries: checked(doc.entries, file) };
  }
  const entries: unknown[] = [];
  let endNs: bigint | undefined;
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (error) {
      throw ccsError('CLI_FROM_FILE_INVALID', {
        file,
        problem: `line ${i + 1} is not JSON (${(error as Error).message})`,
      });
    }
    const end = (v as { observeEnd?: { monoNs?: unknown } }).observeEnd;
    if (end && typeof end.monoNs === 'string' && /^[0-9]+$/.test(end.monoNs)) endNs = BigInt(end.monoNs);
    else entries.push(v);
  });
  return { entries: checked(entries, file), ...(endNs !== undefined ? { endNs } : {}) };
}

function checked(list: unknown[], file: string): JournalEntry[] {
  const bad = list.findIndex((e) => !isEntry(e));
  if (bad >= 0) {
    const problem = `entry ${bad + 1} is not a mock host journal entry (journal.jsonl)`;
    throw ccsError('CLI_FROM_FILE_INVALID', { file, problem });
  }
  return list as JournalEntry[];
}
