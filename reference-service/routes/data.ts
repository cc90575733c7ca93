/**
 * The data API (4.2, 7): GET|POST /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}[/{serviceKey}].
 * configEnd is written without its leading slash in the path (UNSPEC-9); the percent-encoded form
 * with the slash (%2Fprofile) is accepted too. Order of decisions: PUT 405, auth (401/403), org-
 * handle 400, class 404, migration hold 409, then the route's own rules.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityConflictBody, MigratingConflictBody } from '../../spec/index.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { authorize } from '../auth.ts';
import { bindRecord, binds } from '../binding.ts';
import type { ServiceContext } from '../context.ts';
import { savedPayload } from '../events.ts';
import { sendError } from '../http-errors.ts';
import { classesOf, type ClassDef, type Conversation, type StoredRecord, type Workspace } from '../model.ts';

interface DataParams {
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  serviceKey?: string;
}

export function normalizeConfigEnd(raw: string): string {
  let v = raw;
  try {
    v = decodeURIComponent(raw);
  } catch {
    // keep the raw value; it will not name a class
  }
  return v.startsWith('/') ? v : `/${v}`;
}

const MIGRATING: MigratingConflictBody = { status: 'migrating', message: 'The record is held mid-migration; retry shortly.' }; // ERR-2

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function registerData(app: FastifyInstance, ctx: ServiceContext): void {
  const f = ctx.faults;
  const base = '/api/:workspaceKey/endpoints/:configEnd/data/:endUserHandle';

  // DATA-5: PUT is not supported (nor any method but GET and POST).
  for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
    for (const url of [base, `${base}/:serviceKey`]) {
      app.route({ method, url, handler: async (req, reply) => {
        if (method === 'PUT' && f.has('put-answers-404')) return sendError(req, reply, 404, f);
        reply.header('Allow', 'GET, POST');
        return sendError(req, reply, 405, f);
      } });
    }
  }

  /** Auth, org- handle and class, in that order; answers the error itself and returns undefined. */
  function prelude(req: FastifyRequest<{ Params: DataParams }>, reply: FastifyReply, allowAnonymous = false): { ws: Workspace; cls: ClassDef } | undefined {
    const p = req.params;
    let ws: Workspace | undefined;
    if (allowAnonymous && req.headers.authorization === undefined) {
      ws = ctx.workspaces.get(p.workspaceKey); // AUTH-1 broken on purpose (data-get-by-key-without-bearer)
      if (!ws) {
        sendError(req, reply, 401, f);
        return undefined;
      }
    } else {
      const auth = authorize(ctx, req, p.workspaceKey, 'bearer');
      if (!auth.ok) {
        sendError(req, reply, auth.status, f);
        return undefined;
      }
      ws = auth.ws;
    }
    if (p.endUserHandle.startsWith(CONTRACT.reservedHandlePrefix)) {
      sendError(req, reply, 400, f); // DATA-6
      return undefined;
    }
    const cls = classesOf(ws).get(normalizeConfigEnd(p.configEnd));
    if (!cls || cls.kind === 'FACTS') {
      sendError(req, reply, 404, f); // DATA-10, FACTS-13
      return undefined;
    }
    return { ws, cls };
  }

  function envelopeOf(cls: ClassDef, r: StoredRecord): Record<string, unknown> {
    return { ...bindRecord(cls, r, f) };
  }

  app.get<{ Params: DataParams }>(base, async (req, reply) => {
    const pre = prelude(req, reply);
    if (!pre) return reply;
    const records = ctx.recordsOf(pre.ws, pre.cls.configEnd, req.params.endUserHandle);
    if (pre.cls.kind === 'SETTING') {
      const r = records[0];
      // DATA-1 broken on purpose by setting-read-after-chat-delete: the slot stays deleted for reads.
      const tombstoned = f.has('setting-read-after-chat-delete') && ctx.deletedSettings.has(ctx.settingSlot(pre.ws.workspaceKey, pre.cls.configEnd, req.params.endUserHandle));
      if (!r || tombstoned) return sendError(req, reply, 404, f); // DATA-8
      if (r.held) return reply.code(409).send(MIGRATING); // DATA-11
      return reply.send(envelopeOf(pre.cls, r)); // DATA-1
    }
    // DATA-2: every instance, drafts included; only a held record is withheld (DATA-11).
    const dropped = (r: StoredRecord) => (f.has('list-drops-closed-drafts') && r.callbackStatus === 'PENDING' && r.trail?.closedDraft === true) || (f.has('release-keeps-withheld') && r.trail?.wasHeld === true);
    const list = records.filter((r) => !r.held && !dropped(r)).map((r) => bindRecord(pre.cls, r, f));
    return reply.send(f.has('list-drops-unbound') ? list.filter(binds) : list);
  });

  app.get<{ Params: DataParams }>(`${base}/:serviceKey`, async (req, reply) => {
    const pre = prelude(req, reply, f.has('data-get-by-key-without-bearer'));
    if (!pre) return reply;
    const r = ctx.findRecord(pre.ws, req.params.serviceKey ?? '');
    if (!r || r.configEnd !== pre.cls.configEnd || r.endUserHandle !== req.params.endUserHandle) return sendError(req, reply, 404, f); // DATA-9
    if (r.held && !f.has('held-record-read-200')) return reply.code(409).send(MIGRATING);
    return reply.send(envelopeOf(pre.cls, r)); // DATA-3
  });

  const write = async (req: FastifyRequest<{ Params: DataParams }>, reply: FastifyReply): Promise<FastifyReply> => {
    const pre = prelude(req, reply);
    if (!pre) return reply;
    const { ws, cls } = pre;
    const handle = req.params.endUserHandle;
    const body = req.body;
    // DATA-7: write body { serviceKey?: string, data: object } (UNSPEC-8).
    if (!isPlainObject(body) || !isPlainObject(body.data) || (body.serviceKey !== undefined && typeof body.serviceKey !== 'string')) return sendError(req, reply, 400, f);
    const pathKey = req.params.serviceKey;
    if (pathKey !== undefined && body.serviceKey !== undefined && body.serviceKey !== pathKey) return sendError(req, reply, 400, f);
    const key = pathKey ?? (body.serviceKey as string | undefined);
    let record: StoredRecord | undefined;
    if (key !== undefined) {
      record = ctx.findRecord(ws, key);
      if (!record || record.configEnd !== cls.configEnd || record.endUserHandle !== handle) return sendError(req, reply, 404, f); // DATA-9
    } else if (cls.kind === 'SETTING') {
      record = ctx.recordsOf(ws, cls.configEnd, handle)[0]; // DATA-13: one record per user
    }
    // DATA-11 (unkeyed-write-skips-held-setting breaks it for an unkeyed Setting write).
    if (record?.held && !(f.has('unkeyed-write-skips-held-setting') && key === undefined)) return reply.code(409).send(MIGRATING);
    const data = body.data as Record<string, unknown>;
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
    record.trail = { ...record.trail, closedDraft: false, wasHeld: false };
    if (cls.kind === 'SETTING') ctx.deletedSettings.delete(ctx.settingSlot(ws.workspaceKey, cls.configEnd, handle));
    record.callbackStatus = f.has('rest-write-delivered') ? 'DELIVERED' : 'PENDING'; // STATE-2
    record.completedAt = Date.now(); // ENV-3: the last-write time until completion
    if (f.has('saved-on-rest-write')) {
      // STATE-3 broken on purpose: a REST write is not a chat save and fires nothing.
      const conv: Conversation = { conversationId: ctx.nextConversationId(), workspace: ws, endUserHandle: handle, configEnd: cls.configEnd, state: 'open', openerLanguage: 'English', touched: [] };
      void ctx.deliverer.enqueue(ws, conv.conversationId, 'config.saved', savedPayload(ctx, conv, cls.configEnd, record.serviceKey, Object.keys(data), record.callbackStatus));
    }
    if (!created && f.has('rest-write-in-live-conversation-saved')) {
      // STATE-3 broken on purpose: a write to a record of a conversation still open goes through its chat save path.
      const live = [...ctx.conversations.values()].find((c) => c.state === 'open' && c.workspace === ws && c.touched.includes(record!.serviceKey));
      if (live) void ctx.deliverer.enqueue(ws, live.conversationId, 'config.saved', savedPayload(ctx, live, cls.configEnd, record.serviceKey, Object.keys(data), record.callbackStatus));
    }
    return reply.code(created ? 201 : 200).send({ serviceKey: record.serviceKey, ...bindRecord(cls, record, f) });
  };
  app.post<{ Params: DataParams }>(base, write);
  app.post<{ Params: DataParams }>(`${base}/:serviceKey`, write);
}
