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
import { contractTimestamp } from '../clock.ts';

const MIGRATING: MigratingConflictBody = {
  status: 'migrating',
  message: 'The record is held mid-migration; retry shortly.',
}; // ERR-2

/** The default forms' body: { serviceKey?: string, data: object } (DATA-7 otherwise). */
const DEFAULT_BODY_FORMS: DataApiForms = {
  ...DEFAULT_DATA_API_FORMS,
  keyedWrite: 'body',
  keyField: 'serviceKey',
  writeBody: 'data',
};

/** The raw path after /api/{workspaceKey}/endpoints/ (still percent-encoded), or undefined. */
function endpointsTail(url: string): string | undefined {
  const q = url.indexOf('?');
  const path = q >= 0 ? url.slice(0, q) : url;
  const m = /^\/api\/[^/]+\/endpoints\/(.*)$/.exec(path);
  return m ? m[1] : undefined;
}

/** The endUserHandle segment of a data route as sent, still percent-encoded (read by two seeded faults only). */
function rawHandle(url: string): string {
  const path = url.split('?')[0]!;
  return path.slice(path.lastIndexOf('/data/') + '/data/'.length).split('/')[0] ?? '';
}

export function registerData(app: FastifyInstance, ctx: ServiceContext, forms?: DataApiForms): void {
  const f = ctx.faults;

  /** The readings of a data path in the forms served; the one whose configEnd names a class of the workspace wins. */
  function readPath(url: string, ws?: Workspace): DataPathParts | undefined {
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
  function prelude(
    req: FastifyRequest<{ Params: { workspaceKey: string } }>,
    reply: FastifyReply,
    allowAnonymous = false,
  ): { ws: Workspace; cls: ClassDef; at: DataPathParts } | undefined {
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
        read && f.has('data-list-any-bearer') && readPath(req.url)?.serviceKey === undefined,
      );
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

  function envelopeOf(cls: ClassDef, r: StoredRecord): Record<string, unknown> {
    return { ...bindRecord(cls, r, f) };
  }

  /** ERR-2 (migrating-409-without-message breaks it on purpose). */
  const migrating = (reply: FastifyReply) =>
    reply.code(409).send(f.has('migrating-409-without-message') ? { status: MIGRATING.status } : MIGRATING);
  /** ENV-4 broken on purpose by field-problem-422: field problems answered as an HTTP error. */
  const answer = (req: FastifyRequest, reply: FastifyReply, env: Record<string, unknown>) =>
    f.has('field-problem-422') && Object.keys(env.errors as object).length > 0
      ? sendError(req, reply, 422, f)
      : reply.send(env);

  async function list(
    req: FastifyRequest<{ Params: { workspaceKey: string } }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    if (f.has('reads-wait-for-deliveries')) await ctx.deliverer.idle(); // DELIV-15 broken on purpose
    const pre = prelude(req, reply);
    if (!pre) return reply;
    // DATA-2 broken on purpose by list-read-raw-handle: the handle compared as sent, still encoded.
    const handle = pre.cls.kind === 'LIST' && f.has('list-read-raw-handle') ? rawHandle(req.url) : pre.at.endUserHandle;
    const records = ctx.recordsOf(pre.ws, pre.cls.configEnd, handle);
    if (pre.cls.kind === 'SETTING') {
      const r = records[0];
      const slot = ctx.settingSlot(pre.ws.workspaceKey, pre.cls.configEnd, handle);
      // DATA-1 broken on purpose by setting-read-after-chat-delete: the slot stays deleted for reads.
      const tombstoned = f.has('setting-read-after-chat-delete') && ctx.deletedSettings.has(slot);
      // DATA-8 broken on purpose by setting-read-empty-200: a Setting never written reads as an empty record.
      if (!r && !ctx.deletedSettings.has(slot) && f.has('setting-read-empty-200'))
        return reply.send({
          data: null,
          errors: {},
          warnings: {},
          callbackStatus: 'PENDING',
          completedAt: contractTimestamp(),
        });
      if (!r || tombstoned) return sendError(req, reply, 404, f); // DATA-8
      if (r.held) return migrating(reply); // DATA-11
      // DATA-1 (setting-read-as-list breaks it on purpose).
      return f.has('setting-read-as-list')
        ? reply.send([envelopeOf(pre.cls, r)])
        : answer(req, reply, envelopeOf(pre.cls, r));
    }
    // DATA-2: every instance, drafts included; only a held record is withheld (DATA-11).
    const dropped = (r: StoredRecord) =>
      (f.has('list-drops-closed-drafts') && r.callbackStatus === 'PENDING' && r.trail?.closedDraft === true) ||
      (f.has('release-keeps-withheld') && r.trail?.wasHeld === true) ||
      (f.has('list-omits-host-written') && !r.trail?.chatTouched);
    const all = records.filter((r) => !r.held && !dropped(r)).map((r) => bindRecord(pre.cls, r, f));
    return reply.send(f.has('list-drops-unbound') ? all.filter(binds) : all);
  }

  async function getByKey(
    req: FastifyRequest<{ Params: { workspaceKey: string } }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    if (f.has('reads-wait-for-deliveries')) await ctx.deliverer.idle(); // DELIV-15 broken on purpose
    const pre = prelude(req, reply, f.has('data-get-by-key-without-bearer'));
    if (!pre) return reply;
    const r = ctx.findRecord(pre.ws, pre.at.serviceKey ?? '');
    // DATA-3 broken on purpose by key-read-raw-handle: the handle compared as sent, still encoded.
    const handle = f.has('key-read-raw-handle') ? rawHandle(req.url) : pre.at.endUserHandle;
    if (!r || r.configEnd !== pre.cls.configEnd || r.endUserHandle !== handle) return sendError(req, reply, 404, f); // DATA-9
    if (r.held && !f.has('held-record-read-200')) return migrating(reply);
    return answer(req, reply, envelopeOf(pre.cls, r)); // DATA-3
  }

  async function write(
    req: FastifyRequest<{ Params: { workspaceKey: string } }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const pre = prelude(req, reply);
    if (!pre) return reply;
    const { ws, cls } = pre;
    const handle = pre.at.endUserHandle;
    // DATA-7: a body that is malformed in the forms served (UNSPEC-8).
    const body = readWriteBody(req.body, forms ?? DEFAULT_BODY_FORMS);
    if (!body) return sendError(req, reply, 400, f);
    const pathKey = pre.at.serviceKey;
    if (pathKey !== undefined && body.serviceKey !== undefined && body.serviceKey !== pathKey)
      return sendError(req, reply, 400, f);
    const key = pathKey ?? body.serviceKey;
    let record: StoredRecord | undefined;
    let newKey: string | undefined;
    if (key !== undefined) {
      record = ctx.findRecord(ws, key);
      // DATA-9 broken on purpose by keyed-post-unknown-creates: an unknown key becomes a new record's.
      if (!record && f.has('keyed-post-unknown-creates')) newKey = key;
      else if (!record || record.configEnd !== cls.configEnd || record.endUserHandle !== handle)
        return sendError(req, reply, 404, f); // DATA-9
      if (f.has('keyed-write-creates-new')) record = undefined; // DATA-4 broken on purpose
    } else if (cls.kind === 'SETTING') {
      if (!f.has('setting-write-appends')) record = ctx.recordsOf(ws, cls.configEnd, handle)[0]; // DATA-13: one record per user
    } else if (f.has('list-unkeyed-overwrites')) {
      record = ctx.recordsOf(ws, cls.configEnd, handle).pop(); // DATA-14 broken on purpose
    }
    // DATA-11 (unkeyed-write-skips-held-setting breaks it for an unkeyed Setting write).
    if (record?.held && !(f.has('unkeyed-write-skips-held-setting') && key === undefined)) return migrating(reply);
    const data = body.fields;
    if (
      cls.kind === 'LIST' &&
      cls.identityField &&
      data[cls.identityField] !== undefined &&
      !f.has('identity-not-enforced')
    ) {
      const value = JSON.stringify(data[cls.identityField]);
      const holder = ctx
        .recordsOf(ws, cls.configEnd, handle)
        .find((r) => r !== record && JSON.stringify(r.values[cls.identityField!]) === value);
      if (holder) {
        const conflict: IdentityConflictBody = {
          code: 'IDENTITY_CONFLICT',
          identityField: cls.identityField,
          existingKey: holder.serviceKey,
        };
        // ERR-3 broken on purpose by identity-conflict-no-existing-key.
        const { existingKey: _dropped, ...withoutKey } = conflict;
        return reply.code(409).send(f.has('identity-conflict-no-existing-key') ? withoutKey : conflict); // DATA-12, ERR-3
      }
    }
    const created = record === undefined;
    if (!record) {
      record = {
        serviceKey: newKey ?? ctx.newServiceKey(),
        workspaceKey: ws.workspaceKey,
        configEnd: cls.configEnd,
        endUserHandle: handle,
        values: {},
        callbackStatus: 'PENDING',
        completedAt: Date.now(),
        held: false,
      };
      ctx.records.set(record.serviceKey, record);
    }
    Object.assign(record.values, data);
    record.trail = { ...record.trail, closedDraft: false, wasHeld: false };
    if (cls.kind === 'SETTING') ctx.deletedSettings.delete(ctx.settingSlot(ws.workspaceKey, cls.configEnd, handle));
    record.callbackStatus = f.has('rest-write-delivered') ? 'DELIVERED' : 'PENDING'; // STATE-2
    record.completedAt = Date.now(); // ENV-3: the last-write time until completion
    if (f.has('saved-on-rest-write')) {
      // STATE-3 broken on purpose: a REST write is not a chat save and fires nothing.
      const conv: Conversation = {
        conversationId: ctx.nextConversationId(),
        workspace: ws,
        endUserHandle: handle,
        configEnd: cls.configEnd,
        state: 'open',
        openerLanguage: 'English',
        touched: [],
      };
      void ctx.deliverer.enqueue(
        ws,
        conv.conversationId,
        'config.saved',
        savedPayload(ctx, conv, cls.configEnd, record.serviceKey, Object.keys(data), record.callbackStatus),
      );
    }
    if (!created && f.has('rest-write-in-live-conversation-saved')) {
      // STATE-3 broken on purpose: a write to a record of a conversation still open goes through its chat save path.
      const live = [...ctx.conversations.values()].find(
        (c) => c.state === 'open' && c.workspace === ws && c.touched.includes(record!.serviceKey),
      );
      if (live)
        void ctx.deliverer.enqueue(
          ws,
          live.conversationId,
          'config.saved',
          savedPayload(ctx, live, cls.configEnd, record.serviceKey, Object.keys(data), record.callbackStatus),
        );
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
