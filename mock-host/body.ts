/**
 * Reads a request body as raw bytes (PITFALLS: a signature covers the raw bytes; never
 * re-serialize), with the mock host's own limit, and says in words what went wrong: over the
 * limit (413), aborted mid-body. Registered as fastify's only content-type parser ('*').
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

export interface BodyState {
  /** bytes received so far (kept up to date while reading, for aborted requests) */
  received: number;
  done: boolean;
}

/** The reading state of one request body, kept on the stream so the listeners can be shared functions. */
interface Reader {
  limit: number;
  state: BodyState;
  cb: (err: BodyError | null, body?: Buffer) => void;
  declared: string | undefined;
  chunks: Buffer[];
  finished: boolean;
}

const READER = Symbol('ccsBodyReader');
type Reading = IncomingMessage & { [READER]?: Reader };

// One set of listener functions for every request (not six fresh closures per request).
function finish(payload: Reading, r: Reader, err: BodyError | null, body?: Buffer): void {
  if (r.finished) return;
  r.finished = true;
  r.state.done = true;
  payload.removeListener('data', onData);
  payload.removeListener('end', onEnd);
  payload.removeListener('error', onError);
  payload.removeListener('close', onClose);
  r.cb(err, body);
}

function onData(this: Reading, chunk: Buffer): void {
  const r = this[READER]!;
  r.state.received += chunk.length;
  if (r.state.received > r.limit) {
    this.resume();
    finish(this, r, new BodyError(`body is over the limit of ${r.limit} bytes (${r.state.received} bytes received when the limit was crossed${r.declared === undefined ? ', chunked' : ''})`, 413, 'too-large', r.state.received));
    return;
  }
  r.chunks.push(chunk);
}

function onEnd(this: Reading): void {
  const r = this[READER]!;
  finish(this, r, null, r.chunks.length === 1 ? r.chunks[0]! : Buffer.concat(r.chunks));
}

function aborted(payload: Reading, r: Reader): void {
  const of = r.declared !== undefined ? ` of ${r.declared} declared` : ' (chunked)';
  finish(payload, r, new BodyError(`request aborted by the client mid-body after ${r.state.received} bytes${of}`, 400, 'aborted', r.state.received));
}

function onError(this: Reading, e: NodeJS.ErrnoException): void {
  const r = this[READER]!;
  // node reports a client that went away mid-body as an 'aborted' ECONNRESET on the request
  if (e.code === 'ECONNRESET' || e.message === 'aborted') return aborted(this, r);
  finish(this, r, new BodyError(`request stream failed after ${r.state.received} bytes: ${e.message}`, 400, 'stream-error', r.state.received));
}

function onClose(this: Reading): void {
  if (!this.complete) aborted(this, this[READER]!);
}

export function readRawBody(
  payload: IncomingMessage,
  limit: number,
  state: BodyState,
  cb: (err: BodyError | null, body?: Buffer) => void,
): void {
  const declared = payload.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    state.done = true;
    payload.resume(); // drain what comes, the answer is 413 either way
    cb(new BodyError(`body of ${declared} bytes (declared Content-Length) is over the limit of ${limit} bytes`, 413, 'too-large', 0));
    return;
  }
  (payload as Reading)[READER] = { limit, state, cb, declared, chunks: [], finished: false };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.on('close', onClose);
}
