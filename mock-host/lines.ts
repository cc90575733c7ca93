/**
 * The standalone mock host's per-request lines: one when the body has been read (event, delivery
 * id, attempt, verdicts, failed checks, the answering step), one when the request ends. Written
 * off the request path: the listener only notes the entry; once per turn of the event loop the
 * lines are worked out and written together, so neither their analysis nor a terminal, file or
 * pipe on the other end holds up an answer. A line needs only the body's verdicts, not a settled
 * entry: those are worked out alone and kept for when the entry is read (settle.ts).
 */
import { monoMsBetween } from './clock.ts';
import { Entry, settled } from './entry.ts';
import type { JournalStore } from './journal.ts';
import type { EntryPhase, JournalEntry } from './types.ts';

export function arrivalLine(e: JournalEntry): string {
  const bits = [`-> #${e.seq} ${e.method} ${e.url}`];
  if (e.event) bits.push(`event=${e.event}`);
  if (e.deliveryId) bits.push(`id=${e.deliveryId}`);
  if (e.attempt !== undefined) bits.push(`attempt=${e.attempt}`);
  bits.push(`sig=${e.signature.verdict}`);
  if (e.schema) bits.push(`schema=${e.schema.valid ? 'valid' : 'invalid'}`);
  const failed = e.checks.filter((c) => !c.ok);
  bits.push(failed.length ? `checks=FAIL(${failed.map((c) => c.clause).join(',')})` : 'checks=ok');
  if (e.parseError) bits.push(`body: ${e.parseError}`);
  if (e.step) bits.push(`step=${e.step.script}#${e.step.index + 1}`);
  return bits.join(' ');
}

export function finishLine(e: JournalEntry): string {
  const ms = e.finished ? Number((BigInt(e.finished.monoNs) - BigInt(e.arrival.monoNs)) / 1_000_000n) : 0;
  return endLine(e, e.finished?.outcome ?? '', ms);
}

function endLine(e: JournalEntry, outcome: string, ms: number): string {
  const answer = e.response?.fault
    ? `${e.response.fault}${e.response.status !== undefined ? ` then ${e.response.status}` : ''}`
    : String(e.response?.status ?? '-');
  return `<- #${e.seq} ${answer} ${outcome} ${ms} ms${e.response?.forwardedTo ? ` via ${e.response.forwardedTo}` : ''}${e.step ? ` (${e.step.explain})` : ''}`;
}

/** The arrival line of an entry as it stands: from the body's verdicts alone when not yet settled. */
function arrivalOf(e: JournalEntry): string {
  if (e instanceof Entry && !Entry.isSeen(e)) {
    const p = Entry.pendingOf(e);
    const t = p !== undefined && p.read ? p.settler.facts(e, p) : undefined;
    if (t !== undefined) return arrivalLine(t);
  }
  return arrivalLine(settled(e));
}

/** The end line of an entry as it stands: its end kept as numbers when not yet settled. */
function finishOf(e: JournalEntry): string {
  if (e instanceof Entry && !Entry.isSeen(e)) {
    const p = Entry.pendingOf(e);
    if (p !== undefined && p.outcome !== undefined)
      return endLine(e, p.outcome, monoMsBetween(p.monoS, p.monoSubNs, p.finishedMonoS, p.finishedMonoSubNs));
  }
  return finishLine(settled(e));
}

interface LineSink {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Prints both lines of every request to out, batched per turn of the event loop, and a line
 * whenever a bounded journal has dropped entries since the last batch (never silently); returns
 * the stop.
 */
export function printRequestLines(journal: JournalStore, out: LineSink): () => void {
  // entries and phases in turn, worked out into lines when written
  let batch: Array<JournalEntry | EntryPhase> = [];
  let scheduled = false;
  let draining = false;
  let droppedSeen = journal.dropped;
  const flush = () => {
    scheduled = false;
    if (draining) return;
    let text = '';
    for (let i = 0; i < batch.length; i += 2) {
      const e = batch[i] as JournalEntry;
      text += (batch[i + 1] === 'body' ? arrivalOf(e) : finishOf(e)) + '\n';
    }
    batch = [];
    const dropped = journal.dropped;
    if (dropped > droppedSeen) {
      const n = dropped - droppedSeen;
      text += `x- journal full: ${n} oldest entr${n === 1 ? 'y' : 'ies'} dropped (${dropped} so far, --max-entries)\n`;
    }
    droppedSeen = dropped; // also after a reset, which starts the count again
    if (text === '') return;
    // a slow reader: keep gathering until it has taken what it was given
    if (!out.write(text)) {
      draining = true;
      out.once('drain', () => {
        draining = false;
        flush();
      });
    }
  };
  const off = journal.onEntryLazy((e, phase) => {
    if (phase !== 'body' && phase !== 'finished') return;
    batch.push(e, phase);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  return () => {
    off();
    flush();
  };
}
