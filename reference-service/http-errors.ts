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
  if (!faults) return body;
  if (status === 500) {
    // ERR-4 broken on purpose: the 500 body leaks what went wrong.
    if (faults.has('error-500-with-detail')) Object.assign(body, { message: 'Cannot read properties of undefined (reading \'values\')', trace: 'TypeError: Cannot read properties of undefined\n    at readRecord (routes/data.ts:42:11)' });
    return body;
  }
  // ERR-5 broken on purpose: the 503 body adds retry advice the framework default does not have.
  if (status === 503 && faults.has('unavailable-503-with-message')) body.message = 'Service temporarily unavailable; retry in a few seconds';
  else if (faults.has('not-found-with-message')) body.message = `${STATUS_CODES[status] ?? 'Error'} at ${String(body.path)}`;
  return body;
}

export function sendError(req: FastifyRequest, reply: FastifyReply, status: number, faults?: FaultSet): FastifyReply {
  return reply.code(status).type('application/json').send(errorBody(status, req.url, faults));
}
