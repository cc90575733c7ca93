/**
 * The data API (4.2, 7): GET|POST /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}[/{serviceKey}].
 * How configEnd is written in the path, the path form of a keyed write and the write body are not
 * shown (UNSPEC-8, UNSPEC-9): started with declared forms (spec/data-api-forms.ts) the service
 * serves exactly those, as a service that chose them would; started without, it serves its default
 * forms: configEnd without its slash or percent-encoded with it (%2Fprofile), a keyed write with the
 * key in the path or in the body member serviceKey, and the body {"serviceKey"?: ..., "data": {...}}.
 * The path is read from the raw URL (a configEnd may hold slashes, or start with one). Order of
 * decisions: PUT 405, auth (401/403), org- handle 400, class 404, migration hold 409, then the
 * route's own rules.
 */
import type { FastifyInstance } from 'fastify';
import type { DataApiForms } from '../../spec/index.ts';
import type { ServiceContext } from '../context.ts';
import { sendError } from '../http-errors.ts';
import { readPath, type DataRoutes } from './data-path.ts';
import { getByKey, list } from './data-read.ts';
import { write } from './data-write.ts';

export function registerData(app: FastifyInstance, ctx: ServiceContext, forms?: DataApiForms): void {
  const d: DataRoutes = { ctx, forms };
  const f = ctx.faults;

  app.route<{ Params: { workspaceKey: string } }>({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/:workspaceKey/endpoints/*',
    handler: async (req, reply) => {
      // A path that is no data route in the forms served is a route the service does not have.
      const shape = readPath(d, req.url);
      if (!shape) return sendError(req, reply, 404, f);
      const byKey = shape.serviceKey !== undefined;
      // DATA-5: PUT is not supported (nor any method but GET and POST).
      if (req.method !== 'GET' && req.method !== 'POST') {
        if (req.method === 'PUT' && f.has('put-answers-404')) return sendError(req, reply, 404, f);
        reply.header('Allow', byKey && forms?.keyedWrite === 'body' ? 'GET' : 'GET, POST');
        return sendError(req, reply, 405, f);
      }
      if (req.method === 'GET') return byKey ? getByKey(d, req, reply) : list(d, req, reply);
      // A service whose keyed write carries its key in the body has no POST by key.
      if (byKey && forms?.keyedWrite === 'body') {
        reply.header('Allow', 'GET');
        return sendError(req, reply, 405, f);
      }
      return write(d, req, reply);
    },
  });
}
