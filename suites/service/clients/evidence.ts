/**
 * Evidence of a conformance test: what decided it, attached as 'ccs-evidence' at test end
 * (the one Evidence type of spec/evidence.ts; secrets redacted by spec/redact.ts).
 */
import type { JournalEntry } from '../../../mock-host/index.ts';
import {
  redactText,
  type Evidence,
  type EvidenceItem,
  type RequestEvidence,
  type TimelineSpec,
} from '../../../spec/index.ts';

/** A journal entry as evidence shows it (Evidence.entries). */
export interface EntrySummary {
  seq: number;
  method: string;
  path: string;
  event?: string;
  deliveryId?: string;
  attempt?: number;
  arrival: string;
  arrivalMs: number;
  durationMs?: number;
  signature: string;
  status?: number;
  outcome?: string;
  schemaValid?: boolean;
}
export type { TimelineSpec };
export interface EvidenceLike {
  status: number;
  curl: string;
  method?: string;
  url?: string;
  operationId?: string;
  specCheck?: { valid: boolean };
}

export interface EvidenceLog {
  add(e: {
    sentence: string;
    seqs?: number[];
    entries?: JournalEntry[];
    requests?: EvidenceLike[];
    timeline?: TimelineSpec;
  }): void;
}

function monoMs(ns: string): number {
  return Number(BigInt(ns) / 1000n) / 1000;
}

export function summarizeEntry(e: JournalEntry): EntrySummary {
  const s: EntrySummary = {
    seq: e.seq,
    method: e.method,
    path: e.path,
    arrival: e.arrival.iso,
    arrivalMs: monoMs(e.arrival.monoNs),
    signature: e.signature?.verdict ?? 'absent',
  };
  if (e.finished) s.durationMs = monoMs(e.finished.monoNs) - s.arrivalMs;
  if (e.event !== undefined) s.event = e.event;
  if (e.deliveryId !== undefined) s.deliveryId = e.deliveryId;
  if (e.attempt !== undefined) s.attempt = e.attempt;
  if (e.response?.status !== undefined) s.status = e.response.status;
  if (e.finished?.outcome !== undefined) s.outcome = e.finished.outcome;
  if (e.schema) s.schemaValid = e.schema.valid;
  return s;
}

function summarizeRequest(r: EvidenceLike): RequestEvidence {
  const out: RequestEvidence = {
    method: r.method ?? '',
    url: redactText(r.url ?? ''),
    status: r.status,
    curl: redactText(r.curl),
  };
  if (r.operationId) out.operationId = r.operationId;
  if (r.specCheck) out.specValid = r.specCheck.valid;
  return out;
}

/** Collects evidence items plus every request the service client made during the test. */
export class EvidenceCollector implements EvidenceLog {
  readonly items: EvidenceItem[] = [];
  readonly requests: RequestEvidence[] = [];

  add(e: {
    sentence: string;
    seqs?: number[];
    entries?: JournalEntry[];
    requests?: EvidenceLike[];
    timeline?: TimelineSpec;
  }): void {
    const item: EvidenceItem = { sentence: redactText(e.sentence) };
    if (e.timeline) item.timeline = e.timeline;
    const seqs = e.seqs ?? e.entries?.map((x) => x.seq);
    if (seqs) item.seqs = seqs;
    if (e.entries) item.entries = e.entries.map(summarizeEntry);
    if (e.requests) item.requests = e.requests.map(summarizeRequest);
    this.items.push(item);
  }

  /** Called by the service client for every request: the full list goes into the attachment. */
  recordRequest(r: EvidenceLike): void {
    if (this.requests.length < 200) this.requests.push(summarizeRequest(r));
  }

  toJSON(
    fallbackSentence: string,
  ): Evidence & { entries: unknown[]; requests: RequestEvidence[]; items: EvidenceItem[] } {
    const sentence = this.items.length ? this.items.map((i) => i.sentence).join(' ') : fallbackSentence;
    const entries = this.items.flatMap((i) => i.entries ?? []);
    const requests = [...this.items.flatMap((i) => i.requests ?? []), ...this.requests];
    return { sentence, entries, requests, items: this.items };
  }
}
