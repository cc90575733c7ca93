/**
 * The standalone mock host's per-request lines: one when the body has been read (event, delivery
 * id, attempt, verdicts, failed checks, the answering step), one when the request ends. Written
 * off the request path: lines are gathered and written once per turn of the event loop, so a
 * terminal, file or pipe on the other end never holds up an answer.
 */
import type { Journal, JournalEntry } from './types.ts';

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
  const answer = e.response?.fault ? `${e.response.fault}${e.response.status !== undefined ? ` then ${e.response.status}` : ''}` : String(e.response?.status ?? '-');
  return `<- #${e.seq} ${answer} ${e.finished?.outcome ?? ''} ${ms} ms${e.response?.forwardedTo ? ` via ${e.response.forwardedTo}` : ''}${e.step ? ` (${e.step.explain})` : ''}`;
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
export function printRequestLines(journal: Journal, out: LineSink): () => void {
  let batch: string[] = [];
  let scheduled = false;
  let draining = false;
  let droppedSeen = journal.dropped;
  const flush = () => {
    scheduled = false;
    const dropped = journal.dropped;
    if (dropped > droppedSeen) {
      const n = dropped - droppedSeen;
      batch.push(`x- journal full: ${n} oldest entr${n === 1 ? 'y' : 'ies'} dropped (${dropped} so far, --max-entries)\n`);
    }
    droppedSeen = dropped; // also after a reset, which starts the count again
    if (draining || batch.length === 0) return;
    const text = batch.join('');
    batch = [];
    // a slow reader: keep gathering until it has taken what it was given
    if (!out.write(text)) {
      draining = true;
      out.once('drain', () => {
        draining = false;
        flush();
      });
    }
  };
  const off = journal.onEntry((e, phase) => {
    if (phase === 'body') batch.push(arrivalLine(e) + '\n');
    else if (phase === 'finished') batch.push(finishLine(e) + '\n');
    else return;
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
