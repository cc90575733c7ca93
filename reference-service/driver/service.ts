/** Driver routes of the service as a whole: the clock, the service log, and the outage switch. */
import { badRequest } from '../workspaces.ts';
import { OUTAGE_STATUSES, type OutageStatus } from '../outage.ts';
import { bodyOf, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

export function registerServiceRoutes(d: DriverScope): void {
  const { app, ctx } = d;

  app.post(`${P}/clock/advance`, async (req) => {
    const b = bodyOf(req);
    if (typeof b.ms !== 'number' || !Number.isInteger(b.ms) || b.ms < 0)
      throw badRequest('ms', 'ms must be a non-negative integer');
    return { now: new Date(ctx.clock.advance(b.ms)).toISOString() };
  });

  app.get<{ Querystring: { since?: string } }>(`${P}/log`, async (req) => {
    const since = Number(req.query.since ?? 0);
    if (!Number.isFinite(since) || since < 0) throw badRequest('since', 'since must be a non-negative integer');
    return { lines: ctx.logLines.filter((l) => l.seq > since) };
  });

  // ERR-4, ERR-5: every contract route of the workspace answers this status until cleared (null).
  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/outage`, async (req) => {
    const ws = d.workspace(req.params.key);
    const b = bodyOf(req);
    if (b.status === null) {
      ctx.outages.delete(ws.workspaceKey);
      return { status: null };
    }
    if (!(OUTAGE_STATUSES as readonly unknown[]).includes(b.status))
      throw badRequest('status', `status must be one of ${OUTAGE_STATUSES.join(', ')} or null`);
    ctx.outages.set(ws.workspaceKey, b.status as OutageStatus);
    return { status: b.status };
  });
}
