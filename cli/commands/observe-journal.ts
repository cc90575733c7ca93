/**
 * The journal `observe` saves beside its reports (judge/service/journal-file.ts writes it) and reads back
 * with --from: the mock host's /__admin/journal.jsonl lines (one entry a line), then one line saying when
 * the observation ended on the same monotonic clock, so a saved journal decides the quiet windows as the
 * live run did. A driven run's journal starts with a line of what its judge was told (RunJournalMeta). A
 * journal exported from a mock host (no end line) ends at its last entry. /__admin/journal's JSON
 * ({ entries: [...] }) is read too.
 */
import { readFileSync } from 'node:fs';
import type { JournalEntry } from '../../mock-host/index.ts';
import { runJournalMetaOf, type RunJournalMeta } from '../../judge/service/index.ts';
import { ccsError } from '../../spec/index.ts';
import type { JwksDocumentSeen } from '../../protocol/index.ts';

export { writeJournal } from '../../judge/service/index.ts';

export const JOURNAL_FILE = 'journal.jsonl';

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

/** text: the file's content when the caller has read it already. */
export function readJournalFile(
  file: string,
  text?: string,
): { entries: JournalEntry[]; endNs?: bigint; meta?: RunJournalMeta; jwksDocuments?: JwksDocumentSeen[] } {
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
  let meta: RunJournalMeta | undefined;
  let jwksDocuments: JwksDocumentSeen[] | undefined;
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
    const end = (v as { observeEnd?: { monoNs?: unknown; jwksDocuments?: unknown } }).observeEnd;
    const runMeta = i === 0 ? runJournalMetaOf(v) : undefined;
    if (end && typeof end.monoNs === 'string' && /^[0-9]+$/.test(end.monoNs)) {
      endNs = BigInt(end.monoNs);
      if (Array.isArray(end.jwksDocuments)) jwksDocuments = end.jwksDocuments as JwksDocumentSeen[];
    } else if (runMeta) meta = runMeta;
    else entries.push(v);
  });
  return {
    entries: checked(entries, file),
    ...(endNs !== undefined ? { endNs } : {}),
    ...(meta !== undefined ? { meta } : {}),
    ...(jwksDocuments !== undefined ? { jwksDocuments } : {}),
  };
}

function checked(list: unknown[], file: string): JournalEntry[] {
  const bad = list.findIndex((e) => !isEntry(e));
  if (bad >= 0) {
    const problem = `entry ${bad + 1} is not a mock host journal entry (journal.jsonl)`;
    throw ccsError('CLI_FROM_FILE_INVALID', { file, problem });
  }
  return list as JournalEntry[];
}
