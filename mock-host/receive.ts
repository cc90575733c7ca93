/**
 * Receive, the first job of the request pipeline: a callback, tool dispatch or facts GET is
 * journaled on arrival (PITFALLS: record on arrival, complete later), its body read as raw bytes,
 * and its entry completed when the answer is sent or the connection ends. Runs on node's request
 * event directly (not through fastify's router): this is the path every callback takes.
 *
 * Per request: one entry, one context object and the stream listeners, which are shared
 * functions. Nothing else is worked out here; see settle.ts for when the rest is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRawBody, type BodyError, type BodyReading } from './body.ts';
import { monoNow, wallNow } from './clock.ts';
import { share, shareRawHeaders } from './compact.ts';
import { Entry, type Pending, type Settler } from './entry.ts';
import type { JournalStore } from './journal.ts';
import type { RouteState } from './settle.ts';

export interface ReceiveHost {
  readonly journal: JournalStore;
  readonly routes: Map<string, RouteState>;
  readonly settler: Settler;
  readonly bodyLimit: number;
  /** the body has been read: verify what must be verified now, answer, tell listeners */
  bodyRead(ctx: RequestContext, body: Buffer): void;
  /** the body could not be read (too large, aborted, stream error) */
  bodyFailed(ctx: RequestContext, error: BodyError): void;
}

export interface RequestContext extends BodyReading {
  readonly entry: Entry;
  readonly pending: Pending;
  readonly res: ServerResponse;
  readonly host: ReceiveHost;
  /**
   * The request announced a body (a content type, a length other than 0, or chunked, on a method
   * that carries one): only then is it read, and only then does an unread body mean the client
   * went away mid-body. GET, HEAD and TRACE bodies are never read (drained, recorded as none).
   */
  readonly framed: boolean;
}

const CTX = Symbol('ccsRequest');
type WithContext = ServerResponse & { [CTX]?: RequestContext };

const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

function onBody(r: BodyReading, err: BodyError | null, body?: Buffer): void {
  const ctx = r as RequestContext;
  if (err) ctx.host.bodyFailed(ctx, err);
  else ctx.host.bodyRead(ctx, body!);
}

function finish(ctx: RequestContext, outcome: NonNullable<Entry['finished']>['outcome']): void {
  if (Entry.finish(ctx.entry, outcome)) ctx.host.journal.emit(ctx.entry, 'finished');
}

function onFinish(this: WithContext): void {
  const ctx = this[CTX]!;
  const e = ctx.entry;
  if (e.response?.status === undefined) e.response = Object.assign({}, e.response, { status: this.statusCode });
  finish(ctx, 'answered');
}

function onClose(this: WithContext): void {
  const ctx = this[CTX]!;
  this[CTX] = undefined;
  const e = ctx.entry;
  if (Entry.isFinished(e)) return;
  const fault = e.response?.fault;
  if (fault === 'reset' || fault === 'refuse') finish(ctx, 'reset');
  else if (fault === 'close') finish(ctx, 'closed');
  else if (ctx.framed && !ctx.done && ctx.bodyError === undefined && e.method !== 'GET')
    finish(ctx, 'aborted-by-client');
  else if (!ctx.framed && e.method !== 'GET') finish(ctx, 'aborted-by-client');
  else if (ctx.bodyError?.reason === 'aborted') finish(ctx, 'aborted-by-client');
  else finish(ctx, 'client-closed');
}

/** Journals one request on arrival and starts reading its body. */
export function receive(host: ReceiveHost, req: IncomingMessage, res: ServerResponse): void {
  const [monoS, monoSubNs] = monoNow();
  const wallOffMs = wallNow();
  const raw = req.url ?? '/';
  const qi = raw.indexOf('?');
  // a path without a query repeats from request to request: the entry keeps one shared copy
  const url = qi < 0 ? share(raw) : raw;
  const path = qi < 0 ? url : url.slice(0, qi);
  const route = host.routes.get(path);
  const method = req.method ?? 'GET';
  const headers = req.headers as Record<string, string | string[]>;
  const pending: Pending = {
    settler: host.settler,
    monoS,
    monoSubNs,
    wallOffMs,
    rawHeaders: req.rawHeaders,
    head: false,
    read: false,
    analysed: false,
    bodySlab: undefined,
    bodyOffset: 0,
    bodyLength: 0,
    sha: '',
    attemptsSeen: 0,
    nextRead: undefined,
    route,
    signature: undefined,
    facts: undefined,
    finishedMonoS: 0,
    finishedMonoSubNs: 0,
    finishedWallOffMs: 0,
    outcome: undefined,
  };
  // the parser's copies of names and usual values die young; the entry keeps shared ones
  shareRawHeaders(req.rawHeaders);
  const entry = new Entry(
    host.journal.allocateSeq(),
    method,
    url,
    path,
    route ? route.config.kind : 'unrouted',
    pending,
  );
  const length = headers['content-length'];
  const ctx: RequestContext = {
    received: 0,
    done: false,
    limit: host.bodyLimit,
    declared: undefined,
    first: undefined,
    more: undefined,
    bodyError: undefined,
    onBody,
    entry,
    pending,
    res,
    host,
    framed:
      !BODYLESS.has(method) &&
      (headers['content-type'] !== undefined ||
        headers['transfer-encoding'] !== undefined ||
        (length !== undefined && length !== '0')),
  };
  host.journal.add(entry);
  (res as WithContext)[CTX] = ctx;
  res.on('finish', onFinish);
  res.on('close', onClose);
  if (ctx.framed) readRawBody(req, ctx);
  else {
    req.resume();
    host.bodyRead(ctx, EMPTY);
  }
}

const EMPTY = Buffer.alloc(0);
