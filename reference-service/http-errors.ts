/**
 * Error bodies exactly the framework default of section 7 (ERR-1): timestamp, status, error (the
 * reason phrase) and path, nothing else. The two 409 bodies are the only exceptions (ERR-2/3).
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../spec/index.ts';
import type { FaultSet } from './faults.ts';

export function errorBody(status: number, url: string, faults?: FaultSet): Record<string, unknown> {
  const q = url.indexOf('?');
  const body: ErrorBody = {
    timestamp: new Date().toISOString(),
    status,
    error: STATUS_CODES[status] ?? 'Error',
    path: q >= 0 ? url.slice(0, q) : url,
  };
  // ERR-1 broken on purpose: a member the default body does not have.
  if (faults?.has('not-found-with-message')) return { ...body, message: `${body.error} at ${body.path}` };
  return { ...body };
}

export function sendError(req: FastifyRequest, reply: FastifyReply, status: number, faults?: FaultSet): FastifyReply {
  return reply.code(status).type('application/json').send(errorBody(status, req.url, faults));
}
