/**
 * MockHost: a server on loopback that plays the host application for a service under test (4.1):
 * lifecycle callbacks at any number of hook paths, tool routes, the facts GET; anything else is
 * recorded and answered 404. The request pipeline has four jobs, one file each: receive
 * (receive.ts), verify (verify.ts), answer (answer.ts), record (settle.ts, journal.ts). The admin
 * API under /__admin/ is a fastify app beside it (admin.ts); admin requests are never journaled.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { JwksCache, JwksDocumentSeen } from '../protocol/index.ts';
import { registerAdmin } from './admin.ts';
import type { AdminHost } from './admin-host.ts';
import { bodyFailed, bodyRead, type AnswerHost } from './answer.ts';
import { AttemptCounter } from './attempts.ts';
import { Entry } from './entry.ts';
import type { BodyError } from './body.ts';
import { JournalStore } from './journal.ts';
import { receive, type ReceiveHost, type RequestContext } from './receive.ts';
import { validateRoute } from './routes.ts';
import { loadSchemaValidator, type SchemaValidator } from './schema-port.ts';
import { validateScripts, type ResponseScript } from './scripts/definitions.ts';
import { ScriptBook } from './scripts/matcher.ts';
import { EntrySettler, type RouteState } from './settle.ts';
import type { JournalEntry, MockHostOptions, RouteConfig } from './types.ts';
import { makeVerifier } from './verify.ts';

const DEFAULT_BODY_LIMIT = 1024 * 1024;
// PITFALLS: a JWS header over a full 500-key bulk page is far over node's 16 KB default.
const DEFAULT_MAX_HEADER_SIZE = 1024 * 1024;

function isAdmin(url: string | undefined): boolean {
  return url !== undefined && url.startsWith('/__admin') && (url.length === 8 || url.charCodeAt(8) === 0x2f); /* / */
}

export class MockHost implements ReceiveHost, AnswerHost, AdminHost {
  readonly journal: JournalStore;
  readonly routes = new Map<string, RouteState>();
  readonly book = new ScriptBook();
  readonly attempts: AttemptCounter;
  readonly timers = new Set<NodeJS.Timeout>();
  readonly opts: MockHostOptions;
  readonly settler: EntrySettler;
  readonly bodyLimit: number;
  private readonly app: FastifyInstance;
  private readonly server: Server;
  private readonly jwksCaches = new Map<string, JwksCache>();
  private readonly sockets = new Set<Socket>();
  private schema: SchemaValidator | undefined;
  private refuseTimer: NodeJS.Timeout | undefined;
  private readonly refusalLog: Array<{ startMonoNs: string; endMonoNs?: string; ms: number }> = [];
  private closed = false;
  private listenHost = '127.0.0.1';
  private _port = 0;

  private constructor(o: MockHostOptions) {
    this.opts = o;
    this.bodyLimit = o.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.attempts = new AttemptCounter();
    // a dropped entry's body is counted before it goes, so later attempts of its delivery count it
    const onDrop = (e: JournalEntry) => this.attempts.dropped(e instanceof Entry ? Entry.pendingOf(e) : undefined);
    this.journal = new JournalStore(o.maxEntries !== undefined ? { maxEntries: o.maxEntries, onDrop } : { onDrop });
    this.settler = new EntrySettler(randomBytes(3).toString('hex'), () => this.schema, this.attempts);
    const maxHeaderSize = o.maxHeaderSize ?? DEFAULT_MAX_HEADER_SIZE;
    let server: Server | undefined;
    this.app = Fastify({
      logger: false,
      bodyLimit: Number.MAX_SAFE_INTEGER,
      forceCloseConnections: true,
      return503OnClosing: false,
      serverFactory: (adminHandler) => {
        // every request but the admin API's goes straight into the pipeline (receive.ts)
        const onRequest = (req: IncomingMessage, res: ServerResponse) => {
          if (isAdmin(req.url)) adminHandler(req, res);
          else receive(this, req, res);
        };
        server = createServer({ maxHeaderSize, keepAliveTimeout: 30_000, requestTimeout: 0 }, onRequest);
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
    this.app.removeAllContentTypeParsers();
    this.app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    registerAdmin(this.app, this);
    for (const path of ['/__admin', '/__admin/*']) {
      this.app.all(path, (_req, reply) => {
        void reply.code(404).send({ error: 'not found' });
      });
    }
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
    this.routes.set(config.path, {
      config,
      verifier: makeVerifier(signing, this.jwksCaches),
      declared: signing?.mode ?? 'unknown',
    });
  }

  removeRoute(path: string): void {
    this.routes.delete(path);
  }

  listRoutes(): RouteConfig[] {
    return [...this.routes.values()].map((r) => r.config);
  }

  /** Every JWKS document this host's verifiers fetched, per URL in fetch order (SIGN-9's evidence). */
  jwksDocuments(): JwksDocumentSeen[] {
    return [...this.jwksCaches.values()].flatMap((c) => [...c.documents]);
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
    this.attempts.clear();
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

  /** The pipeline's hand-over from receive to verify and answer (receive.ts calls these). */
  bodyRead(ctx: RequestContext, body: Buffer): void {
    bodyRead(this, ctx, body);
  }

  bodyFailed(ctx: RequestContext, error: BodyError): void {
    bodyFailed(this, ctx, error);
  }
}
