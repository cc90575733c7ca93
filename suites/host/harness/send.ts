/**
 * Raw HTTP requests to the receiver under test, with a hard deadline: a receiver that hangs or
 * refuses connections yields a recorded outcome (timeout / connect error), never a hung run.
 * node:http rather than fetch so the bytes sent are exactly the bytes signed (HOST-4).
 */
import http from 'node:http';
import https from 'node:https';
import { curlLine } from '../../shared/curl.ts';
import { noAnswerHint as sharedNoAnswerHint } from '../../shared/index.ts';

export interface SendRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Whole-request deadline; the contract's 10 s for callbacks and facts (DELIV-3, FACTS). */
  timeoutMs: number;
}

export interface SendOutcome {
  method: string;
  url: string;
  /** HTTP status, or undefined when no answer came. */
  status?: number;
  body?: string;
  /** Monotonic ms from sending to the response head (or to the failure). */
  elapsedMs: number;
  /** 'timeout' when nothing came within timeoutMs; 'connect' for a refused/reset connection. */
  failure?: 'timeout' | 'connect';
  error?: string;
  headersSent: Record<string, string>;
  /** The exact bytes sent (POST), for the curl line. */
  bodySent?: Buffer;
}

export function send(r: SendRequest): Promise<SendOutcome> {
  const started = performance.now();
  const u = new URL(r.url);
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let done = false;
    const finish = (
      o: Omit<SendOutcome, 'elapsedMs' | 'method' | 'url' | 'headersSent' | 'bodySent'>,
      elapsedMs = performance.now() - started,
    ) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({
        method: r.method,
        url: r.url,
        headersSent: r.headers,
        ...(r.body !== undefined ? { bodySent: r.body } : {}),
        elapsedMs,
        ...o,
      });
    };
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = r.body.length;
    let req: http.ClientRequest;
    try {
      req = lib.request(u, { method: r.method, headers, agent: false }, onResponse);
    } catch (e) {
      // A header Node refuses to send (a non-ASCII value): recorded, never thrown.
      resolve({
        method: r.method,
        url: r.url,
        headersSent: r.headers,
        elapsedMs: 0,
        failure: 'connect',
        error: (e as Error).message,
      });
      return;
    }
    function onResponse(res: http.IncomingMessage): void {
      const headAt = performance.now() - started;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (chunks.length < 64) chunks.push(c);
      });
      res.on('end', () => finish({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }, headAt));
      res.on('error', () => finish({ status: res.statusCode }, headAt));
    }
    const timer = setTimeout(() => {
      finish({ failure: 'timeout', error: `no answer within ${r.timeoutMs} ms` });
      req.destroy();
    }, r.timeoutMs);
    req.on('error', (e) => finish({ failure: 'connect', error: e.message }));
    req.end(r.body);
  });
}

/**
 * Sends the requests, at most `limit` at a time: a burst of a hundred callbacks at once would time the
 * harness's own queue, not the receiver's answer (HOST-2 is timed per request). After a request gets
 * no answer the rest are not sent (undefined), so a hanging receiver costs one deadline, not one a lane.
 */
export async function inLanes<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<SendOutcome>,
): Promise<Array<SendOutcome | undefined>> {
  const out: Array<SendOutcome | undefined> = new Array(items.length).fill(undefined);
  let next = 0;
  let stopped = false;
  const lane = async (): Promise<void> => {
    while (!stopped && next < items.length) {
      const i = next++;
      const o = await fn(items[i]!);
      out[i] = o;
      if (!answered(o)) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

export function isAck(o: SendOutcome): boolean {
  return o.status !== undefined && o.status >= 200 && o.status < 300;
}

/**
 * An HTTP answer came. A refused, reset or timed-out connection is no answer: never a refusal,
 * never "answered in time" (PITFALLS "Evidence").
 */
export function answered(o: SendOutcome): boolean {
  return o.status !== undefined;
}

/**
 * The hint of a check whose request got no answer: the transport explains it, so no library hint
 * of the fault models is shown (the check's own hint replaces its row's).
 */
export function noAnswerHint(o: SendOutcome, field: string): string {
  const at = { origin: new URL(o.url).origin, field, ...(o.error !== undefined ? { error: o.error } : {}) };
  return sharedNoAnswerHint(o.failure === 'timeout' ? 'timeout' : 'refused', at);
}

/**
 * One line a human can paste to replay the request exactly: every header whole, the body inline.
 * Nothing here is a secret (a signature is not; the HMAC secret never travels).
 */
export function curlOf(o: SendOutcome): string {
  return curlLine({
    method: o.method,
    url: o.url,
    headers: o.headersSent,
    ...(o.bodySent !== undefined ? { body: o.bodySent } : {}),
  });
}

export function describe(o: SendOutcome): string {
  if (o.failure === 'timeout')
    return `${o.method} ${o.url}: no answer within the deadline (${Math.round(o.elapsedMs)} ms)`;
  if (o.failure === 'connect') return `${o.method} ${o.url}: connection failed (${o.error ?? 'error'})`;
  return `${o.method} ${o.url}: ${o.status} after ${Math.round(o.elapsedMs)} ms`;
}
