/**
 * The ledger's duties (duties.ts) judged at the end of the test that sent their exchanges, on the data API
 * reads the service side journalled and the answers the harness got (PITFALLS "Evidence": every verdict rests
 * on a request or an answer seen). The reads a duty waits for are waited for, each until its deadline (the
 * host target's timeouts.dataReadMs after the acknowledgement, or after the last read of its user while the
 * receiver keeps reading), a redelivery's quiet window to its end.
 * A key counts as read by a read journalled after its callback left, of its key or of its user's list, with
 * the Bearer token on a well-formed path, answered 200 (or with the status the test scripted for the key).
 * The reads of a signing mode whose receiver stopped answering (a request of the test left unanswered, or its
 * port refusing connections once the reads are overdue: it exited) are not judged: HOST-1 fails on the requests
 * it leaves unanswered, and what the receiver did not finish is that clause's evidence.
 */
import net from 'node:net';
import type { ClauseId, HostCheckId } from '../../spec/index.ts';
import { dutiesOf, refusedAnswer, type Duty, type Given } from './duties.ts';
import { answered, describe, isAck } from './exchange.ts';
import { factsShape } from './facts-shape.ts';
import { serviceKeysOf, type Exchange, type Ledger } from './ledger.ts';
import type { DataRead, ServiceSide } from './service-side-types.ts';

export interface DutyOptions {
  dataReadMs: number;
  factsSchema?: Record<string, unknown>;
}

/** One check of the ledger: a group of duties of one clause, check id and signing mode. */
export interface DutyVerdict {
  clause: ClauseId;
  id: HostCheckId;
  rule: string;
  ok: boolean;
  expected: string;
  seen: string;
}

/** A read that fetched key k of e's user after e left (k null: any record of the user, answered 200). */
const readsKey = (e: Exchange, k: string | null) => (r: DataRead) =>
  r.seq > e.at &&
  r.endUserHandle === e.endUserHandle &&
  r.wellFormed &&
  r.bearer === 'sent' &&
  (r.serviceKey === null ? r.status === 200 : r.serviceKey === k && (r.status === 200 || r.scripted === true));

const unread = (e: Exchange, reads: readonly DataRead[]): string[] =>
  serviceKeysOf(e.payload).filter((k) => !reads.some(readsKey(e, k)));

function readsInWords(reads: readonly DataRead[], handle: string): string {
  const rs = reads.filter((r) => r.endUserHandle === handle);
  if (rs.length === 0) return 'no read of this user';
  const words = rs
    .slice(0, 6)
    .map((r) => `GET ${r.serviceKey === null ? '(list)' : JSON.stringify(r.serviceKey)} answered ${r.status}`);
  return words.join('; ') + (rs.length > 6 ? ` and ${rs.length - 6} more` : '');
}

const some = (keys: readonly string[]): string =>
  `${JSON.stringify(keys.slice(0, 4))}${keys.length > 4 ? ` and ${keys.length - 4} more` : ''}`;

const answeredAtMs = (e: Exchange): number => e.sentAtMs + e.outcome.elapsedMs;

/** The longest a read duty is waited for while its receiver keeps reading: this many read deadlines. */
const PROGRESS_CAP = 5;

/**
 * HOST-11 reading: a redelivery is watched four times as long as the first reads of its original took, 2 s at
 * least, dataReadMs at most (the reads' clock is this process's: called only for an in-process service side).
 */
function quietWindowMs(d: Extract<Duty, { kind: 'not-again' }>, reads: readonly DataRead[], o: DutyOptions): number {
  const keys = serviceKeysOf(d.original.payload);
  const first = reads.find(
    (r) => r.status === 200 && (readsKey(d.original, null)(r) || keys.some((k) => readsKey(d.original, k)(r))),
  );
  const latency = first === undefined ? o.dataReadMs : first.atMs - d.original.sentAtMs;
  return Math.min(o.dataReadMs, Math.max(2_000, 4 * latency));
}

/** The original of a redelivery was handled (every key read 200) before the redelivery left. */
const handledBefore = (d: Extract<Duty, { kind: 'not-again' }>, reads: readonly DataRead[]): boolean =>
  serviceKeysOf(d.original.payload).every((k) =>
    reads.some((r) => readsKey(d.original, k)(r) && r.status === 200 && r.seq <= d.e.at),
  );

const againReads = (d: Extract<Duty, { kind: 'not-again' }>, reads: readonly DataRead[]): DataRead[] => {
  const keys = new Set(serviceKeysOf(d.original.payload));
  return reads.filter(
    (r) =>
      r.seq > d.e.at &&
      r.endUserHandle === d.e.endUserHandle &&
      r.status === 200 &&
      (r.serviceKey === null || keys.has(r.serviceKey)),
  );
};

const givenHolds = (g: Given, reads: readonly DataRead[]): boolean =>
  g.kind === 'refused' ? refusedAnswer(g.e) : unread(g.e, reads).length === 0;

/** Waits for the reads the duties wait for, then judges every duty of the test's tagged clauses. */
export async function judgeDuties(
  ledger: Ledger,
  service: ServiceSide,
  testId: string,
  tagged: ReadonlySet<string>,
  o: DutyOptions,
  inProcess: boolean,
): Promise<DutyVerdict[]> {
  const mine = ledger.ofTest(testId);
  const stopped = new Set(mine.filter((e) => !answered(e.outcome)).map((e) => e.mode));
  const duties = dutiesOf(ledger, testId)
    .filter((d) => tagged.has(d.clause))
    .filter((d) => (d.kind !== 'read' && d.kind !== 'not-again') || !stopped.has(d.e.mode));
  const window = (d: Extract<Duty, { kind: 'not-again' }>) =>
    inProcess ? quietWindowMs(d, service.reads, o) : o.dataReadMs;
  // What is waited for: each read duty (and the onCompletes it is given) until read, or until its deadline:
  // dataReadMs after the acknowledgement, or after the last read of its user while the receiver makes progress
  // (HOST-13's reading, as for the 64-key case), at most PROGRESS_CAP deadlines; each redelivery until its
  // quiet window ends or a read repeats it.
  const started = performance.now();
  const progress = new Map<string, number>();
  for (const e of mine)
    if (service.reads.some((r) => r.seq > e.at && r.endUserHandle === e.endUserHandle))
      progress.set(e.endUserHandle, started);
  const readUntil = (e: Exchange) => () =>
    Math.min(
      answeredAtMs(e) + PROGRESS_CAP * o.dataReadMs,
      Math.max(answeredAtMs(e), progress.get(e.endUserHandle) ?? -Infinity) + o.dataReadMs,
    );
  const waits = duties.flatMap((d) => {
    if (d.kind === 'read') {
      const es = [d.e, ...d.given.filter((g) => g.kind === 'handled').map((g) => g.e)];
      return es.map((e) => ({
        handle: e.endUserHandle,
        until: readUntil(e),
        done: () => unread(e, service.reads).length === 0,
      }));
    }
    if (d.kind !== 'not-again') return [];
    const end = answeredAtMs(d.e) + window(d);
    return [
      {
        handle: d.e.endUserHandle,
        until: () => end,
        done: () => !handledBefore(d, service.reads) || againReads(d, service.reads).length > 0,
      },
    ];
  });
  for (;;) {
    await service.sync();
    const now = performance.now();
    const open = waits.filter((w) => w.until() > now && !w.done());
    if (open.length === 0) break;
    const handles = new Set(open.map((w) => w.handle));
    const after = ledger.localSeq();
    const until = Math.min(...open.map((w) => w.until()));
    await service.waitForRead((r) => r.seq > after && handles.has(r.endUserHandle), until - now);
    for (const r of service.reads) if (r.seq > after) progress.set(r.endUserHandle, performance.now());
  }
  // A receiver whose reads are overdue and whose port now refuses connections has stopped (an exit, a crash).
  const overdue = duties.filter((d) => d.kind === 'read' && unread(d.e, service.reads).length > 0);
  for (const mode of new Set(overdue.map((d) => d.e.mode))) {
    const url = overdue.find((d) => d.e.mode === mode)!.e.outcome.url;
    if (!(await listening(url))) stopped.add(mode);
  }
  const judged = duties.filter((d) => (d.kind !== 'read' && d.kind !== 'not-again') || !stopped.has(d.e.mode));
  return verdicts(judged, service.reads, o, window);
}

/** Whether anything still accepts a TCP connection at the URL's host and port (no request is sent). */
function listening(url: string, timeoutMs = 1_000): Promise<boolean> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function verdicts(
  duties: readonly Duty[],
  reads: readonly DataRead[],
  o: DutyOptions,
  window: (d: Extract<Duty, { kind: 'not-again' }>) => number,
): DutyVerdict[] {
  const groups = new Map<string, DutyVerdict & { bad: string[] }>();
  const add = (clause: ClauseId, id: HostCheckId, mode: string, rule: string, expected: string, bad?: string) => {
    const key = `${clause}\u0000${id}\u0000${mode}`;
    const g = groups.get(key) ?? { clause, id, rule: `${mode}: ${rule}`, ok: true, expected, seen: '', bad: [] };
    if (bad !== undefined) g.bad.push(bad);
    groups.set(key, g);
  };
  for (const d of duties) {
    const { e } = d;
    const who = `${e.payload?.event ?? 'facts GET'} of ${JSON.stringify(e.endUserHandle)}`;
    if (d.kind === 'facts') {
      for (const v of factsShape(e.outcome, o.factsSchema))
        add(
          d.clause,
          v.id,
          e.mode,
          v.rule,
          v.expected,
          v.seen === undefined ? undefined : `${describe(e.outcome)}: ${v.seen}`,
        );
    } else if (d.kind === 'refused') {
      // A 404, a 5xx or no answer says nothing of the signature (HOST-1's): undecided.
      if (!answered(e.outcome) || e.outcome.status === 404 || e.outcome.status! >= 500) continue;
      add(d.clause, d.id, e.mode, d.rule, 'refused (a 4xx)', refusedAnswer(e) ? undefined : describe(e.outcome));
    } else if (d.kind === 'read') {
      if (!d.given.every((g) => givenHolds(g, reads))) continue;
      const keys = unread(e, reads);
      const expected =
        "a GET of each key (by key or the user's list) answered 200, or as the test scripted it, within " +
        `${o.dataReadMs} ms of the acknowledgement`;
      const bad = `${who}: keys never read ${some(keys)} (${readsInWords(reads, e.endUserHandle)})`;
      add(d.clause, d.id, e.mode, d.rule, expected, keys.length === 0 ? undefined : bad);
    } else {
      if (!isAck(e.outcome) || !handledBefore(d, reads)) continue;
      const again = againReads(d, reads);
      const expected = `no second read within ${Math.round(window(d))} ms`;
      add(
        d.clause,
        d.id,
        e.mode,
        d.rule,
        expected,
        again.length === 0 ? undefined : `${who}: ${readsInWords(again, e.endUserHandle)}`,
      );
    }
  }
  return [...groups.values()].map(({ bad, ...g }) => ({
    ...g,
    ok: bad.length === 0,
    seen: bad.slice(0, 4).join('; ') + (bad.length > 4 ? ` and ${bad.length - 4} more` : ''),
  }));
}
