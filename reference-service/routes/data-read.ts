/** The data API's reads (4.2, 7): a list by endUserHandle, a Setting's one record, a record by serviceKey. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MigratingConflictBody } from '../../spec/index.ts';
import { bindRecord, binds } from '../binding.ts';
import { sendError } from '../http-errors.ts';
import type { ClassDef, StoredRecord } from '../model.ts';
import { contractTimestamp } from '../clock.ts';
import { prelude, rawHandle, type DataRoutes } from './data-path.ts';

const MIGRATING: MigratingConflictBody = {
  status: 'migrating',
  message: 'The record is held mid-migration; retry shortly.',
}; // ERR-2

export function envelopeOf(d: DataRoutes, cls: ClassDef, r: StoredRecord): Record<string, unknown> {
  return { ...bindRecord(cls, r, d.ctx.faults) };
}

/** ERR-2 (migrating-409-without-message breaks it on purpose). */
export const migrating = (d: DataRoutes, reply: FastifyReply) =>
  reply.code(409).send(d.ctx.faults.has('migrating-409-without-message') ? { status: MIGRATING.status } : MIGRATING);
/** ENV-4 broken on purpose by field-problem-422: field problems answered as an HTTP error. */
export const answer = (d: DataRoutes, req: FastifyRequest, reply: FastifyReply, env: Record<string, unknown>) =>
  d.ctx.faults.has('field-problem-422') && Object.keys(env.errors as object).length > 0
    ? sendError(req, reply, 422, d.ctx.faults)
    : reply.send(env);

export async function list(
  d: DataRoutes,
  req: FastifyRequest<{ Params: { workspaceKey: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { ctx } = d;
  const f = ctx.faults;
  if (f.has('reads-wait-for-deliveries')) await ctx.deliverer.idle(); // DELIV-15 broken on purpose
  const pre = prelude(d, req, reply);
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
    if (r.held) return migrating(d, reply); // DATA-11
    // DATA-1 (setting-read-as-list breaks it on purpose).
    return f.has('setting-read-as-list')
      ? reply.send([envelopeOf(d, pre.cls, r)])
      : answer(d, req, reply, envelopeOf(d, pre.cls, r));
  }
  // DATA-2: every instance, drafts included; only a held record is withheld (DATA-11).
  const dropped = (r: StoredRecord) =>
    (f.has('list-drops-closed-drafts') && r.callbackStatus === 'PENDING' && r.trail?.closedDraft === true) ||
    (f.has('release-keeps-withheld') && r.trail?.wasHeld === true) ||
    (f.has('list-omits-host-written') && !r.trail?.chatTouched);
  const all = records.filter((r) => !r.held && !dropped(r)).map((r) => bindRecord(pre.cls, r, f));
  return reply.send(f.has('list-drops-unbound') ? all.filter(binds) : all);
}

export async function getByKey(
  d: DataRoutes,
  req: FastifyRequest<{ Params: { workspaceKey: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { ctx } = d;
  const f = ctx.faults;
  if (f.has('reads-wait-for-deliveries')) await ctx.deliverer.idle(); // DELIV-15 broken on purpose
  const pre = prelude(d, req, reply, f.has('data-get-by-key-without-bearer'));
  if (!pre) return reply;
  const r = ctx.findRecord(pre.ws, pre.at.serviceKey ?? '');
  // DATA-3 broken on purpose by key-read-raw-handle: the handle compared as sent, still encoded.
  const handle = f.has('key-read-raw-handle') ? rawHandle(req.url) : pre.at.endUserHandle;
  // DATA-9
  if (!r || r.configEnd !== pre.cls.configEnd || r.endUserHandle !== handle) return sendError(req, reply, 404, f);
  if (r.held && !f.has('held-record-read-200')) return migrating(d, reply);
  return answer(d, req, reply, envelopeOf(d, pre.cls, r)); // DATA-3
}
