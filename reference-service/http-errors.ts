/**
 * Error bodies exactly the framework default of section 7 (ERR-1): timestamp, status, error (the
 * reason phrase) and path, nothing else. The two 409 bodies are the only exceptions (ERR-2/3).
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultSet } from './faults.ts';

export function errorBody(status: number, url: string, faults?: FaultSet): Record<string, unknown> {
  const q = url.indexOf('?');
  const body: Record<string, unknown> = {
    timestamp: new Date().toISOString(),
    status,
    error: STATUS_CODES[status] ?? 'Error',
    path: q >= 0 ? url.slice(0, q) : url,
  };
  if (faults?.has('not-found-with-message')) body.message = `${STATUS_CODES[status] ?? 'Error'} at ${String(body.path)}`;
  return body;
}

export function sendError(req: FastifyRequest, reply: FastifyReply, status: number, faults?: FaultSet): FastifyReply {
  return reply.code(status).type('application/json').send(errorBody(status, req.url, faults));
}
