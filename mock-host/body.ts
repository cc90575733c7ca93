/**
 * Reads a request body as raw bytes (PITFALLS: a signature covers the raw bytes; never
 * re-serialize), with the mock host's own limit, and says in words what went wrong: over the
 * limit (413), aborted mid-body.
 */
import type { IncomingMessage } from 'node:http';

export class BodyError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly reason: 'too-large' | 'aborted' | 'stream-error',
    readonly receivedBytes: number,
  ) {
    super(message);
  }
}

/**
 * The reading state of one request body. The caller's per-request object carries it, so the
 * stream listeners are shared functions (no closures per request) and a reader of the state
 * (the close handler) sees how far the body got.
 */
export interface BodyReading {
  /** bytes received so far (kept up to date while reading, for aborted requests) */
  received: number;
  done: boolean;
  limit: number;
  declared: string | undefined;
  first: Buffer | undefined;
  more: Buffer[] | undefined;
  bodyError: BodyError | undefined;
  /** called once: the body, or why there is none */
  onBody: (r: BodyReading, err: BodyError | null, body?: Buffer) => void;
}

const READER = Symbol('ccsBodyReader');
type Reading = IncomingMessage & { [READER]?: BodyReading };

function finish(payload: Reading, r: BodyReading, err: BodyError | null, body?: Buffer): void {
  if (r.done) return;
  r.done = true;
  if (err) {
    // the stream may go on (a body over the limit is drained): nothing more of it is kept. After
    // its end nothing more comes, and what still fires (close) finds the reading done
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    payload.removeListener('close', onClose);
    payload[READER] = undefined;
    r.bodyError = err;
  }
  r.first = undefined;
  r.more = undefined;
  r.onBody(r, err, body);
}

function onData(this: Reading, chunk: Buffer): void {
  const r = this[READER]!;
  r.received += chunk.length;
  if (r.received > r.limit) {
    this.resume();
    finish(
      this,
      r,
      new BodyError(
        `body is over the limit of ${r.limit} bytes (${r.received} bytes received when the limit was crossed${r.declared === undefined ? ', chunked' : ''})`,
        413,
        'too-large',
        r.received,
      ),
    );
    return;
  }
  if (r.first === undefined) r.first = chunk;
  else (r.more ??= [r.first]).push(chunk);
}

const EMPTY = Buffer.alloc(0);

function onEnd(this: Reading): void {
  const r = this[READER]!;
  finish(this, r, null, r.more !== undefined ? Buffer.concat(r.more) : (r.first ?? EMPTY));
}

function aborted(payload: Reading, r: BodyReading): void {
  const of = r.declared !== undefined ? ` of ${r.declared} declared` : ' (chunked)';
  finish(
    payload,
    r,
    new BodyError(`request aborted by the client mid-body after ${r.received} bytes${of}`, 400, 'aborted', r.received),
  );
}

function onError(this: Reading, e: NodeJS.ErrnoException): void {
  const r = this[READER]!;
  // node reports a client that went away mid-body as an 'aborted' ECONNRESET on the request
  if (e.code === 'ECONNRESET' || e.message === 'aborted') return aborted(this, r);
  finish(
    this,
    r,
    new BodyError(`request stream failed after ${r.received} bytes: ${e.message}`, 400, 'stream-error', r.received),
  );
}

function onClose(this: Reading): void {
  if (!this.complete) aborted(this, this[READER]!);
}

export function readRawBody(payload: IncomingMessage, r: BodyReading): void {
  const declared = payload.headers['content-length'];
  r.declared = declared;
  if (declared !== undefined && Number(declared) > r.limit) {
    r.done = true;
    payload.resume(); // drain what comes, the answer is 413 either way
    r.bodyError = new BodyError(
      `body of ${declared} bytes (declared Content-Length) is over the limit of ${r.limit} bytes`,
      413,
      'too-large',
      0,
    );
    r.onBody(r, r.bodyError);
    return;
  }
  (payload as Reading)[READER] = r;
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.on('close', onClose);
}
