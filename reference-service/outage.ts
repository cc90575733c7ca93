/**
 * The outage switch of the driver: while a workspace is switched to 500 or 503, every contract
 * route under /api/<workspaceKey>/ answers that status before any other check, with the error
 * body of section 7. This makes observable what no documented request provokes: the 500 that
 * carries no detail (ERR-4) and the 503 of a temporarily unavailable service (ERR-5).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.ts';
import { errorBody } from './http-errors.ts';

export const OUTAGE_STATUSES = [500, 503] as const;
export type OutageStatus = (typeof OUTAGE_STATUSES)[number];

/** The workspaceKey of a contract route /api/<workspaceKey>/..., or undefined. */
function workspaceKeyOf(url: string): string | undefined {
  const m = /^\/api\/([^/?#]+)(?:[/?#]|$)/.exec(url);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

export function registerOutage(app: FastifyInstance, ctx: ServiceContext): void {
  app.addHook('onRequest', async (req, reply) => {
    if (ctx.outages.size === 0) return;
    const key = workspaceKeyOf(req.url);
    const status = key === undefined ? undefined : ctx.outages.get(key);
    if (status === undefined) return;
    return reply
      .code(status)
      .type('application/json')
      .send(errorBody(status, req.url, ctx.faults));
  });
}
