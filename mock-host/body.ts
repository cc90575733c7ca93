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
  const chunks: Buffer[] = [];
  let finished = false;
  const finish = (err: BodyError | null, body?: Buffer) => {
    if (finished) return;
    finished = true;
    state.done = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    payload.removeListener('close', onClose);
    cb(err, body);
  };
  const onData = (chunk: Buffer) => {
    state.received += chunk.length;
    if (state.received > limit) {
      payload.resume();
      finish(new BodyError(`body is over the limit of ${limit} bytes (${state.received} bytes received when the limit was crossed${declared === undefined ? ', chunked' : ''})`, 413, 'too-large', state.received));
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => finish(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  const aborted = () => {
    const of = declared !== undefined ? ` of ${declared} declared` : ' (chunked)';
    finish(new BodyError(`request aborted by the client mid-body after ${state.received} bytes${of}`, 400, 'aborted', state.received));
  };
  const onError = (e: NodeJS.ErrnoException) => {
    // node reports a client that went away mid-body as an 'aborted' ECONNRESET on the request
    if (e.code === 'ECONNRESET' || e.message === 'aborted') return aborted();
    finish(new BodyError(`request stream failed after ${state.received} bytes: ${e.message}`, 400, 'stream-error', state.received));
  };
  const onClose = () => {
    if (!payload.complete) aborted();
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.on('close', onClose);
}
