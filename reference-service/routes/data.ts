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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataApiForms, DataPathParts, IdentityConflictBody, MigratingConflictBody } from '../../spec/index.ts';
import { DEFAULT_DATA_API_FORMS, parseDataApiTail, readWriteBody } from '../../spec/index.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { authorize } from '../auth.ts';
import { bindRecord, binds } from '../binding.ts';
import type { ServiceContext } from '../context.ts';
import { savedPayload } from '../events.ts';
import { sendError } from '../http-errors.ts';
import { classesOf, type ClassDef, type Conversation, type StoredRecord, type Workspace } from '../model.ts';

const MIGRATING: MigratingConflictBody = { status: 'migrating', message: 'The record is held mid-migration; retry shortly.' }; // ERR-2

/** The default forms' body: { serviceKey?: string, data: object } (DATA-7 otherwise). */
const DEFAULT_BODY_FORMS: DataApiForms = { ...DEFAULT_DATA_API_FORMS, keyedWrite: 'body', keyField: 'serviceKey', writeBody: 'data' };

/** The raw path after /api/{workspaceKey}/endpoints/ (still percent-encoded), or undefined. */
function endpointsTail(url: string): string | undefined {
  const q = url.indexOf('?');
  const path = q >= 0 ? url.slice(0, q) : url;
  const m = /^\/api\/[^/]+\/endpoints\/(.*)$/.exec(path);
  return m ? m[1] : undefined;
}

export function registerData(app: FastifyInstance, ctx: ServiceContext, forms?: DataApiForms): void {
  const f = ctx.faults;

  /** The readings of a data path in the forms served; the one whose configEnd names a class of the workspace wins. */
  function readPath(url: string, ws?: Workspace): DataPathParts | undefined {
    const tail = endpointsTail(url);
    if (tail === undefined) return undefined;
    const readings = forms ? parseDataApiTail(tail, forms.configEnd) : [...parseDataApiTail(tail, 'without-slash'), ...parseDataApiTail(tail, 'encoded')];
    if (ws) {
      const classes = classesOf(ws);
      const named = readings.find((r) => classes.has(r.configEnd));
      if (named) return named;
    }
    return readings[0];
  }

  /** Auth, org- handle and class, in that order; answers the error itself and returns undefined. */
  function prelude(req: FastifyRequest<{ Params: { workspaceKey: string } }>, reply: FastifyReply, allowAnonymous = false): { ws: Workspace; cls: ClassDef; at: DataPathParts } | undefined {
    const workspaceKey = req.params.workspaceKey;
    let ws: Workspace | undefined;
    if (allowAnonymous && req.headers.authorization === undefined) {
      ws = ctx.workspaces.get(workspaceKey); // AUTH-1 broken on purpose (data-get-by-key-without-bearer)
      if (!ws) {
        sendError(req, reply, 401, f);
        return undefined;
      }
    } else {
      const auth = authorize(ctx, req, workspaceKey, 'bearer');
      if (!auth.ok) {
        sendError(req, reply, auth.status, f);
        return undefined;
      }
      ws = auth.ws;
    }
    const at = readPath(req.url, ws);
    if (!at) {
      sendError(req, reply, 404, f);
      return undefined;
    }
    if (at.endUserHandle.startsWith(CONTRACT.reservedHandlePrefix)) {
      sendError(req, reply, 400, f); // DATA-6
      return undefined;
    }
    const cls = classesOf(ws).get(at.configEnd);
    if (!cls || cls.kind === 'FACTS') {
      sendError(req, reply, 404, f); // DATA-10, FACTS-13
      return undefined;
    }
    return { ws, cls, at };
  }

  function envelopeOf(cls: ClassDef, r: StoredRecord): Record<string, unknown> {
    return { ...bindRecord(cls, r, f) };
  }

  async function list(req: FastifyRequest<{ Params: { workspaceKey: string } }>, reply: FastifyReply): Promise<FastifyReply> {
    const pre = prelude(req, reply);
    if (!pre) return reply;
    const records = ctx.recordsOf(pre.ws, pre.cls.configEnd, pre.at.endUserHandle);
    if (pre.cls.kind === 'SETTING') {
      const r = records[0];
      if (!r) return sendError(req, reply, 404, f); // DATA-8
      if (r.held) return reply.code(409).send(MIGRATING); // DATA-11
      return reply.send(envelopeOf(pre.cls, r)); // DATA-1
    }
    // DATA-2: every instance, drafts included; only a held record is withheld (DATA-11).
    const all = records.filter((r) => !r.held).map((r) => bindRecord(pre.cls, r, f));
    return reply.send(f.has('list-drops-unbound') ? all.filter(binds) : all);
  }

  async function getByKey(req: FastifyRequest<{ Params: { workspaceKey: string } }>, reply: FastifyReply): Promise<FastifyReply> {
    const pre = prelude(req, reply, f.has('data-get-by-key-without-bearer'));
    if (!pre) return reply;
    const r = ctx.findRecord(pre.ws, pre.at.serviceKey ?? '');
    if (!r || r.configEnd !== pre.cls.configEnd || r.endUserHandle !== pre.at.endUserHandle) return sendError(req, reply, 404, f); // DATA-9
    if (r.held && !f.has('held-record-read-200')) return reply.code(409).send(MIGRATING);
    return reply.send(envelopeOf(pre.cls, r)); // DATA-3
  }

  async function write(req: FastifyRequest<{ Params: { workspaceKey: string } }>, reply: FastifyReply): Promise<FastifyReply> {
    const pre = prelude(req, reply);
    if (!pre) return reply;
    const { ws, cls } = pre;
    const handle = pre.at.endUserHandle;
    // DATA-7: a body that is malformed in the forms served (UNSPEC-8).
    const body = readWriteBody(req.body, forms ?? DEFAULT_BODY_FORMS);
    if (!body) return sendError(req, reply, 400, f);
    const pathKey = pre.at.serviceKey;
    if (pathKey !== undefined && body.serviceKey !== undefined && body.serviceKey !== pathKey) return sendError(req, reply, 400, f);
    const key = pathKey ?? body.serviceKey;
    let record: StoredRecord | undefined;
    if (key !== undefined) {
      record = ctx.findRecord(ws, key);
      if (!record || record.configEnd !== cls.configEnd || record.endUserHandle !== handle) return sendError(req, reply, 404, f); // DATA-9
    } else if (cls.kind === 'SETTING') {
      record = ctx.recordsOf(ws, cls.configEnd, handle)[0]; // DATA-13: one record per user
    }
    if (record?.held) return reply.code(409).send(MIGRATING); // DATA-11
    const data = body.fields;
    if (cls.kind === 'LIST' && cls.identityField && data[cls.identityField] !== undefined) {
      const value = JSON.stringify(data[cls.identityField]);
      const holder = ctx.recordsOf(ws, cls.configEnd, handle).find((r) => r !== record && JSON.stringify(r.values[cls.identityField!]) === value);
      if (holder) {
        const conflict: IdentityConflictBody = { code: 'IDENTITY_CONFLICT', identityField: cls.identityField, existingKey: holder.serviceKey };
        // ERR-3 broken on purpose by identity-conflict-no-existing-key.
        const { existingKey: _dropped, ...withoutKey } = conflict;
        return reply.code(409).send(f.has('identity-conflict-no-existing-key') ? withoutKey : conflict); // DATA-12, ERR-3
      }
    }
    const created = record === undefined;
    if (!record) {
      record = { serviceKey: ctx.newServiceKey(), workspaceKey: ws.workspaceKey, configEnd: cls.configEnd, endUserHandle: handle, values: {}, callbackStatus: 'PENDING', completedAt: Date.now(), held: false };
      ctx.records.set(record.serviceKey, record);
    }
    Object.assign(record.values, data);
    record.callbackStatus = f.has('rest-write-delivered') ? 'DELIVERED' : 'PENDING'; // STATE-2
    record.completedAt = Date.now(); // ENV-3: the last-write time until completion
    if (f.has('saved-on-rest-write')) {
      // STATE-3 broken on purpose: a REST write is not a chat save and fires nothing.
      const conv: Conversation = { conversationId: ctx.nextConversationId(), workspace: ws, endUserHandle: handle, configEnd: cls.configEnd, state: 'open', openerLanguage: 'English', touched: [] };
      void ctx.deliverer.enqueue(ws, conv.conversationId, 'config.saved', savedPayload(ctx, conv, cls.configEnd, record.serviceKey, Object.keys(data), record.callbackStatus));
    }
    return reply.code(created ? 201 : 200).send({ serviceKey: record.serviceKey, ...bindRecord(cls, record, f) });
  }

  app.route<{ Params: { workspaceKey: string } }>({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/:workspaceKey/endpoints/*',
    handler: async (req, reply) => {
      // A path that is no data route in the forms served is a route the service does not have.
      const shape = readPath(req.url);
      if (!shape) return sendError(req, reply, 404, f);
      const byKey = shape.serviceKey !== undefined;
      // DATA-5: PUT is not supported (nor any method but GET and POST).
      if (req.method !== 'GET' && req.method !== 'POST') {
        if (req.method === 'PUT' && f.has('put-answers-404')) return sendError(req, reply, 404, f);
        reply.header('Allow', byKey && forms?.keyedWrite === 'body' ? 'GET' : 'GET, POST');
        return sendError(req, reply, 405, f);
      }
      if (req.method === 'GET') return byKey ? getByKey(req, reply) : list(req, reply);
      // A service whose keyed write carries its key in the body has no POST by key.
      if (byKey && forms?.keyedWrite === 'body') {
        reply.header('Allow', 'GET');
        return sendError(req, reply, 405, f);
      }
      return write(req, reply);
    },
  });
}
