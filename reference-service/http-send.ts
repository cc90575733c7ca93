/**
 * One outbound HTTP request with the contract's two timers (DELIV-2, DELIV-3): a connect timer
 * that ends when the socket connects, and a whole-request timer that counts the host's
 * synchronous work. On either, the request is destroyed. Every live request is tracked so that
 * close() can end it (no hanging process).
 */
import http from 'node:http';
import https from 'node:https';

export type SendOutcome =
  | { kind: 'answer'; status: number; body: Buffer }
  | { kind: 'timeout' }
  | { kind: 'connect-timeout' }
  | { kind: 'connect-failed'; code: string }
  | { kind: 'reset'; code: string };

export interface SendRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: URL;
  /** Request target exactly as sent (path and query); defaults to the URL's. */
  headers: Record<string, string>;
  body?: Buffer;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
}

export class HttpSender {
  private readonly live = new Set<http.ClientRequest>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 128 });
  private closed = false;

  send(r: SendRequest): Promise<SendOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'connect-failed', code: 'SERVICE_CLOSED' });
    return new Promise((resolve) => {
      let done = false;
      let connected = false;
      const isHttps = r.url.protocol === 'https:';
      const headers: Record<string, string> = { ...r.headers };
      if (r.body) headers['Content-Length'] = String(r.body.length);
      const req = (isHttps ? https : http).request(r.url, {
        method: r.method,
        headers,
        agent: isHttps ? this.httpsAgent : this.agent,
      });
      const finish = (o: SendOutcome): void => {
        if (done) return;
        done = true;
        clearTimeout(connectTimer);
        clearTimeout(totalTimer);
        this.live.delete(req);
        resolve(o);
      };
      // The timers start when the request gets its socket: waiting for a free socket in our own
      // per-host pool is not the host's time (DELIV-2/3 count the connect and the host's work).
      let connectTimer: NodeJS.Timeout | undefined;
      let totalTimer: NodeJS.Timeout | undefined;
      const startTimers = (): void => {
        connectTimer = setTimeout(() => {
          if (!connected) {
            finish({ kind: 'connect-timeout' });
            req.destroy();
          }
        }, r.connectTimeoutMs);
        totalTimer = setTimeout(() => {
          finish({ kind: 'timeout' });
          req.destroy();
        }, r.requestTimeoutMs);
      };
      this.live.add(req);
      req.on('socket', (socket) => {
        if (!done && totalTimer === undefined) startTimers();
        if (!socket.connecting) connected = true;
        else
          socket.once('connect', () => {
            connected = true;
          });
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => finish({ kind: 'answer', status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', (e: NodeJS.ErrnoException) => finish({ kind: 'reset', code: e.code ?? 'ERESET' }));
        res.on('aborted', () => finish({ kind: 'reset', code: 'ECONNRESET' }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        finish(
          connected
            ? { kind: 'reset', code: e.code ?? 'ERESET' }
            : { kind: 'connect-failed', code: e.code ?? 'ECONNREFUSED' },
        );
      });
      req.end(r.body);
    });
  }

  close(): void {
    this.closed = true;
    for (const req of this.live) req.destroy();
    this.live.clear();
    this.agent.destroy();
    this.httpsAgent.destroy();
  }
}
