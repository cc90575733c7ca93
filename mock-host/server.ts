/**
 * MockHost: a fastify server on loopback that plays the host application for a service under
 * test (4.1): lifecycle callbacks at any number of hook paths, tool routes, the facts GET;
 * anything else is recorded and answered 404. Every request is journaled on arrival, analysed
 * (bytes, JSON, schema, signature, header checks), answered by a script step or the default,
 * and completed when the response is sent or the connection ends.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { isLifecycleEvent, type JwksCache } from '../protocol/index.ts';
import { fillAddressing, fillBody } from './analyze.ts';
import { BodyError, readRawBody, type BodyState } from './body.ts';
import { headerChecks } from './checks.ts';
import { schemaVerdict, shareHeaderStrings } from './compact.ts';
import { forward } from './forward.ts';
import { JournalStore } from './journal.ts';
import { registerAdmin } from './admin.ts';
import { validateRoute } from './routes.ts';
import { loadSchemaValidator, type SchemaValidator } from './schema-port.ts';
import { validateScripts, type ResponseScript } from './scripts/definitions.ts';
import { ScriptBook, type MatchSubject } from './scripts/matcher.ts';
import { runStep, sendJson, type StepContext } from './scripts/run-step.ts';
import { factsPayload, makeVerifier, signatureHeader, type Verifier } from './verify.ts';
import type { JournalEntry, MockHostOptions, RouteConfig, SignatureRecord } from './types.ts';

const DEFAULT_BODY_LIMIT = 1024 * 1024;
// PITFALLS: a JWS header over a full 500-key bulk page is far over node's 16 KB default.
const DEFAULT_MAX_HEADER_SIZE = 1024 * 1024;

interface RouteState {
  config: RouteConfig;
  verifier: Verifier;
}

interface ReqState {
  entry: JournalEntry;
  body: BodyState;
  bodyError?: BodyError;
}

const STATE = Symbol('ccsMockHost');
type WithState = IncomingMessage & { [STATE]?: ReqState };

// arrivals within one millisecond share its ISO text (one Date and string fewer per request)
let lastIsoMs = Number.NaN;
let lastIso = '';
function isoOf(wallMs: number): string {
  if (wallMs !== lastIsoMs) {
    lastIso = new Date(wallMs).toISOString();
    lastIsoMs = wallMs;
  }
  return lastIso;
}

function analysisFailed(e: JournalEntry, error: unknown): void {
  e.parseError = `${e.parseError ? e.parseError + '; ' : ''}analysis failed: ${(error as Error).message}`;
}

function parseQuery(url: string): Record<string, string | string[]> {
  const i = url.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (i < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(i + 1))) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

export class MockHost {
  readonly journal: JournalStore;
  private readonly app: FastifyInstance;
  private readonly server: Server;
  private readonly routes = new Map<string, RouteState>();
  private readonly book = new ScriptBook();
  private readonly attemptsSeen = new Map<string, number>();
  private readonly jwksCaches = new Map<string, JwksCache>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sockets = new Set<Socket>();
  private readonly runId = randomBytes(3).toString('hex');
  private readonly opts: MockHostOptions;
  private schema: SchemaValidator | undefined;
  private refuseTimer: NodeJS.Timeout | undefined;
  private readonly refusalLog: Array<{ startMonoNs: string; endMonoNs?: string; ms: number }> = [];
  private closed = false;
  private listenHost = '127.0.0.1';
  private _port = 0;

  private constructor(o: MockHostOptions) {
    this.opts = o;
    this.journal = new JournalStore(o.maxEntries !== undefined ? { maxEntries: o.maxEntries } : {});
    const maxHeaderSize = o.maxHeaderSize ?? DEFAULT_MAX_HEADER_SIZE;
    let server: Server | undefined;
    this.app = Fastify({
      logger: false,
      bodyLimit: Number.MAX_SAFE_INTEGER, // the mock host enforces its own limit, and records it
      forceCloseConnections: true,
      return503OnClosing: false,
      serverFactory: (handler) => {
        server = createServer({ maxHeaderSize, keepAliveTimeout: 30_000, requestTimeout: 0 }, handler);
        return server;
      },
    });
    this.server = server!;
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    for (const r of o.routes ?? []) this.addRoute(r);
    if (o.scripts) this.script(o.scripts);
    this.setup();
  }

  static async start(o: MockHostOptions = {}): Promise<MockHost> {
    const host = new MockHost(o);
    host.schema = await loadSchemaValidator();
    host.listenHost = o.host ?? '127.0.0.1';
    await host.app.listen({ port: o.port ?? 0, host: host.listenHost });
    const addr = host.server.address();
    host._port = typeof addr === 'object' && addr ? addr.port : 0;
    return host;
  }

  get port(): number {
    return this._port;
  }

  get url(): string {
    const h = this.listenHost.includes(':') ? `[${this.listenHost}]` : this.listenHost;
    return `http://${h}:${this._port}`;
  }

  /** Where unscripted requests are relayed (--forward-to), if anywhere. */
  get forwardTo(): string | undefined {
    return this.opts.forwardTo;
  }

  /** The service's time scale, when the host was told one. */
  get timeScale(): number | undefined {
    return this.opts.timeScale;
  }

  addRoute(r: RouteConfig): void {
    const config = validateRoute(r);
    const signing = config.signing ?? this.opts.signing;
    this.routes.set(config.path, { config, verifier: makeVerifier(signing, this.jwksCaches) });
  }

  removeRoute(path: string): void {
    this.routes.delete(path);
  }

  listRoutes(): RouteConfig[] {
    return [...this.routes.values()].map((r) => r.config);
  }

  /** The JWKS cache this host uses for a URL (to read fetchCount), if one was made. */
  jwksCache(url: string): JwksCache | undefined {
    return this.jwksCaches.get(url);
  }

  script(s: ResponseScript | ResponseScript[]): void {
    this.book.add(validateScripts(s));
  }

  scripts(): ResponseScript[] {
    return this.book.list();
  }

  clearScripts(): void {
    this.book.clear();
  }

  reset(): void {
    this.journal.clear();
    this.book.clear();
    this.attemptsSeen.clear();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.refuseTimer) clearTimeout(this.refuseTimer);
    for (const s of this.sockets) s.destroy();
    try {
      await this.app.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') throw error;
    }
  }

  /** Stops listening for ms (callers see ECONNREFUSED), then listens again on the same port. */
  refuseFor(ms: number): void {
    if (this.closed) return;
    if (this.refuseTimer) clearTimeout(this.refuseTimer);
    else {
      this.refusalLog.push({ startMonoNs: process.hrtime.bigint().toString(), ms });
      this.server.close();
      // keep-alive sockets would let a caller through without a new connect
      for (const s of this.sockets) s.destroy();
    }
    this.refuseTimer = setTimeout(() => {
      this.refuseTimer = undefined;
      const last = this.refusalLog.at(-1);
      if (last) last.endMonoNs = process.hrtime.bigint().toString();
      if (this.closed) return;
      this.server.listen({ port: this._port, host: this.listenHost });
    }, ms);
  }

  /**
   * The windows in which the host refused connections (refuse steps): a caller's connect failures
   * in them never reach the journal, so a suite reads them here (DELIV-7 connect failure).
   */
  refusals(): Array<{ startMonoNs: string; endMonoNs?: string; ms: number }> {
    return this.refusalLog.map((r) => ({ ...r }));
  }

  private setup(): void {
    const app = this.app;
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (req: FastifyRequest, payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => {
      const st = (req.raw as WithState)[STATE];
      const state: BodyState = st?.body ?? { received: 0, done: false };
      readRawBody(payload, this.opts.bodyLimit ?? DEFAULT_BODY_LIMIT, state, (err, body) => {
        if (err && st) st.bodyError = err;
        if (err) (err as Error & { statusCode?: number }).statusCode = err.statusCode;
        done(err, body);
      });
    });

    app.addHook('onRequest', (req, reply, next) => {
      const url = req.raw.url ?? '/';
      if (url.startsWith('/__admin/') || url === '/__admin') return next();
      this.arrive(req.raw as WithState, reply.raw);
      next();
    });

    app.setErrorHandler((error, req, reply) => {
      const st = (req.raw as WithState)[STATE];
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (st) {
        const e = st.entry;
        fillBody(e, undefined);
        e.parseError = st.bodyError?.message ?? (error as Error).message;
        e.bodySize = st.body.received;
        this.journal.emit(e, 'body');
        if (st.bodyError?.reason === 'aborted') return; // nobody to answer
        sendJson(e, reply.raw, status, { error: e.parseError }, status === 413 ? { connection: 'close' } : {});
        return;
      }
      reply.code(status).send({ error: (error as Error).message });
    });

    registerAdmin(app, this);

    app.all('/*', (req, reply) => {
      reply.hijack();
      const st = (req.raw as WithState)[STATE];
      if (!st) {
        sendJson({} as JournalEntry, reply.raw, 404, { error: 'not found' });
        return;
      }
      this.handle(st, req.body as Buffer | undefined, reply.raw);
    });
    app.all('/', (req, reply) => {
      reply.hijack();
      const st = (req.raw as WithState)[STATE];
      if (st) this.handle(st, req.body as Buffer | undefined, reply.raw);
    });
  }

  private arrive(raw: WithState, res: ServerResponse): void {
    const mono = process.hrtime.bigint();
    const wallMs = Date.now();
    const url = raw.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    const seq = this.journal.allocateSeq();
    const route = this.routes.get(path);
    const te = raw.headers['transfer-encoding'];
    shareHeaderStrings(raw.rawHeaders, raw.headers);
    const entry: JournalEntry = {
      seq,
      id: `${this.runId}-${seq}`,
      arrival: { monoNs: mono.toString(), wallMs, iso: isoOf(wallMs) },
      method: raw.method ?? 'GET',
      url,
      path,
      query: parseQuery(url),
      headers: raw.headers as Record<string, string | string[]>,
      rawHeaders: raw.rawHeaders,
      bodyBase64: '',
      bodySize: 0,
      bodySha256: '',
      transfer: te !== undefined && /chunked/i.test(te) ? 'chunked' : raw.headers['content-length'] !== undefined ? 'content-length' : 'none',
      kind: route ? route.config.kind : 'unrouted',
      signature: { verdict: 'absent', mode: route?.verifier.mode ?? 'none', reason: 'not verified yet (body not read)' },
      checks: [],
    };
    const st: ReqState = { entry, body: { received: 0, done: false } };
    raw[STATE] = st;
    this.journal.add(entry);
    res.once('finish', () => {
      if (entry.response?.status === undefined) entry.response = Object.assign({}, entry.response, { status: res.statusCode });
      this.finish(entry, 'answered');
    });
    res.once('close', () => {
      if (entry.finished) return;
      const fault = entry.response?.fault;
      if (fault === 'reset' || fault === 'refuse') this.finish(entry, 'reset');
      else if (fault === 'close') this.finish(entry, 'closed');
      else if (!st.body.done && st.bodyError === undefined && entry.method !== 'GET') this.finish(entry, 'aborted-by-client');
      else if (st.bodyError?.reason === 'aborted') this.finish(entry, 'aborted-by-client');
      else this.finish(entry, 'client-closed');
    });
  }

  private finish(entry: JournalEntry, outcome: NonNullable<JournalEntry['finished']>['outcome']): void {
    if (entry.finished) return;
    entry.finished = { monoNs: process.hrtime.bigint().toString(), wallMs: Date.now(), outcome };
    this.journal.emit(entry, 'finished');
  }

  /**
   * Analyses a request whose body has been read, answers it, and says so to listeners. With a
   * synchronous verifier (HMAC, none) it all happens now; a JWKS verifier may have to fetch keys.
   */
  private handle(st: ReqState, body: Buffer | undefined, res: ServerResponse): void {
    const e = st.entry;
    const route = this.routes.get(e.path);
    let pending: Promise<SignatureRecord> | undefined;
    try {
      pending = this.analyze(e, route, body);
    } catch (error) {
      analysisFailed(e, error);
    }
    if (pending === undefined) {
      this.conclude(e, route, body, res);
      return;
    }
    void pending
      .then(
        (signature) => {
          try {
            this.afterSignature(e, route!, signature);
          } catch (error) {
            analysisFailed(e, error);
          }
        },
        (error: unknown) => analysisFailed(e, error),
      )
      .then(() => this.conclude(e, route, body, res));
  }

  /** Fills the entry up to the signature verdict; returns the verdict still to come, if any. */
  private analyze(e: JournalEntry, route: RouteState | undefined, body: Buffer | undefined): Promise<SignatureRecord> | undefined {
    fillBody(e, body);
    fillAddressing(e, this.attemptsSeen);
    if (!route) {
      e.signature = { verdict: signatureHeader(e.headers) === undefined ? 'absent' : 'unknown-kid', mode: 'none', reason: 'no route at this path: not verified' };
      return undefined;
    }
    const kind = route.config.kind;
    if (kind === 'lifecycle' || kind === 'tool') {
      const name = kind === 'tool' ? 'tool.dispatch' : isLifecycleEvent((e.json as { event?: unknown } | undefined)?.event) ? String((e.json as { event: string }).event) : undefined;
      if (this.schema) {
        if (name === undefined) e.schema = { name: 'lifecycle', valid: false, errors: [e.json === undefined ? `body is not JSON (${e.parseError ?? 'no body'})` : 'body.event is not one of the lifecycle events of section 6'] };
        else if (e.json === undefined) e.schema = { name, valid: false, errors: [`body is not JSON (${e.parseError ?? 'no body'})`] };
        else e.schema = schemaVerdict(name, this.schema(name, e.json));
      }
    }
    const header = signatureHeader(e.headers);
    const payload = kind === 'facts' ? factsPayload(e.url) : (body ?? Buffer.alloc(0));
    const signature = route.verifier.verify({ header, payload, nowSeconds: Math.floor(e.arrival.wallMs / 1000) });
    if (typeof (signature as Promise<SignatureRecord>).then === 'function') return signature as Promise<SignatureRecord>;
    this.afterSignature(e, route, signature as SignatureRecord);
    return undefined;
  }

  private afterSignature(e: JournalEntry, route: RouteState, signature: SignatureRecord): void {
    e.signature = signature;
    const declared = route.config.signing?.mode ?? this.opts.signing?.mode ?? 'unknown';
    e.checks = headerChecks({ kind: route.config.kind, method: e.method, headers: e.headers, json: e.json, signingMode: declared, query: e.query });
  }

  private conclude(e: JournalEntry, route: RouteState | undefined, body: Buffer | undefined, res: ServerResponse): void {
    this.answer(e, route, body, res);
    // after the answer is chosen, so listeners see which step answered (or why none did)
    this.journal.emit(e, 'body');
  }

  private answer(e: JournalEntry, route: RouteState | undefined, body: Buffer | undefined, res: ServerResponse): void {
    if (res.destroyed) return;
    const enforce = route?.config.enforce ?? this.opts.enforce ?? false;
    if (enforce && route && route.verifier.mode !== 'none' && e.signature.verdict !== 'valid') {
      // HOST-3: a host that fails signature verification answers 401
      e.unmatched = `enforce: signature verdict '${e.signature.verdict}' (${e.signature.reason}), answered 401 before any script`;
      sendJson(e, res, 401, { error: 'signature verification failed' });
      return;
    }
    // built field by field: conditional spreads cost microseconds per request on node 20
    const subject: MatchSubject = { path: e.path, method: e.method, kind: e.kind };
    if (e.event !== undefined) subject.event = e.event;
    if (e.deliveryId !== undefined) subject.deliveryId = e.deliveryId;
    if (e.endUserHandle !== undefined) subject.endUserHandle = e.endUserHandle;
    if (e.attempt !== undefined) subject.attempt = e.attempt;
    const pick = this.book.pick(subject);
    if (pick.kind === 'step') {
      e.step = { script: pick.script, index: pick.index, explain: pick.explain };
      const ctx: StepContext = { entry: e, res, refuseFor: (ms: number) => this.refuseFor(ms), timers: this.timers };
      if (route?.config.factsSchema) ctx.factsSchema = route.config.factsSchema;
      runStep(pick.step, ctx);
      return;
    }
    e.unmatched = pick.unmatched;
    if (this.opts.forwardTo) {
      void forward(e, body, this.opts.forwardTo, res);
      return;
    }
    if (!route) {
      sendJson(e, res, 404, { error: `no route at ${e.path} on this mock host` });
      return;
    }
    if (route.config.kind === 'facts') sendJson(e, res, 200, route.config.defaultFacts ?? {});
    else sendJson(e, res, 200, {});
  }
}
