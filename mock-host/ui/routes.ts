/**
 * The inspector page and the admin routes it reads: the page's files under /__admin/ui, group
 * pages (/__admin/groups), one full entry with its curl line (/__admin/entries/:id), replay to
 * the --forward-to target (POST /__admin/replay/:id) and the page's settings (/__admin/ui/config).
 * Nothing here ever carries a configured secret: entries hold what was received, the settings
 * hold the time scale and the target's origin.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdminHost } from '../admin-host.ts';
import type { JournalEntry } from '../types.ts';
import { curlLine } from './curl.ts';
import { GroupIndex } from './group-index.ts';
import { MAX_PAGE, type GroupQuery } from './groups.ts';
import { replay, ReplayLog, safeTarget } from './replay.ts';
import { ccsError, errorAnswer } from '../../spec/index.ts';

const PAGE_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
  'inspector.js': 'text/javascript; charset=utf-8',
  'list.js': 'text/javascript; charset=utf-8',
  'detail.js': 'text/javascript; charset=utf-8',
  'timeline.js': 'text/javascript; charset=utf-8',
  'dom.js': 'text/javascript; charset=utf-8',
};

// the page's files sit beside this module, in the installed package too (PITFALLS: packaging)
function pageFile(name: string): Buffer {
  return readFileSync(new URL(`./page/${name}`, import.meta.url));
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function int(v: unknown, fallback: number): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

function queryOf(q: Record<string, unknown>): GroupQuery {
  const out: GroupQuery = { offset: int(q.offset, 0), limit: Math.min(int(q.limit, 100), MAX_PAGE) };
  for (const k of ['event', 'deliveryId', 'endUserHandle', 'verdict'] as const) {
    const v = text(q[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function findEntry(host: AdminHost, id: string): JournalEntry | undefined {
  const seq = Number(id.slice(id.lastIndexOf('-') + 1));
  if (!Number.isInteger(seq)) return undefined;
  return host.journal.entries({ predicate: (e) => e.seq === seq && e.id === id })[0];
}

/** The origin the browser used, so a curl line goes where the page came from. */
function originOf(req: FastifyRequest, host: AdminHost): string {
  const h = req.headers.host;
  return typeof h === 'string' && /^[\w.\-:[\]]+$/.test(h) ? `http://${h}` : host.url;
}

function notFound(reply: FastifyReply, id: string): FastifyReply {
  return reply.code(404).send(errorAnswer(ccsError('MOCKHOST_ENTRY_UNKNOWN', { id })));
}

export function registerInspector(app: FastifyInstance, host: AdminHost, replays: ReplayLog, index: GroupIndex): void {
  const cache = new Map<string, Buffer>();
  const serve = (name: string) => async (_req: FastifyRequest, reply: FastifyReply) => {
    let body = cache.get(name);
    if (!body) cache.set(name, (body = pageFile(name)));
    reply.header('content-type', PAGE_FILES[name]!);
    reply.header('cache-control', 'no-cache');
    // the page loads only its own files and talks only to this host
    reply.header(
      'content-security-policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    );
    return reply.send(body);
  };
  app.get('/__admin/ui', serve('index.html'));
  app.get('/__admin/ui/', serve('index.html'));
  for (const name of Object.keys(PAGE_FILES)) if (name !== 'index.html') app.get(`/__admin/ui/${name}`, serve(name));

  app.get('/__admin/ui/config', async () => ({
    timeScale: host.timeScale ?? 1,
    timeScaleKnown: host.timeScale !== undefined,
    forwardTo: host.forwardTo ? safeTarget(host.forwardTo) : null,
    routes: host.listRoutes().map((r) => ({ kind: r.kind, path: r.path, signing: r.signing?.mode ?? 'host default' })),
  }));

  app.get('/__admin/groups', async (req) => {
    const q = queryOf(req.query as Record<string, unknown>);
    return { ...index.page(q), offset: q.offset, dropped: host.journal.dropped };
  });

  app.get('/__admin/entries/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const entry = findEntry(host, id);
    if (!entry) return notFound(reply, id);
    return { entry, curl: curlLine(entry, originOf(req, host)), replays: replays.of(id) };
  });

  app.post('/__admin/replay/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    if (!host.forwardTo) {
      return reply.code(409).send(errorAnswer(ccsError('MOCKHOST_REPLAY_NO_TARGET')));
    }
    const entry = findEntry(host, id);
    if (!entry) return notFound(reply, id);
    try {
      const outcome = await replay(entry, host.forwardTo);
      replays.add(outcome);
      return outcome;
    } catch (error) {
      // A CcsError keeps its code, a socket error its own (ECONNREFUSED...): the page shows what failed.
      const failed = ccsError('MOCKHOST_REPLAY_FAILED', { problem: (error as Error).message });
      return reply.code(400).send({ ...errorAnswer(failed), error: (error as { code?: string }).code ?? failed.code });
    }
  });
}
