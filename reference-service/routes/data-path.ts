/**
 * The data API's path, read from the raw URL in the forms served (UNSPEC-8, UNSPEC-9), and the checks
 * every data route makes first, in the order of routes/data.ts: auth (401/403), org- handle 400, class 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataApiForms, DataPathParts } from '../../spec/index.ts';
import { parseDataApiTail } from '../../spec/index.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { authorize } from '../auth.ts';
import type { ServiceContext } from '../context.ts';
import { sendError } from '../http-errors.ts';
import { classesOf, type ClassDef, type Workspace } from '../model.ts';

/** What the data routes share: the service and the data API forms it was started with (none: its defaults). */
export interface DataRoutes {
  readonly ctx: ServiceContext;
  readonly forms: DataApiForms | undefined;
}

/** The raw path after /api/{workspaceKey}/endpoints/ (still percent-encoded), or undefined. */
function endpointsTail(url: string): string | undefined {
  const q = url.indexOf('?');
  const path = q >= 0 ? url.slice(0, q) : url;
  const m = /^\/api\/[^/]+\/endpoints\/(.*)$/.exec(path);
  return m ? m[1] : undefined;
}

/** The endUserHandle segment of a data route as sent, still percent-encoded (read by two seeded faults only). */
export function rawHandle(url: string): string {
  const path = url.split('?')[0]!;
  return path.slice(path.lastIndexOf('/data/') + '/data/'.length).split('/')[0] ?? '';
}

/** The readings of a data path in the forms served; the one whose configEnd names a class of the workspace wins. */
export function readPath(d: DataRoutes, url: string, ws?: Workspace): DataPathParts | undefined {
  const forms = d.forms;
  const tail = endpointsTail(url);
  if (tail === undefined) return undefined;
  const readings = forms
    ? parseDataApiTail(tail, forms.configEnd)
    : [...parseDataApiTail(tail, 'without-slash'), ...parseDataApiTail(tail, 'encoded')];
  if (ws) {
    const classes = classesOf(ws);
    const named = readings.find((r) => classes.has(r.configEnd));
    if (named) return named;
  }
  return readings[0];
}

/** Auth, org- handle and class, in that order; answers the error itself and returns undefined. */
export function prelude(
  d: DataRoutes,
  req: FastifyRequest<{ Params: { workspaceKey: string } }>,
  reply: FastifyReply,
  allowAnonymous = false,
): { ws: Workspace; cls: ClassDef; at: DataPathParts } | undefined {
  const { ctx } = d;
  const f = ctx.faults;
  const workspaceKey = req.params.workspaceKey;
  const read = req.method === 'GET';
  let ws: Workspace | undefined;
  if (allowAnonymous && req.headers.authorization === undefined) {
    ws = ctx.workspaces.get(workspaceKey); // AUTH-1 broken on purpose (data-get-by-key-without-bearer)
    if (!ws) {
      sendError(req, reply, 401, f);
      return undefined;
    }
  } else {
    // AUTH-1 broken on purpose by data-list-any-bearer (reads by endUserHandle only).
    const auth = authorize(
      ctx,
      req,
      workspaceKey,
      'bearer',
      read && f.has('data-list-any-bearer') && readPath(d, req.url)?.serviceKey === undefined,
    );
    if (!auth.ok) {
      sendError(req, reply, auth.status, f);
      return undefined;
    }
    ws = auth.ws;
  }
  const at = readPath(d, req.url, ws);
  if (!at) {
    sendError(req, reply, 404, f);
    return undefined;
  }
  if (at.endUserHandle.startsWith(CONTRACT.reservedHandlePrefix)) {
    sendError(req, reply, read && f.has('org-handle-read-404') ? 404 : 400, f); // DATA-6
    return undefined;
  }
  const cls = classesOf(ws).get(at.configEnd);
  // DATA-10, FACTS-13 broken on purpose: an empty list for a configEnd with no data route.
  if (
    read &&
    at.serviceKey === undefined &&
    ((!cls && f.has('unknown-configend-200')) || (cls?.kind === 'FACTS' && f.has('facts-data-route-200')))
  ) {
    reply.code(200).send([]);
    return undefined;
  }
  if (!cls || cls.kind === 'FACTS') {
    sendError(req, reply, 404, f); // DATA-10, FACTS-13
    return undefined;
  }
  return { ws, cls, at };
}
