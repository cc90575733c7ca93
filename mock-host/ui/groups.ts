/**
 * The inspector's rows: one per delivery id (every attempt of one delivery shares it, DELIV-11),
 * or one per request without one; what a row says of each attempt; the filters.
 */
import type { JournalEntry, SignatureVerdictName } from '../types.ts';

/** What a row needs of one attempt; the full entry is fetched by id when it is opened. */
export interface AttemptSummary {
  id: string;
  seq: number;
  method: string;
  path: string;
  kind: string;
  event?: string;
  attempt?: number;
  iso: string;
  /** Monotonic milliseconds: arrival and end of the host's side of the attempt (DELIV-8 reading). */
  arrivalMs: number;
  endMs?: number;
  signature: SignatureVerdictName;
  schemaValid?: boolean;
  checksFailed: number;
  status?: number;
  fault?: string;
  outcome?: string;
  step?: string;
}

export interface Group {
  key: string;
  deliveryId?: string;
  event?: string;
  endUserHandle?: string;
  /** Attempts shown in the row (the first ones, at most MAX_ATTEMPTS) and how many there are. */
  attempts: AttemptSummary[];
  count: number;
  lastSeq: number;
}

export interface GroupQuery {
  event?: string;
  deliveryId?: string;
  endUserHandle?: string;
  verdict?: string;
  offset: number;
  limit: number;
}

const MAX_ATTEMPTS = 20;
export const MAX_PAGE = 500;

function nsToMs(ns: string): number {
  return Number(BigInt(ns) / 1000n) / 1000;
}

export function summarizeAttempt(e: JournalEntry): AttemptSummary {
  const s: AttemptSummary = {
    id: e.id,
    seq: e.seq,
    method: e.method,
    path: e.path,
    kind: e.kind,
    iso: e.arrival.iso,
    arrivalMs: nsToMs(e.arrival.monoNs),
    signature: e.signature.verdict,
    checksFailed: e.checks.filter((c) => !c.ok).length,
  };
  if (e.event !== undefined) s.event = e.event;
  if (e.attempt !== undefined) s.attempt = e.attempt;
  if (e.finished) {
    s.endMs = nsToMs(e.finished.monoNs);
    s.outcome = e.finished.outcome;
  }
  if (e.schema) s.schemaValid = e.schema.valid;
  if (e.response?.status !== undefined) s.status = e.response.status;
  if (e.response?.fault !== undefined) s.fault = e.response.fault;
  if (e.step) s.step = `${e.step.script}#${e.step.index + 1}`;
  return s;
}

/** True when anything the host judged about the request failed. */
export function hasProblem(e: JournalEntry): boolean {
  const sigBad = e.signature.verdict !== 'valid' && !(e.signature.verdict === 'absent' && e.signature.mode === 'none');
  return sigBad || e.schema?.valid === false || e.checks.some((c) => !c.ok) || e.parseError !== undefined;
}

/**
 * verdict filter values: `problem`, `clean`, `sig:<verdict>` (valid, invalid, stale, future,
 * unknown-kid, malformed, absent), `schema:invalid`, `checks:failed`.
 */
export function matchesVerdict(e: JournalEntry, verdict: string): boolean {
  if (verdict === 'problem') return hasProblem(e);
  if (verdict === 'clean') return !hasProblem(e);
  if (verdict.startsWith('sig:')) return e.signature.verdict === verdict.slice(4);
  if (verdict === 'schema:invalid') return e.schema?.valid === false;
  if (verdict === 'checks:failed') return e.checks.some((c) => !c.ok);
  return true;
}

function includes(value: string | undefined, needle: string | undefined): boolean {
  return needle === undefined || (value !== undefined && value.includes(needle));
}

export function entryMatches(e: JournalEntry, q: GroupQuery): boolean {
  if (q.event !== undefined && (q.event === '(none)' ? e.event !== undefined : e.event !== q.event)) return false;
  if (!includes(e.deliveryId, q.deliveryId)) return false;
  if (!includes(e.endUserHandle, q.endUserHandle)) return false;
  if (q.verdict !== undefined && !matchesVerdict(e, q.verdict)) return false;
  return true;
}

/** One row of the list, built from the entries of one delivery id (arrival order). */
export function groupOf(key: string, list: readonly JournalEntry[]): Group {
  const shown = list.slice(0, MAX_ATTEMPTS);
  const first = shown[0]!;
  const out: Group = {
    key,
    attempts: shown.map(summarizeAttempt),
    count: list.length,
    lastSeq: list[list.length - 1]!.seq,
  };
  if (first.deliveryId !== undefined) out.deliveryId = first.deliveryId;
  const event = list.find((e) => e.event !== undefined)?.event;
  if (event !== undefined) out.event = event;
  const user = list.find((e) => e.endUserHandle !== undefined)?.endUserHandle;
  if (user !== undefined) out.endUserHandle = user;
  return out;
}
