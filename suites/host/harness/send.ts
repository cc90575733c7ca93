/**
 * Raw HTTP requests to the receiver under test, with a hard deadline: a receiver that hangs or
 * refuses connections yields a recorded outcome (timeout / connect error), never a hung run.
 * node:http rather than fetch so the bytes sent are exactly the bytes signed (HOST-4). What an outcome is,
 * and what it says, is the judge's (judge/host/exchange.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { curlLine } from '../../shared/curl.ts';
import { noAnswerHint as sharedNoAnswerHint } from '../../shared/index.ts';
import { REUSING_AGENT, chunksOf } from './wire/framing.ts';
import type { SendWire } from './wire/form.ts';
import { answered, type SendOutcome } from '../../../judge/host/index.ts';

export interface SendRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Whole-request deadline; the contract's 10 s for callbacks and facts (DELIV-3, FACTS). */
  timeoutMs: number;
  /** The header section as written and the body's framing and connection (HOST-27); default: headers as given. */
  wire?: SendWire;
}

export async function send(r: SendRequest): Promise<SendOutcome> {
  const o = await sendOnce(r);
  if (r.wire === undefined || o.failure !== 'connect' || o.reusedConnection !== true) return o;
  // A persistent connection the receiver closed while it was idle (RFC 9112 9.5) fails before any answer: the
  // request never reached the receiver, so it goes again on a new connection, as an HTTP client's would.
  const carry = { ...r.wire.carry, connection: 'new' as const };
  const words = `${r.wire.words} (sent again on a new connection: the reused one was closed)`;
  return sendOnce({ ...r, wire: { ...r.wire, carry, words } });
}

function sendOnce(r: SendRequest): Promise<SendOutcome> {
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
        headersSent: r.wire ? Object.fromEntries(r.wire.fields) : r.headers,
        ...(r.body !== undefined ? { bodySent: r.body } : {}),
        ...(r.wire ? { wire: r.wire.words, reusedConnection: req.reusedSocket } : {}),
        elapsedMs,
        ...o,
      });
    };
    const chunked = r.wire?.carry.framing === 'chunked' && r.body !== undefined;
    const headers = r.wire ? rawFields(u, r.wire, r.body) : { ...r.headers };
    if (r.body !== undefined && !Array.isArray(headers)) headers['content-length'] = String(r.body.length);
    const agent = r.wire?.carry.connection === 'reused' && u.protocol === 'http:' ? REUSING_AGENT : false;
    let req: http.ClientRequest;
    try {
      req = lib.request(u, { method: r.method, headers, agent }, onResponse);
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
    if (!chunked) req.end(r.body);
    else {
      // RFC 9112 7.1: each write() of a request without Content-Length goes out as one chunk.
      for (const c of chunksOf(r.body!, r.wire!.carry.chunks)) req.write(c);
      req.end();
    }
  });
}

/**
 * The field lines as written (Node sends an array of them as given: case, order, spacing), Host first
 * (RFC 9110 7.2), then the framing field: Content-Length, or Transfer-Encoding: chunked (RFC 9112 6.1).
 */
function rawFields(u: URL, wire: SendWire, body: Buffer | undefined): string[] {
  const lower = wire.fields.length > 0 && wire.fields[0]![0] === wire.fields[0]![0].toLowerCase();
  const lines: Array<[string, string]> = [[lower ? 'host' : 'Host', u.host], ...wire.fields];
  if (body !== undefined && wire.carry.framing === 'chunked') lines.push(['Transfer-Encoding', 'chunked']);
  else if (body !== undefined) lines.push([lower ? 'content-length' : 'Content-Length', String(body.length)]);
  return lines.flat();
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
