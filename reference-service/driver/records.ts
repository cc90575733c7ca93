/** Driver routes of stored records: delete, bulk delete, seed, migration hold (sections 3, 6, 7). */
import { setPath } from '../binding.ts';
import { bulkPages, deletedPayload } from '../events.ts';
import type { StoredRecord } from '../model.ts';
import { badRequest, notFound } from '../workspaces.ts';
import { bodyOf, isObj, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

/** UNSPEC-13: the reference's "small scope" threshold for per-key config.deleted. */
export const SMALL_SCOPE_MAX = 3;

export function registerRecordRoutes(d: DriverScope): void {
  const { app, ctx } = d;
  const f = ctx.faults;

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/delete`, async (req) => {
    const conv = d.conversation(req.params.id);
    const b = bodyOf(req);
    if (typeof b.serviceKey !== 'string') throw badRequest('serviceKey', 'serviceKey must be a string');
    const r = ctx.findRecord(conv.workspace, b.serviceKey);
    if (!r) throw notFound(`no record ${b.serviceKey}`);
    const payload = deletedPayload(ctx, conv, r.configEnd, r.serviceKey);
    if (f.has('deleted-before-removal')) {
      void d.lifecycle(conv, 'config.deleted', payload).then(() => ctx.records.delete(r.serviceKey));
    } else {
      ctx.records.delete(r.serviceKey); // EVT-22: the record is gone before the event
      void d.lifecycle(conv, 'config.deleted', payload);
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
      if (!Array.isArray(b.serviceKeys) || !b.serviceKeys.every((k) => typeof k === 'string')) throw badRequest('serviceKeys', 'serviceKeys must be an array of strings');
      records = [...new Set(b.serviceKeys as string[])].map((k) => {
        const r = ctx.findRecord(ws, k);
        if (!r) throw badRequest('serviceKeys', `no record ${k} in workspace ${ws.workspaceKey}`);
        return r;
      });
    } else records = ctx.recordsOf(ws, cls.configEnd, conv.endUserHandle);
    const keys = records.map((r) => r.serviceKey);
    for (const k of keys) ctx.records.delete(k); // STATE-8
    const pages = bulkPages(ctx, conv, cls.configEnd, keys);
    for (const page of pages) void d.lifecycle(conv, 'config.bulk_deleted', page); // PAGE-3: each page its own POST
    if (keys.length > 0 && keys.length <= SMALL_SCOPE_MAX) {
      for (const r of records) void d.lifecycle(conv, 'config.deleted', deletedPayload(ctx, conv, r.configEnd, r.serviceKey)); // EVT-23
    }
    return { count: keys.length, totalPages: pages.length };
  });

  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/seed`, async (req, reply) => {
    const ws = d.workspace(req.params.key);
    const b = bodyOf(req);
    const cls = d.dataClass(ws, b.configEnd, 'configEnd');
    const handle = d.handleOf(b.endUserHandle, 'endUserHandle');
    if (typeof b.count !== 'number' || !Number.isInteger(b.count) || b.count < 1 || b.count > 100_000) throw badRequest('count', 'count must be an integer from 1 to 100000');
    if (cls.kind === 'SETTING' && (b.count !== 1 || ctx.recordsOf(ws, cls.configEnd, handle).length > 0)) throw badRequest('count', 'a SETTING class holds one record per endUserHandle');
    if (b.fields !== undefined && !isObj(b.fields)) throw badRequest('fields', 'fields must be an object');
    const serviceKeys: string[] = [];
    for (let i = 0; i < b.count; i += 1) {
      const r = d.newRecord(ws, cls, handle); // STATE-2/3: PENDING, no event
      for (const [path, value] of Object.entries((b.fields as Record<string, unknown> | undefined) ?? {})) setPath(r.values, path, value);
      serviceKeys.push(r.serviceKey);
    }
    return reply.code(201).send({ serviceKeys });
  });

  app.post<{ Params: { key: string; serviceKey: string } }>(`${P}/workspaces/:key/records/:serviceKey/migration-hold`, async (req) => {
    const ws = d.workspace(req.params.key);
    const b = bodyOf(req);
    if (typeof b.held !== 'boolean') throw badRequest('held', 'held must be a boolean');
    const r = ctx.findRecord(ws, req.params.serviceKey);
    if (!r) throw notFound(`no record ${req.params.serviceKey} in workspace ${ws.workspaceKey}`);
    r.held = b.held;
    return {};
  });
}
