/**
 * The traffic judge: a journal of the mock host (live, or exported as journal.jsonl) in, per-clause
 * checks out. Each callback is judged by itself (per-callback.ts, signature.ts), then each series of callbacks
 * (retries.ts, pages.ts); the clauses traffic never exercised say what would exercise them.
 */
import type { JournalEntry } from '../../mock-host/index.ts';
import { makeTiming } from '../../target/service/timing.ts';
import { DEFAULT_TOLERANCES } from '../../target/service/resolve.ts';
import type { Tolerances } from '../../target/service/timing.ts';
import type { ClauseId } from '../../spec/index.ts';
import { judgeCallback, judgeUnrouted } from './per-callback.ts';
import type { DeclaredSigning } from './words.ts';
import { judgeFacts } from './facts.ts';
import { judgePages } from './pages.ts';
import { judgeConversations } from './conversations.ts';
import { judgeSeries, type RefusalWindow } from './retries.ts';
import { Verdicts } from './verdicts.ts';
import { judgeJwksDocuments } from './jwks-documents.ts';
import { judgeRepeatCompletions } from './repeat-completions.ts';
import { driverParts } from './driver-parts.ts';
import type { JwksDocumentSeen } from '../../protocol/index.ts';

export interface JudgeOptions {
  /**
   * The mode signatures are held to: one for every route (observe's flags), or 'per-route': each request
   * in the mode its route verified it in as it arrived (entry.signature.mode), as in a driven run, where
   * every test workspace has a route of its own.
   */
  signing: DeclaredSigning | 'per-route';
  /** The service's time scale (0 < X <= 1): every contract duration is multiplied by it. */
  timeScale: number;
  /** The target's declared timing tolerances (DELIV-8 reading); default the suites' own. */
  tolerances?: Tolerances;
  hookPaths: string[];
  /** HMAC mode: the workspace's secrets, to tell the secret and the bytes (SIGN-3, SIGN-6) from SIGN-12. */
  hmacSecrets?: string[];
  /**
   * HMAC mode: secrets bound to a workspace key (observe's `--hmac-secret-file WS=FILE`): a callback or
   * facts GET of a bound workspace verifies with its own (SIGN-13), either of two after a rotation (SIGN-14).
   */
  hmacByWorkspace?: Record<string, string[]>;
  /** The end of the observation on the mock host's monotonic clock (ns); default: the last entry's end. */
  endNs?: bigint;
  /** Windows in which the mock host refused connections (a driven run's refuse steps): attempts unseen. */
  refusals?: readonly RefusalWindow[];
  /** The JWKS documents the mock host fetched to verify with: the key source the callbacks name kids of (SIGN-9). */
  jwksDocuments?: readonly JwksDocumentSeen[];
  /**
   * What the traffic's record lacks (a HAR file without raw bodies or arrival times): the clauses it
   * leaves undecidable are not exercised with this reason, never failed on a missing field.
   */
  gaps?: Gaps;
}

export interface Gaps {
  /** Some requests were left out (no raw body): no series of callbacks is complete, so none is judged. */
  series?: string;
  /** No arrival times: the signature's t against the arrival (SIGN-4) and every interval are undecidable. */
  untimed?: string;
}

export interface Judgement {
  verdicts: Verdicts;
  callbacks: number;
  /** Requests that were not lifecycle callbacks (admin, tool, facts, other paths). */
  others: number;
}

/** The clauses whose signing the judge decides only with a declared mode. */
const SIGNING_CLAUSES: ClauseId[] = ['SIGN-3', 'SIGN-4', 'SIGN-12', 'SIGN-11'];

export function judgeJournal(all: JournalEntry[], o: JudgeOptions): Judgement {
  const v = new Verdicts();
  const entries = [...all].sort((a, b) => a.seq - b.seq);
  const callbacks = entries.filter((e) => e.kind === 'lifecycle');
  const timed = o.gaps?.untimed === undefined;
  const modes = new Set<DeclaredSigning>();
  for (const e of entries) {
    // a request whose body had not come when observing ended: nothing of it to judge yet
    if (e.finished === undefined && e.checks.length === 0) continue;
    if (e.kind !== 'lifecycle' && e.kind !== 'facts') {
      if (e.kind === 'unrouted') judgeUnrouted(e, v, o.hookPaths);
      continue;
    }
    const signing = o.signing === 'per-route' ? e.signature.mode : o.signing;
    modes.add(signing);
    if (e.kind === 'lifecycle') judgeCallback(e, v, signing, o.hmacSecrets, timed, o.hmacByWorkspace);
    else judgeFacts(e, v, signing, o.hmacSecrets, o.hmacByWorkspace);
  }
  if (o.jwksDocuments !== undefined) judgeJwksDocuments(o.jwksDocuments, entries, v);
  // the last answer's time stands in for the end of observing only when none is given (a live run gives it)
  const endNs =
    o.endNs ??
    entries.reduce((m, e) => {
      const t = BigInt(e.finished?.monoNs ?? e.arrival.monoNs);
      return t > m ? t : m;
    }, 0n);
  const timing = makeTiming(o.timeScale, o.tolerances ?? DEFAULT_TOLERANCES);
  const series = (into: Verdicts) => {
    judgeConversations(callbacks, into);
    judgeRepeatCompletions(callbacks, into);
    judgeSeries(callbacks, into, {
      timing,
      signing: o.signing,
      endNs,
      ...(o.refusals ? { refusals: o.refusals } : {}),
    });
    judgePages(callbacks, into);
  };
  const gap = o.gaps?.series ?? o.gaps?.untimed;
  if (gap === undefined) series(v);
  else {
    // the clauses the series would have spoken of, each not exercised with what the record lacks
    const scratch = new Verdicts();
    series(scratch);
    for (const clause of scratch.clauses().keys()) v.notExercised(clause, gap);
  }
  if (o.gaps?.untimed !== undefined) v.notExercised('SIGN-4', o.gaps.untimed);
  driverParts(callbacks, o.refusals ?? [], v);
  notExercisedByEvent(callbacks, v);
  if (o.signing === 'per-route') notExercisedByModesSeen(modes, v);
  else notExercisedByMode(o.signing, v);
  if (o.signing === 'unknown') {
    for (const c of SIGNING_CLAUSES)
      v.notExercised(c, 'no signing mode given: --signing none, --hmac-secret-file F or --jwks-url U decides it');
  }
  return { verdicts: v, callbacks: callbacks.length, others: entries.length - callbacks.length };
}

/** Per-event clauses no callback of their event spoke of: which event would exercise them. */
const EVENT_CLAUSES: Array<[ClauseId, string[], string]> = [
  ['EVT-5', ['onStart', 'onSessionInterrupted', 'onSessionTimeout'], 'open a conversation (onStart)'],
  ['EVT-9', ['config.deleted'], 'delete one instance through the chat (config.deleted)'],
  ['EVT-10', ['config.bulk_deleted'], 'delete a whole scope (config.bulk_deleted)'],
  ['HDR-5', ['onStart', 'config.saved', 'config.deleted'], 'any event other than onComplete'],
];

function notExercisedByEvent(callbacks: JournalEntry[], v: Verdicts): void {
  const seen = new Set<string | undefined>();
  for (const e of callbacks) seen.add(e.event);
  for (const [clause, events, what] of EVENT_CLAUSES) {
    if (v.decided(clause) || events.some((e) => seen.has(e))) continue;
    v.notExercised(clause, `no ${events.join(' or ')} arrived: ${what}`);
  }
}

/** Per route: the clauses of each mode no route verified in, with the mode that would exercise them. */
function notExercisedByModesSeen(modes: Set<DeclaredSigning>, v: Verdicts): void {
  const unseen: Array<[DeclaredSigning, ClauseId[], string]> = [
    ['hmac', ['SIGN-11', 'SIGN-12'], 'no request came to a route of an HMAC workspace'],
    ['jwks', ['SIGN-7', 'SIGN-8', 'SIGN-9'], 'no request came to a route of a JWKS workspace'],
    ['none', ['SIGN-1'], 'no request came to a route of a workspace with signing off'],
  ];
  for (const [mode, clauses, why] of unseen) {
    if (modes.has(mode)) continue;
    for (const c of clauses) if (!v.decided(c)) v.notExercised(c, why);
  }
}

/** The signing clauses of the mode the workspace does not use: the other mode would exercise them. */
function notExercisedByMode(signing: DeclaredSigning, v: Verdicts): void {
  const hmacOnly: ClauseId[] = ['SIGN-11', 'SIGN-12'];
  const jwksOnly: ClauseId[] = ['SIGN-7', 'SIGN-8', 'SIGN-9'];
  const other =
    signing === 'hmac'
      ? { clauses: jwksOnly, why: 'the workspace signs with HMAC: a JWKS workspace with --jwks-url' }
      : { clauses: hmacOnly, why: 'the workspace signs with JWKS: an HMAC workspace with --hmac-secret-file' };
  if (signing === 'hmac' || signing === 'jwks') for (const c of other.clauses) v.notExercised(c, other.why);
  if (signing === 'hmac' || signing === 'jwks') v.notExercised('SIGN-1', 'signing is on: a workspace with signing off');
  if (signing === 'none') {
    const why = 'the workspaces sign with no mode (--signing none): an HMAC or a JWKS workspace exercises it';
    for (const c of new Set([...SIGNING_CLAUSES, ...hmacOnly, ...jwksOnly])) if (!v.decided(c)) v.notExercised(c, why);
  }
}
