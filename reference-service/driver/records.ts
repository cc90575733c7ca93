/** Driver routes of stored records: delete, bulk delete, seed, migration hold (sections 3, 6, 7). */
import { setPath } from '../binding.ts';
import { bulkPages, deletedPayload } from '../events.ts';
import { classesOf, type StoredRecord } from '../model.ts';
import { badRequest, notFound } from '../workspaces.ts';
import { bodyOf, isObj, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

/** UNSPEC-13: the reference's "small scope" threshold for per-key config.deleted. */
export const SMALL_SCOPE_MAX = 3;

export function registerRecordRoutes(d: DriverScope): void {
  const { app, ctx } = d;
  const f = ctx.faults;
  const cls = (r: StoredRecord) => classesOf(ctx.workspaces.get(r.workspaceKey)!).get(r.configEnd)?.kind;

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/delete`, async (req) => {
    const conv = d.conversation(req.params.id);
    const b = bodyOf(req);
    if (typeof b.serviceKey !== 'string') throw badRequest('serviceKey', 'serviceKey must be a string');
    const r = ctx.findRecord(conv.workspace, b.serviceKey);
    if (!r) throw notFound(`no record ${b.serviceKey}`);
    // EVT-22 broken on purpose by deleted-names-creating-conversation: sent as the creating conversation's event.
    const creator = r.trail?.createdIn;
    const as =
      f.has('deleted-names-creating-conversation') && creator !== undefined
        ? { ...conv, conversationId: creator }
        : conv;
    const payload = deletedPayload(ctx, as, r.configEnd, r.serviceKey);
    (conv.chatDeleted ??= []).push(r.serviceKey);
    if (cls(r) === 'SETTING') ctx.deletedSettings.add(ctx.settingSlot(r.workspaceKey, r.configEnd, r.endUserHandle));
    // STATE-7 broken on purpose by chat-delete-keeps-record.
    const kept = f.has('chat-delete-keeps-record');
    // EVT-22 broken on purpose by chat-delete-rest-record-silent: no event for a record never saved through the chat.
    const silent = f.has('chat-delete-rest-record-silent') && !r.trail?.chatTouched;
    if (f.has('deleted-before-removal')) {
      void d.lifecycle(conv, 'config.deleted', payload).then(() => ctx.records.delete(r.serviceKey));
    } else {
      if (!kept) ctx.records.delete(r.serviceKey); // EVT-22: the record is gone before the event
      if (!silent) void ctx.deliverer.enqueue(conv.workspace, as.conversationId, 'config.deleted', payload);
    }
    return {};
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/bulk-delete`, async (req) => {
    const conv = d.conversation(req.params.id);
    const b = bodyOf(req);
    const ws = conv.workspace;
    const cls = d.dataClass(ws, b.configEnd ?? conv.configEnd, 'configEnd');
    let records: StoredRecord[];
    if (b.serviceKeys !== undefined) {
      if (!Array.isArray(b.serviceKeys) || !b.serviceKeys.every((k) => typeof k === 'string'))
        throw badRequest('serviceKeys', 'serviceKeys must be an array of strings');
      records = [...new Set(b.serviceKeys as string[])].map((k) => {
        const r = ctx.findRecord(ws, k);
        if (!r) throw badRequest('serviceKeys', `no record ${k} in workspace ${ws.workspaceKey}`);
        return r;
      });
    } else records = ctx.recordsOf(ws, cls.configEnd, conv.endUserHandle);
    const keys = records.map((r) => r.serviceKey);
    // STATE-8 broken on purpose by scope-delete-this-conversation-only: records of other conversations stay.
    // STATE-8 broken on purpose by scope-delete-keeps-last too.
    const removed = f.has('scope-delete-this-conversation-only')
      ? keys.filter((k) => conv.touched.includes(k))
      : f.has('scope-delete-keeps-last')
        ? keys.slice(0, -1)
        : keys;
    if (cls.kind === 'SETTING' && keys.length > 0)
      ctx.deletedSettings.add(ctx.settingSlot(ws.workspaceKey, cls.configEnd, conv.endUserHandle));
    // STATE-8 broken on purpose by scope-delete-keeps-delivered: a scope of both states keeps its DELIVERED records.
    const mixed =
      records.some((r) => r.callbackStatus === 'PENDING') && records.some((r) => r.callbackStatus === 'DELIVERED');
    const kept =
      f.has('scope-delete-keeps-delivered') && mixed
        ? new Set(records.filter((r) => r.callbackStatus === 'DELIVERED').map((r) => r.serviceKey))
        : new Set<string>();
    for (const k of removed) if (!kept.has(k)) ctx.records.delete(k); // STATE-8
    // PAGE-5 broken on purpose by manifest-omits-delivered: DELIVERED keys counted but not listed.
    const delivered = new Set(records.filter((r) => r.callbackStatus === 'DELIVERED').map((r) => r.serviceKey));
    const pages = bulkPages(
      ctx,
      conv,
      cls.configEnd,
      keys,
      f.has('manifest-omits-delivered') ? (k) => delivered.has(k) : undefined,
    );
    // EVT-23 broken on purpose by bulk-deleted-only-per-key: a small scope is reported key by key only.
    const perKeyOnly = f.has('bulk-deleted-only-per-key') && keys.length <= SMALL_SCOPE_MAX;
    if (!perKeyOnly) for (const page of pages) void d.lifecycle(conv, 'config.bulk_deleted', page); // PAGE-3: each page its own POST
    if (keys.length > 0 && keys.length <= SMALL_SCOPE_MAX) {
      for (const r of records)
        void d.lifecycle(conv, 'config.deleted', deletedPayload(ctx, conv, r.configEnd, r.serviceKey)); // EVT-23
    }
    return { count: keys.length, totalPages: pages.length };
  });

  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/seed`, async (req, reply) => {
    const ws = d.workspace(req.params.key);
    const b = bodyOf(req);
    const cls = d.dataClass(ws, b.configEnd, 'configEnd');
    const handle = d.handleOf(b.endUserHandle, 'endUserHandle');
    if (typeof b.count !== 'number' || !Number.isInteger(b.count) || b.count < 1 || b.count > 100_000)
      throw badRequest('count', 'count must be an integer from 1 to 100000');
    if (cls.kind === 'SETTING' && (b.count !== 1 || ctx.recordsOf(ws, cls.configEnd, handle).length > 0))
      throw badRequest('count', 'a SETTING class holds one record per endUserHandle');
    if (b.fields !== undefined && !isObj(b.fields)) throw badRequest('fields', 'fields must be an object');
    const serviceKeys: string[] = [];
    for (let i = 0; i < b.count; i += 1) {
      const r = d.newRecord(ws, cls, handle); // STATE-2/3: PENDING, no event
      for (const [path, value] of Object.entries((b.fields as Record<string, unknown> | undefined) ?? {}))
        setPath(r.values, path, value);
      serviceKeys.push(r.serviceKey);
    }
    return reply.code(201).send({ serviceKeys });
  });

  app.post<{ Params: { key: string; serviceKey: string } }>(
    `${P}/workspaces/:key/records/:serviceKey/migration-hold`,
    async (req) => {
      const ws = d.workspace(req.params.key);
      const b = bodyOf(req);
      if (typeof b.held !== 'boolean') throw badRequest('held', 'held must be a boolean');
      const r = ctx.findRecord(ws, req.params.serviceKey);
      if (!r) throw notFound(`no record ${req.params.serviceKey} in workspace ${ws.workspaceKey}`);
      r.held = b.held;
      if (b.held) r.trail = { ...r.trail, wasHeld: true };
      return {};
    },
  );
}
