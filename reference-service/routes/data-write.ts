/** The data API's write (4.2, 7): POST of a record, keyed or not, in the write body form served. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataApiForms, IdentityConflictBody } from '../../spec/index.ts';
import { DEFAULT_DATA_API_FORMS, readWriteBody } from '../../spec/index.ts';
import { bindRecord } from '../binding.ts';
import { savedPayload } from '../events.ts';
import { sendError } from '../http-errors.ts';
import type { Conversation, StoredRecord } from '../model.ts';
import { prelude, type DataRoutes } from './data-path.ts';
import { migrating } from './data-read.ts';

/** The default forms' body: { serviceKey?: string, data: object } (DATA-7 otherwise). */
const DEFAULT_BODY_FORMS: DataApiForms = {
  ...DEFAULT_DATA_API_FORMS,
  keyedWrite: 'body',
  keyField: 'serviceKey',
  writeBody: 'data',
};

export async function write(
  d: DataRoutes,
  req: FastifyRequest<{ Params: { workspaceKey: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { ctx } = d;
  const f = ctx.faults;
  const pre = prelude(d, req, reply);
  if (!pre) return reply;
  const { ws, cls } = pre;
  const handle = pre.at.endUserHandle;
  // DATA-7: a body that is malformed in the forms served (UNSPEC-8).
  const body = readWriteBody(req.body, d.forms ?? DEFAULT_BODY_FORMS);
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
  if (record?.held && !(f.has('unkeyed-write-skips-held-setting') && key === undefined)) return migrating(d, reply);
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
