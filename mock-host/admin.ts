/**
 * The admin HTTP API under /__admin/: read the journal (JSON, JSON Lines, deliveries), load and
 * clear scripts (JSON or YAML), add routes, reset; the inspector page, its event stream and replay
 * (ui/). Admin requests are never journaled.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ccsError, errorAnswer, isCcsError } from '../spec/index.ts';
import { validateRoute } from './routes.ts';
import { parseScripts } from './scripts/definitions.ts';
import { explainScript } from './scripts/explain.ts';
import type { EntryFilter, EntryKind, JournalEntry, RouteConfig } from './types.ts';
import type { AdminHost } from './admin-host.ts';
import { broadcast, registerEvents } from './ui/events.ts';
import { GroupIndex } from './ui/group-index.ts';
import { ReplayLog } from './ui/replay.ts';
import { registerInspector } from './ui/routes.ts';

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function filterFromQuery(q: Record<string, unknown>): { filter: EntryFilter; since: number; limit: number } {
  const filter: EntryFilter = {};
  for (const k of ['path', 'event', 'deliveryId', 'method', 'endUserHandle', 'workspaceKey'] as const) {
    const v = str(q[k]);
    if (v !== undefined) filter[k] = v;
  }
  const kind = str(q.kind);
  if (kind !== undefined) filter.kind = kind as EntryKind;
  const since = Number(str(q.since) ?? 0);
  const limit = Number(str(q.limit) ?? Infinity);
  return { filter, since: Number.isFinite(since) ? since : 0, limit: limit > 0 ? limit : Infinity };
}

/** The entries a query asks for: filters, after seq `since`, at most `limit` of them (oldest first). */
function select(host: AdminHost, q: Record<string, unknown>): JournalEntry[] {
  const { filter, since, limit } = filterFromQuery(q);
  const list = host.journal.entries(since > 0 ? { ...filter, predicate: (e) => e.seq > since } : filter);
  return list.length > limit ? list.slice(0, limit) : list;
}

function badRequest(reply: FastifyReply, error: unknown): FastifyReply {
  const e = isCcsError(error) ? error : ccsError('MOCKHOST_ADMIN_BAD_REQUEST', { problem: (error as Error).message });
  return reply.code(400).send(errorAnswer(e));
}

function bodyText(body: unknown): string {
  return Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : '';
}

export function registerAdmin(app: FastifyInstance, host: AdminHost): void {
  // the live inspector: GET /__admin/events (SSE), /__admin/ui, POST /__admin/replay/:id
  const replays = new ReplayLog();
  const groups = new GroupIndex(host.journal);
  app.addHook('onClose', async () => groups.close());
  registerEvents(app, host);
  registerInspector(app, host, replays, groups);

  app.get('/__admin/journal', async (req) => {
    const q = req.query as Record<string, unknown>;
    return { entries: select(host, q), dropped: host.journal.dropped };
  });

  app.get('/__admin/journal.jsonl', async (req, reply) => {
    const lines = select(host, req.query as Record<string, unknown>).map((e) => JSON.stringify(e));
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    return lines.length ? lines.join('\n') + '\n' : '';
  });

  app.get('/__admin/deliveries', async (req) => {
    const { filter } = filterFromQuery(req.query as Record<string, unknown>);
    const out: Record<string, JournalEntry[]> = {};
    for (const [id, list] of host.journal.deliveries(filter)) out[id] = list;
    return { deliveries: out };
  });

  app.get('/__admin/scripts', async () => ({
    scripts: host.scripts().map((s) => ({ ...s, explain: explainScript(s) })),
  }));

  app.post('/__admin/scripts', async (req, reply) => {
    try {
      const scripts = parseScripts(bodyText(req.body));
      host.script(scripts);
      return { loaded: scripts.length, scripts: scripts.map((s) => ({ id: s.id, explain: explainScript(s) })) };
    } catch (error) {
      return badRequest(reply, error);
    }
  });

  app.delete('/__admin/scripts', async () => {
    host.clearScripts();
    return { cleared: true };
  });

  app.post('/__admin/reset', async () => {
    host.reset();
    replays.clear();
    groups.reset();
    broadcast(host, 'reset', {});
    return { reset: true };
  });

  app.get('/__admin/routes', async () => ({
    // signing secrets never leave the process
    routes: host.listRoutes().map((r) => ({ ...r, ...(r.signing ? { signing: { mode: r.signing.mode } } : {}) })),
  }));

  app.post('/__admin/routes', async (req, reply) => {
    try {
      const text = bodyText(req.body);
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        const problem = 'body must be JSON: a route { kind, path, ... } or a list of them';
        throw ccsError('MOCKHOST_ADMIN_BAD_REQUEST', { problem });
      }
      const list = (Array.isArray(data) ? data : [data]).map((r, i) => validateRoute(r, `routes[${i}]`));
      list.forEach((r: RouteConfig) => host.addRoute(r));
      return { added: list.map((r) => ({ kind: r.kind, path: r.path })) };
    } catch (error) {
      return badRequest(reply, error);
    }
  });

  app.delete('/__admin/routes', async (req, reply) => {
    const path = str((req.query as Record<string, unknown>).path);
    if (!path)
      return badRequest(reply, ccsError('MOCKHOST_ADMIN_BAD_REQUEST', { problem: 'query parameter path is required' }));
    host.removeRoute(path);
    return { removed: path };
  });
}
