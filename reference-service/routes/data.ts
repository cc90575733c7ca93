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
import { contractTimestamp } from '../clock.ts';

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

/** The endUserHandle segment of a data route as sent, still percent-encoded (read by two seeded faults only). */
function rawHandle(url: string): string {
  return url.split('?')[0]!.split('/')[6] ?? '';
}

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
    const read = req.method === 'GET';
    let ws: Workspace | undefined;
    if (allowAnonymous && req.headers.authorization === undefined) {
      ws = ctx.workspaces.get(p.workspaceKey); // AUTH-1 broken on purpose (data-get-by-key-without-bearer)
      if (!ws) {
        sendError(req, reply, 401, f);
        return undefined;
      }
    } else {
      // AUTH-1 broken on purpose by data-list-any-bearer (reads by endUserHandle only).
      const auth = authorize(ctx, req, p.workspaceKey, 'bearer', read && p.serviceKey === undefined && f.has('data-list-any-bearer'));
      if (!auth.ok) {
        sendError(req, reply, auth.status, f);
        return undefined;
      }
      ws = auth.ws;
    }
    if (p.endUserHandle.startsWith(CONTRACT.reservedHandlePrefix)) {
      sendError(req, reply, read && f.has('org-handle-read-404') ? 404 : 400, f); // DATA-6
      return undefined;
    }
    const cls = classesOf(ws).get(normalizeConfigEnd(p.configEnd));
    // DATA-10, FACTS-13 broken on purpose: an empty list for a configEnd with no data route.
    if (read && p.serviceKey === undefined && ((!cls && f.has('unknown-configend-200')) || (cls?.kind === 'FACTS' && f.has('facts-data-route-200')))) {
      reply.code(200).send([]);
      return undefined;
    }
    if (!cls || cls.kind === 'FACTS') {
      sendError(req, reply, 404, f); // DATA-10, FACTS-13
      return undefined;
    }
    return { ws, cls };
  }

  function envelopeOf(cls: ClassDef, r: StoredRecord): Record<string, unknown> {
    return { ...bindRecord(cls, r, f) };
  }

  /** ERR-2 (migrating-409-without-message breaks it on purpose). */
  const migrating = (reply: FastifyReply) => reply.code(409).send(f.has('migrating-409-without-message') ? { status: MIGRATING.status } : MIGRATING);
  /** ENV-4 broken on purpose by field-problem-422: field problems answered as an HTTP error. */
  const answer = (req: FastifyRequest, reply: FastifyReply, env: Record<string, unknown>) => (f.has('field-problem-422') && Object.keys(env.errors as object).length > 0 ? sendError(req, reply, 422, f) : reply.send(env));

  app.get<{ Params: DataParams }>(base, async (req, reply) => {
    if (f.has('reads-wait-for-deliveries')) await ctx.deliverer.idle(); // DELIV-15 broken on purpose
    const pre = prelude(req, reply);
    if (!pre) return reply;
    // DATA-2 broken on purpose by list-read-raw-handle: the handle compared as sent, still encoded.
    const handle = pre.cls.kind === 'LIST' && f.has('list-read-raw-handle') ? rawHandle(req.url) : req.params.endUserHandle;
    const records = ctx.recordsOf(pre.ws, pre.cls.configEnd, handle);
    if (pre.cls.kind === 'SETTING') {
      const r = records[0];
      const slot = ctx.settingSlot(pre.ws.workspaceKey, pre.cls.configEnd, handle);
      // DATA-1 broken on purpose by setting-read-after-chat-delete: the slot stays deleted for reads.
      const tombstoned = f.has('setting-read-after-chat-delete') && ctx.deletedSettings.has(slot);
      // DATA-8 broken on purpose by setting-read-empty-200: a Setting never written reads as an empty record.
      if (!r && !ctx.deletedSettings.has(slot) && f.has('setting-read-empty-200')) return reply.send({ data: null, errors: {}, warnings: {}, callbackStatus: 'PENDING', completedAt: contractTimestamp() });
      if (!r || tombstoned) return sendError(req, reply, 404, f); // DATA-8
      if (r.held) return migrating(reply); // DATA-11
      // DATA-1 (setting-read-as-list breaks it on purpose).
      return f.has('setting-read-as-list') ? reply.send([envelopeOf(pre.cls, r)]) : answer(req, reply, envelopeOf(pre.cls, r));
    }
    // DATA-2: every instance, drafts included; only a held record is withheld (DATA-11).
    const dropped = (r: StoredRecord) => (f.has('list-drops-closed-drafts') && r.callbackStatus === 'PENDING' && r.trail?.closedDraft === true) || (f.has('release-keeps-withheld') && r.trail?.wasHeld === true) || (f.has('list-omits-host-written') && !r.trail?.chatTouched);
    const list = records.filter((r) => !r.held && !dropped(r)).map((r) => bindRecord(pre.cls, r, f));
    return reply.send(f.has('list-drops-unbound') ? list.filter(binds) : list);
  });

  app.get<{ Params: DataParams }>(`${base}/:serviceKey`, async (req, reply) => {
    if (f.has('reads-wait-for-deliveries')) await ctx.deliverer.idle(); // DELIV-15 broken on purpose
    const pre = prelude(req, reply, f.has('data-get-by-key-without-bearer'));
    if (!pre) return reply;
    const r = ctx.findRecord(pre.ws, req.params.serviceKey ?? '');
    // DATA-3 broken on purpose by key-read-raw-handle: the handle compared as sent, still encoded.
    const handle = f.has('key-read-raw-handle') ? rawHandle(req.url) : req.params.endUserHandle;
    if (!r || r.configEnd !== pre.cls.configEnd || r.endUserHandle !== handle) return sendError(req, reply, 404, f); // DATA-9
    if (r.held && !f.has('held-record-read-200')) return migrating(reply);
    return answer(req, reply, envelopeOf(pre.cls, r)); // DATA-3
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
    let newKey: string | undefined;
    if (key !== undefined) {
      record = ctx.findRecord(ws, key);
      // DATA-9 broken on purpose by keyed-post-unknown-creates: an unknown key becomes a new record's.
      if (!record && f.has('keyed-post-unknown-creates')) newKey = key;
      else if (!record || record.configEnd !== cls.configEnd || record.endUserHandle !== handle) return sendError(req, reply, 404, f); // DATA-9
      if (f.has('keyed-write-creates-new')) record = undefined; // DATA-4 broken on purpose
    } else if (cls.kind === 'SETTING') {
      if (!f.has('setting-write-appends')) record = ctx.recordsOf(ws, cls.configEnd, handle)[0]; // DATA-13: one record per user
    } else if (f.has('list-unkeyed-overwrites')) {
      record = ctx.recordsOf(ws, cls.configEnd, handle).pop(); // DATA-14 broken on purpose
    }
    // DATA-11 (unkeyed-write-skips-held-setting breaks it for an unkeyed Setting write).
    if (record?.held && !(f.has('unkeyed-write-skips-held-setting') && key === undefined)) return migrating(reply);
    const data = body.data as Record<string, unknown>;
    if (cls.kind === 'LIST' && cls.identityField && data[cls.identityField] !== undefined && !f.has('identity-not-enforced')) {
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
      record = { serviceKey: newKey ?? ctx.newServiceKey(), workspaceKey: ws.workspaceKey, configEnd: cls.configEnd, endUserHandle: handle, values: {}, callbackStatus: 'PENDING', completedAt: Date.now(), held: false };
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
