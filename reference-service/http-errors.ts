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
  const out: Record<string, unknown> = { ...body };
  if (!faults) return out;
  if (status === 500) {
    // ERR-4 broken on purpose: the 500 body leaks what went wrong.
    if (faults.has('error-500-with-detail'))
      Object.assign(out, {
        message: "Cannot read properties of undefined (reading 'values')",
        trace: 'TypeError: Cannot read properties of undefined\n    at readRecord (routes/data.ts:42:11)',
      });
    return out;
  }
  // ERR-5 broken on purpose: the 503 body adds retry advice the framework default does not have.
  if (status === 503 && faults.has('unavailable-503-with-message'))
    out.message = 'Service temporarily unavailable; retry in a few seconds';
  // ERR-1 broken on purpose: a member the default body does not have.
  else if (faults.has('not-found-with-message')) out.message = `${body.error} at ${body.path}`;
  return out;
}

export function sendError(req: FastifyRequest, reply: FastifyReply, status: number, faults?: FaultSet): FastifyReply {
  return reply
    .code(status)
    .type('application/json')
    .send(errorBody(status, req.url, faults));
}
