/**
 * The harness's HTTP client: node:http with a keep-alive agent, exact control of the bytes and
 * headers sent (a property test must send exactly the generated body), bodies given as bytes or
 * as a generator of chunks with a known Content-Length (uploads of 25-30 MB are streamed).
 * Every request has a deadline: a target that never answers fails the test, never hangs it.
 */
import http from 'node:http';
import https from 'node:https';
import { ccsError, CcsError } from '../../spec/index.ts';

export interface StreamBody {
  length: number;
  chunks: () => Iterable<Uint8Array>;
}
export interface RawRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | StreamBody;
  timeoutMs?: number;
}
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  json: unknown;
  elapsedMs: number;
}

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function isStream(b: RawRequest['body']): b is StreamBody {
  return typeof b === 'object' && b !== null && !(b instanceof Uint8Array) && 'chunks' in b;
}

export function sendRaw(r: RawRequest): Promise<RawResponse> {
  const url = new URL(r.url);
  const mod = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string | number> = { ...(r.headers ?? {}) };
  const lower = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
  let bytes: Uint8Array | undefined;
  if (typeof r.body === 'string') bytes = Buffer.from(r.body, 'utf8');
  else if (r.body instanceof Uint8Array) bytes = r.body;
  const length = bytes ? bytes.byteLength : isStream(r.body) ? r.body.length : undefined;
  if (length !== undefined && !lower.has('content-length')) headers['content-length'] = length;
  const timeoutMs = r.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const started = performance.now();
  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    const req = mod.request(
      url,
      { method: r.method, headers, agent: url.protocol === 'https:' ? httpsAgent : httpAgent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => finish(e));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          let json: unknown;
          if (text.length > 0) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          finish(undefined, {
            status: res.statusCode ?? 0,
            headers: flatHeaders(res.headers),
            body,
            text,
            json,
            elapsedMs: performance.now() - started,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(ccsError('TARGET_REQUEST_TIMEOUT', { method: r.method, path: url.pathname, timeoutMs }));
    }, timeoutMs);
    function finish(error?: Error, value?: RawResponse) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (value) resolve(value);
      else
        reject(
          error instanceof CcsError
            ? error
            : ccsError('TARGET_REQUEST_FAILED', {
                method: r.method,
                path: url.pathname,
                reason: error?.message ?? 'request failed',
              }),
        );
    }
    // A server may answer (413) and close before the whole body is written: the answer wins
    // over the write error (EPIPE / ECONNRESET) when it arrives.
    req.on('error', (e) => setTimeout(() => finish(e), 50));
    if (bytes) req.end(bytes);
    else if (isStream(r.body)) writeStream(req, r.body).catch(() => undefined);
    else req.end();
  });
}

async function writeStream(req: http.ClientRequest, body: StreamBody): Promise<void> {
  for (const chunk of body.chunks()) {
    if (req.destroyed) return;
    if (!req.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          req.off('drain', done);
          req.off('close', done);
          resolve();
        };
        req.once('drain', done);
        req.once('close', done);
      });
    }
  }
  if (!req.destroyed) req.end();
}
