/**
 * How a request's message is framed and carried (HOST-27). RFC 9112 6.1 and 6.3: a body is framed by
 * Content-Length or by the chunked transfer coding, the sender's choice in HTTP/1.1, and 7.1: a recipient
 * MUST be able to parse chunked. RFC 9112 9.3: HTTP/1.1 connections persist by default, so a request may
 * come on a connection an earlier request used, or on a new one.
 */
import http from 'node:http';
import type { Draw } from './seed.ts';

export const FRAMINGS = ['content-length', 'chunked'] as const;
export type Framing = (typeof FRAMINGS)[number];

export const CONNECTIONS = ['new', 'reused'] as const;
export type Connection = (typeof CONNECTIONS)[number];

export interface CarryForm {
  framing: Framing;
  connection: Connection;
  /** chunked: the body's bytes are cut into this many chunks (at most one a byte). */
  chunks: number;
}

export function drawCarryForm(d: Draw): CarryForm {
  return { framing: d.pick(FRAMINGS), connection: d.pick(CONNECTIONS), chunks: 1 + d.int(3) };
}

/**
 * The persistent connections of this worker. An idle connection is closed after a second, well
 * before any common server's keep-alive timeout (Node's 5 s), so a request never goes out on a
 * connection the receiver is closing (a reset that would be the harness's, not the receiver's).
 */
export const REUSING_AGENT = new http.Agent({ keepAlive: true, timeout: 1_000, maxFreeSockets: 8 });

/** The body cut into `n` chunks of about equal size (each write() of a chunked request is one chunk). */
export function chunksOf(body: Buffer, n: number): Buffer[] {
  const count = Math.max(1, Math.min(n, body.length));
  const size = Math.ceil(body.length / count);
  const out: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) out.push(body.subarray(i, i + size));
  return out.length === 0 ? [body] : out;
}

export function carryInWords(c: CarryForm): string {
  const framing =
    c.framing === 'chunked' ? `chunked (${c.chunks} chunk${c.chunks === 1 ? '' : 's'})` : 'Content-Length';
  return `${framing}, ${c.connection} connection`;
}
