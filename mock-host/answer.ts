/**
 * Verify and answer, the middle jobs of the request pipeline. Only what decides the answer is
 * worked out on the request path: the signature verdict when enforcement needs it (HOST-3) or
 * JWKS keys have to be fetched, and the addressing fields when scripts are loaded; everything
 * else waits for a reader (settle.ts). Then the answer: enforcement's 401, a script step, a
 * forward, or the default.
 */
import type { ServerResponse } from 'node:http';
import { fillBody } from './analyze.ts';
import type { AttemptCounter } from './attempts.ts';
import { keepBody } from './body-store.ts';
import { wallMsOf } from './clock.ts';
import type { BodyError } from './body.ts';
import { Entry } from './entry.ts';
import { forward } from './forward.ts';
import type { JournalStore } from './journal.ts';
import type { RequestContext } from './receive.ts';
import { requestPayload, type RouteState } from './settle.ts';
import type { ScriptBook, MatchSubject } from './scripts/matcher.ts';
import { runStep, sendJson, type StepContext } from './scripts/run-step.ts';
import type { MockHostOptions, SignatureRecord } from './types.ts';
import { verifyRequest } from './verify.ts';

export interface AnswerHost {
  readonly journal: JournalStore;
  readonly routes: Map<string, RouteState>;
  readonly book: ScriptBook;
  readonly opts: MockHostOptions;
  readonly attempts: AttemptCounter;
  readonly timers: Set<NodeJS.Timeout>;
  refuseFor(ms: number): void;
}

/** The usual answer, `{}` with 200: its journal record is one shared object (entries are read-only). */
const OK_RESPONSE = Object.freeze({ status: 200, bodyBase64: Buffer.from('{}', 'utf8').toString('base64') });
const OK_HEADERS = { 'content-length': 2, 'content-type': 'application/json; charset=utf-8' };

function sendOk(e: Entry, res: ServerResponse): void {
  if (res.destroyed || res.writableEnded) return;
  e.response = e.response === undefined ? OK_RESPONSE : Object.assign({}, e.response, OK_RESPONSE);
  res.writeHead(200, OK_HEADERS);
  res.end('{}', 'utf8');
}

function enforced(host: AnswerHost, route: RouteState | undefined): boolean {
  return route !== undefined && route.verifier.mode !== 'none' && (route.config.enforce ?? host.opts.enforce ?? false);
}

/** The body has been read: queue it for its attempt count, verify what must be verified now, answer. */
export function bodyRead(host: AnswerHost, ctx: RequestContext, body: Buffer): void {
  const e = ctx.entry;
  const p = ctx.pending;
  const route = host.routes.get(e.path);
  p.route = route;
  keepBody(p, body);
  host.attempts.read(p);
  let onPath: SignatureRecord | undefined;
  if (route !== undefined && (route.verifier.mode === 'jwks' || enforced(host, route))) {
    let v: SignatureRecord | Promise<SignatureRecord> | undefined;
    try {
      v = verifyRequest(
        route.verifier,
        p.rawHeaders,
        requestPayload(route.config.kind, e.url, body),
        Math.floor(wallMsOf(p.wallOffMs) / 1000),
      );
    } catch {
      // left to the settler, which records why the analysis failed; the answer sees no verdict
    }
    if (v !== undefined && typeof (v as Promise<SignatureRecord>).then === 'function') {
      void (v as Promise<SignatureRecord>).then((s) => {
        p.signature = s;
        ready(host, ctx, route, s, body);
      });
      return;
    }
    onPath = v as SignatureRecord | undefined;
    p.signature = onPath;
  }
  ready(host, ctx, route, onPath, body);
}

function ready(
  host: AnswerHost,
  ctx: RequestContext,
  route: RouteState | undefined,
  signature: SignatureRecord | undefined,
  body: Buffer,
): void {
  const e = ctx.entry;
  ctx.pending.read = true;
  // a reader already holds the entry: keep it as the old journal did, analysed before the answer
  if (Entry.isSeen(e)) Entry.settle(e);
  answer(host, ctx, route, signature, body);
  // after the answer is chosen, so listeners see which step answered (or why none did)
  host.journal.emit(e, 'body');
}

function answer(
  host: AnswerHost,
  ctx: RequestContext,
  route: RouteState | undefined,
  signature: SignatureRecord | undefined,
  body: Buffer,
): void {
  const { entry: e, res } = ctx;
  if (res.destroyed) return;
  if (enforced(host, route)) {
    const s = signature ?? (Entry.settle(e), e.signature);
    if (s.verdict !== 'valid') {
      // HOST-3: a host that fails signature verification answers 401
      e.unmatched = `enforce: signature verdict '${s.verdict}' (${s.reason}), answered 401 before any script`;
      sendJson(e, res, 401, { error: 'signature verification failed' });
      return;
    }
  }
  if (host.book.size === 0) e.unmatched = 'no scripts loaded';
  else {
    Entry.settle(e); // scripts match on the addressing fields
    // built field by field: conditional spreads cost microseconds per request on node 20
    const subject: MatchSubject = { path: e.path, method: e.method, kind: e.kind };
    if (e.event !== undefined) subject.event = e.event;
    if (e.deliveryId !== undefined) subject.deliveryId = e.deliveryId;
    if (e.endUserHandle !== undefined) subject.endUserHandle = e.endUserHandle;
    if (e.attempt !== undefined) subject.attempt = e.attempt;
    const pick = host.book.pick(subject);
    if (pick.kind === 'step') {
      e.step = { script: pick.script, index: pick.index, explain: pick.explain };
      const step: StepContext = { entry: e, res, refuseFor: (ms: number) => host.refuseFor(ms), timers: host.timers };
      if (route?.config.factsSchema) step.factsSchema = route.config.factsSchema;
      runStep(pick.step, step);
      return;
    }
    e.unmatched = pick.unmatched;
  }
  if (host.opts.forwardTo) {
    Entry.settle(e); // the forward copies the recorded headers
    void forward(e, body, host.opts.forwardTo, res);
    return;
  }
  if (!route) {
    sendJson(e, res, 404, { error: `no route at ${e.path} on this mock host` });
    return;
  }
  if (route.config.kind === 'facts') sendJson(e, res, 200, route.config.defaultFacts ?? {});
  else sendOk(e, res);
}

/** The body could not be read: record why, and answer it (413, 400) unless the client is gone. */
export function bodyFailed(host: AnswerHost, ctx: RequestContext, error: BodyError): void {
  const e = ctx.entry;
  const p = ctx.pending;
  if (!p.head) p.settler.head(e, p);
  p.analysed = true;
  fillBody(e, undefined);
  e.parseError = error.message;
  e.bodySize = ctx.received;
  host.journal.emit(e, 'body');
  if (error.reason === 'aborted') return; // nobody to answer
  sendJson(
    e,
    ctx.res,
    error.statusCode,
    { error: e.parseError },
    error.statusCode === 413 ? { connection: 'close' } : {},
  );
}
