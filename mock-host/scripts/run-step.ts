/**
 * The implementations of the script steps, on the raw node response and socket: a reset is a
 * real RST (socket.resetAndDestroy, PITFALLS), a close a real FIN, a refusal stops listening.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { buildFactsNotFitting } from '../facts-not-fitting.ts';
import type { JournalEntry } from '../types.ts';
import type { Step } from './definitions.ts';

export interface StepContext {
  entry: JournalEntry;
  res: ServerResponse;
  factsSchema?: object;
  /** Stops listening for ms, then listens again on the same port. */
  refuseFor(ms: number): void;
  /** Timers of held answers, cleared on close so nothing fires after the host is gone. */
  timers: Set<NodeJS.Timeout>;
}

export function sendJson(
  entry: JournalEntry,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  raw = false,
): void {
  if (res.destroyed || res.writableEnded) return;
  let text: string;
  if (raw && typeof body === 'string') text = body;
  else if (body === undefined) text = '';
  else text = JSON.stringify(body);
  const length = Buffer.byteLength(text, 'utf8');
  // Object.assign rather than spread: same keys and order, far cheaper per request on node 20
  entry.response = Object.assign({}, entry.response, { status });
  if (length)
    entry.response.bodyBase64 = text === '{}' ? EMPTY_OBJECT_BASE64 : Buffer.from(text, 'utf8').toString('base64');
  const h: Record<string, string | number> = Object.assign({ 'content-length': length }, headers);
  if (length && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
    h['content-type'] = 'application/json; charset=utf-8';
  res.writeHead(status, h);
  // the text as UTF-8, the same bytes as Buffer.from(text); a string lets node send head and body in one write
  res.end(text, 'utf8');
}

/** The usual answer `{}`, encoded once rather than once per journal entry. */
const EMPTY_OBJECT_BASE64 = Buffer.from('{}', 'utf8').toString('base64');

function withDelay(status: number, delayMs: number | undefined): NonNullable<JournalEntry['response']> {
  const r: NonNullable<JournalEntry['response']> = { status };
  if (delayMs) r.delayMs = delayMs;
  return r;
}

function later(ctx: StepContext, ms: number | undefined, fn: () => void): void {
  if (!ms) return fn();
  const t = setTimeout(() => {
    ctx.timers.delete(t);
    fn();
  }, ms);
  ctx.timers.add(t);
}

export function resetSocket(socket: Socket | null): void {
  if (!socket || socket.destroyed) return;
  if (typeof (socket as Socket & { resetAndDestroy?: () => void }).resetAndDestroy === 'function')
    socket.resetAndDestroy();
  else socket.destroy();
}

export function runStep(step: Step, ctx: StepContext): void {
  const { entry, res } = ctx;
  switch (step.action) {
    case 'respond':
      entry.response = withDelay(step.status, step.delayMs);
      later(ctx, step.delayMs, () => sendJson(entry, res, step.status, step.body, step.headers ?? {}, true));
      return;
    case 'hold':
      entry.response = { fault: 'hold', delayMs: step.ms };
      later(ctx, step.ms, () => sendJson(entry, res, step.thenStatus ?? 200, {}));
      return;
    case 'never':
      entry.response = { fault: 'never' };
      return;
    case 'reset':
      entry.response = { fault: 'reset' };
      resetSocket(res.socket as Socket | null);
      return;
    case 'close':
      entry.response = { fault: 'close' };
      res.socket?.end();
      return;
    case 'refuse':
      entry.response = { fault: 'refuse', delayMs: step.ms };
      resetSocket(res.socket as Socket | null);
      ctx.refuseFor(step.ms);
      return;
    case 'facts':
      entry.response = withDelay(200, step.delayMs);
      later(ctx, step.delayMs, () => sendJson(entry, res, 200, step.body, {}, true));
      return;
    case 'factsNotFitting': {
      entry.response = withDelay(200, step.delayMs);
      const body = buildFactsNotFitting(ctx.factsSchema);
      later(ctx, step.delayMs, () => sendJson(entry, res, 200, body));
      return;
    }
  }
}
