/**
 * `observe --from FILE.har`: a HAR 1.2 file of callbacks judged as a journal. Each request is sent
 * once, in the file's order, to a mock host of the same routes and signing (nothing else listens), so
 * its entry is worked out by the mock host's own code (headers, payload, attempt count, signature);
 * then the entry takes the HAR's times and answer: arrival from `_arrivalMonoNs` or startedDateTime,
 * end from `_finishedMonoNs` or `time`, the answer from response.status and `_fault`/`_heldMs`. A
 * request without its raw body (postData.text) or without an arrival time leaves the clauses it
 * would decide not exercised with the reason (Gaps), never failed.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { MockHost, type FaultName, type JournalEntry, type MockHostOptions } from '../../mock-host/index.ts';
import type { Gaps, RunJournalMeta } from '../../judge/service/index.ts';
import { ccsError } from '../../spec/index.ts';
import { readJournalFile } from './observe-journal.ts';
import type { JwksDocumentSeen } from '../../protocol/index.ts';

/** SIGN-4: the receiver's window (section 5.2); the mock host judged t against the replay's clock. */
const WINDOW_S = 300;
const FAULTS = new Set<string>(['reset', 'close', 'never', 'hold', 'refuse']);
const HOP = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request?: {
    method?: string;
    url?: string;
    headers?: Array<{ name: string; value: string }>;
    bodySize?: number;
    postData?: { text?: string; encoding?: string };
  };
  response?: { status?: number };
  _arrivalMonoNs?: string;
  _finishedMonoNs?: string;
  _fault?: string;
  _heldMs?: number;
}

export interface HarJudgement {
  entries: JournalEntry[];
  endNs?: bigint;
  gaps: Gaps;
  /** A driven run's journal: what its judge was told (the same judging here gives the run's verdicts). */
  meta?: RunJournalMeta;
  /** The JWKS documents the observing mock host fetched (SIGN-9), when the file kept them. */
  jwksDocuments?: JwksDocumentSeen[];
}

function isHar(file: string, text: string): boolean {
  return /\.har$/i.test(file) || /^\s*\{\s*"log"\s*:/.test(text);
}

function bodyOf(h: HarEntry): Buffer | undefined {
  const p = h.request?.postData;
  if (p?.text === undefined) return (h.request?.bodySize ?? 0) > 0 ? undefined : Buffer.alloc(0);
  return p.encoding === 'base64' ? Buffer.from(p.text, 'base64') : Buffer.from(p.text, 'utf8');
}

/** The request target as sent: the URL's path and query, undecoded (SIGN-6 signs it as on the wire). */
function targetOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(url);
  const t = m ? m[1]! : url;
  return t.startsWith('/') ? t : `/${t}`;
}

function send(base: URL, h: HarEntry, body: Buffer): Promise<void> {
  const raw: string[] = [];
  for (const { name, value } of h.request?.headers ?? []) {
    if (!HOP.has(name.toLowerCase()) && !name.startsWith(':')) raw.push(name, value);
  }
  raw.push('content-length', String(body.length));
  return new Promise((done, fail) => {
    const req = request(
      { host: base.hostname, port: base.port, method: h.request?.method ?? 'POST', path: targetOf(h.request!.url!) },
      (res) => {
        res.resume();
        res.once('end', () => done());
      },
    );
    for (let i = 0; i < raw.length; i += 2) req.setHeader(raw[i]!, raw[i + 1]!);
    req.once('error', fail);
    req.end(body);
  });
}

const NS = /^[0-9]+$/;

/**
 * mono: every request carries `_arrivalMonoNs` (one clock for all); otherwise every interval is read
 * from startedDateTime and time, never from two clocks mixed.
 */
function arrivalOf(h: HarEntry, mono: boolean): Arrival | undefined {
  const wall = h.startedDateTime ? Date.parse(h.startedDateTime) : Number.NaN;
  if (!Number.isFinite(wall)) return undefined;
  return { monoNs: mono ? BigInt(h._arrivalMonoNs!) : BigInt(Math.round(wall * 1e6)), wallMs: wall, mono };
}

interface Arrival {
  monoNs: bigint;
  wallMs: number;
  mono: boolean;
}

/** The HAR's times and answer on the replayed entry, and its signature's window judged at the HAR's arrival. */
function retime(e: JournalEntry, h: HarEntry, at: Arrival | undefined): void {
  const status = h.response?.status;
  const fault = h._fault !== undefined && FAULTS.has(h._fault) ? (h._fault as FaultName) : undefined;
  e.response = {
    ...(status !== undefined && status > 0 ? { status } : {}),
    ...(fault ? { fault } : {}),
    ...(typeof h._heldMs === 'number' ? { delayMs: h._heldMs } : {}),
  };
  const s = e.signature;
  if (!at) {
    // stale and future come only after the signature verified (protocol/verdict.ts): t alone is unjudged
    if (s.verdict === 'stale' || s.verdict === 'future') e.signature = { ...s, verdict: 'valid' };
    // the replay's own times stay: no interval is judged from them (Gaps.untimed), they only name the clauses
    return;
  }
  e.arrival = { monoNs: at.monoNs.toString(), wallMs: at.wallMs, iso: new Date(at.wallMs).toISOString() };
  const fin =
    at.mono && typeof h._finishedMonoNs === 'string' && NS.test(h._finishedMonoNs)
      ? BigInt(h._finishedMonoNs)
      : typeof h.time === 'number' && h.time >= 0
        ? at.monoNs + BigInt(Math.round(h.time * 1e6))
        : undefined;
  if (fin === undefined || (status === undefined && !fault)) delete e.finished;
  else {
    const outcome =
      fault === 'reset' || fault === 'refuse'
        ? 'reset'
        : fault === 'close'
          ? 'closed'
          : status
            ? 'answered'
            : 'client-closed';
    e.finished = { monoNs: fin.toString(), wallMs: at.wallMs + Number((fin - at.monoNs) / 1_000_000n), outcome };
  }
  if (s.t !== undefined && (s.verdict === 'valid' || s.verdict === 'stale' || s.verdict === 'future')) {
    const skew = at.wallMs / 1000 - s.t;
    const verdict = skew > WINDOW_S ? 'stale' : skew < -WINDOW_S ? 'future' : 'valid';
    e.signature = { ...s, verdict, skewSeconds: Math.round(skew) };
  }
}

/** A saved record of traffic: a HAR file, else the journal observe saves (observe-journal.ts). */
export async function readSaved(file: string, options: MockHostOptions): Promise<HarJudgement> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw ccsError('CLI_FILE_UNREADABLE', {
      flag: 'from',
      file,
      errno: (error as NodeJS.ErrnoException).code ?? 'error',
    });
  }
  if (isHar(file, text)) return readHarFile(file, text, options);
  return { ...readJournalFile(file, text), gaps: {} };
}

async function readHarFile(file: string, text: string, options: MockHostOptions): Promise<HarJudgement> {
  let har: { log?: { entries?: HarEntry[]; _observeEndMonoNs?: string } };
  try {
    har = JSON.parse(text) as typeof har;
  } catch (error) {
    throw ccsError('CLI_FROM_FILE_INVALID', { file, problem: `not JSON (${(error as Error).message})` });
  }
  const list = har.log?.entries;
  if (!Array.isArray(list))
    throw ccsError('CLI_FROM_FILE_INVALID', { file, problem: 'no log.entries (a HAR 1.2 file)' });
  const bad = list.findIndex((h) => typeof h?.request?.url !== 'string');
  if (bad >= 0) throw ccsError('CLI_FROM_FILE_INVALID', { file, problem: `entry ${bad + 1} has no request.url` });
  const { port: _port, host: _host, scripts: _scripts, forwardTo: _forward, ...same } = options;
  const host = await MockHost.start({ ...same, host: '127.0.0.1', port: 0 });
  const kept: Array<{ h: HarEntry; at: Arrival | undefined }> = [];
  const mono = list.every((h) => typeof h._arrivalMonoNs === 'string' && NS.test(h._arrivalMonoNs));
  let bodiless = 0;
  let untimed = 0;
  let entries: JournalEntry[];
  try {
    const base = new URL(host.url);
    for (const h of list) {
      const body = bodyOf(h);
      if (body === undefined) {
        bodiless++;
        continue;
      }
      const at = arrivalOf(h, mono);
      if (!at) untimed++;
      await send(base, h, body);
      kept.push({ h, at });
    }
    entries = host.journal.entries().filter((e) => e.kind !== 'admin');
  } finally {
    await host.close().catch(() => undefined);
  }
  entries.forEach((e, i) => retime(e, kept[i]!.h, kept[i]!.at));
  const gaps: Gaps = {};
  if (bodiless) {
    gaps.series = `${bodiless} request(s) of ${file} carry no raw body (postData.text): no series of callbacks is complete`;
  }
  if (untimed) gaps.untimed = `${untimed} request(s) of ${file} have no arrival time (startedDateTime)`;
  const end = har.log?._observeEndMonoNs;
  return { entries, gaps, ...(mono && typeof end === 'string' && NS.test(end) ? { endNs: BigInt(end) } : {}) };
}
