/** Driver routes that stand in for the chat's saves: a turn, and the completion (sections 3, 6). */
import { setPath } from '../binding.ts';
import { completePayload, savedPayload } from '../events.ts';
import { classesOf, effectiveHookPath, effectiveHostBaseUrl, type ClassDef, type StoredRecord } from '../model.ts';
import { badRequest } from '../workspaces.ts';
import { bodyOf, isObj, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

export function registerSaveRoutes(d: DriverScope): void {
  const { app, ctx } = d;
  const f = ctx.faults;

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/turns`, async (req) => {
    const conv = d.conversation(req.params.id);
    const b = bodyOf(req);
    if (!Array.isArray(b.saves) || b.saves.length === 0) throw badRequest('saves', 'saves must be a non-empty array');
    const ws = conv.workspace;
    // Validate every save before applying any (a turn is applied whole).
    const plan = b.saves.map((s: unknown, i: number) => {
      if (!isObj(s)) throw badRequest(`saves[${i}]`, 'a save must be an object');
      const cls = d.dataClass(ws, s.configEnd ?? conv.configEnd, `saves[${i}].configEnd`);
      if (!isObj(s.fields) || Object.keys(s.fields).length === 0)
        throw badRequest(`saves[${i}].fields`, 'fields must be a non-empty object of dotted path to value');
      let record: StoredRecord | undefined;
      if (s.serviceKey !== undefined) {
        if (typeof s.serviceKey !== 'string') throw badRequest(`saves[${i}].serviceKey`, 'serviceKey must be a string');
        record = ctx.findRecord(ws, s.serviceKey);
        if (!record || record.configEnd !== cls.configEnd || record.endUserHandle !== conv.endUserHandle)
          throw badRequest(`saves[${i}].serviceKey`, `no record ${s.serviceKey} of this user at ${cls.configEnd}`);
      }
      return { cls, record, fields: s.fields };
    });
    const touched = new Map<string, { cls: ClassDef; record: StoredRecord; changed: string[] }>();
    const perField: Array<{ cls: ClassDef; record: StoredRecord; field: string }> = [];
    const serviceKeys: string[] = [];
    for (const step of plan) {
      let record = step.record;
      // DATA-13: a Setting save addresses the user's one record (setting-chat-after-rest-second-record sees only
      // chat-saved ones).
      if (!record && step.cls.kind === 'SETTING')
        record = ctx
          .recordsOf(ws, step.cls.configEnd, conv.endUserHandle)
          .find((r) => !f.has('setting-chat-after-rest-second-record') || r.trail?.chatTouched);
      if (!record) {
        record = d.newRecord(ws, step.cls, conv.endUserHandle); // STATE-1: a new draft is PENDING
        record.trail = { createdIn: conv.conversationId };
      }
      // HOOK-4 broken on purpose by no-host-drops-saves: with nowhere to send events, nothing is stored.
      const dropped = f.has('no-host-drops-saves') && (!effectiveHostBaseUrl(ws) || !effectiveHookPath(ws));
      for (const [path, value] of Object.entries(step.fields)) {
        if (!dropped) setPath(record.values, path, value);
        perField.push({ cls: step.cls, record, field: path });
      }
      record.trail = { ...record.trail, chatTouched: true, closedDraft: false, wasHeld: false };
      record.completedAt = Date.now(); // ENV-3; callbackStatus unchanged (STATE-6)
      const entry = touched.get(record.serviceKey) ?? { cls: step.cls, record, changed: [] };
      for (const path of Object.keys(step.fields)) if (!entry.changed.includes(path)) entry.changed.push(path);
      touched.set(record.serviceKey, entry);
      if (!conv.touched.includes(record.serviceKey)) conv.touched.push(record.serviceKey);
      serviceKeys.push(record.serviceKey);
    }
    const firstStatus = [...touched.values()][0]!.record.callbackStatus;
    const status = (r: StoredRecord) =>
      f.has('saved-status-pending-after-complete')
        ? 'PENDING'
        : f.has('turn-status-of-first-instance')
          ? firstStatus
          : r.callbackStatus;
    if (f.has('saved-per-field')) {
      for (const p of perField)
        void d.lifecycle(
          conv,
          'config.saved',
          savedPayload(ctx, conv, p.cls.configEnd, p.record.serviceKey, [p.field], status(p.record)),
        );
    } else {
      // EVT-17: one config.saved per touched instance per turn, changedFields the union.
      for (const t of touched.values()) {
        const perFieldEdit = f.has('delivered-edit-saved-per-field') && t.record.callbackStatus === 'DELIVERED';
        // EVT-8 broken on purpose by changed-fields-with-values: each path carries the value saved.
        const named = f.has('changed-fields-with-values')
          ? t.changed.map((c) => `${c}=${JSON.stringify(t.record.values[c.split('.')[0]!])}`)
          : t.changed;
        for (const changed of perFieldEdit ? named.map((c) => [c]) : [named])
          void d.lifecycle(
            conv,
            'config.saved',
            savedPayload(ctx, conv, t.cls.configEnd, t.record.serviceKey, changed, status(t.record)),
          );
      }
    }
    // EVT-19 broken on purpose by complete-when-all-fields-saved: a record with every field filled is "complete".
    if (f.has('complete-when-all-fields-saved')) {
      for (const t of touched.values())
        if (t.cls.fields.every((fd) => t.record.values[fd.name] !== undefined))
          void d.lifecycle(
            conv,
            'onComplete',
            completePayload(ctx, conv, [t.record.serviceKey], effectiveHookPath(ws), {}),
          );
    }
    // STATE-6 broken on purpose by edit-resets-pending: an edit stores a DELIVERED record back as a draft.
    if (f.has('edit-resets-pending')) for (const t of touched.values()) t.record.callbackStatus = 'PENDING';
    // STATE-6 broken on purpose: an edit from a conversation on another configEnd stores the record back as a draft.
    if (f.has('cross-endpoint-edit-resets-pending'))
      for (const t of touched.values()) if (t.record.configEnd !== conv.configEnd) t.record.callbackStatus = 'PENDING';
    return { serviceKeys };
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/complete`, async (req, reply) => {
    const conv = d.conversation(req.params.id);
    const b = bodyOf(req);
    const ws = conv.workspace;
    let keys: string[];
    if (b.serviceKeys !== undefined) {
      if (!Array.isArray(b.serviceKeys) || !b.serviceKeys.every((k) => typeof k === 'string'))
        throw badRequest('serviceKeys', 'serviceKeys must be an array of strings');
      keys = b.serviceKeys as string[];
    } else keys = conv.touched.filter((k) => ctx.findRecord(ws, k)); // EVT-6: every live instance it touched
    // EVT-6 broken on purpose by touched-list-keeps-chat-deleted: left to decide, it names chat-deleted ones too.
    const stale =
      b.serviceKeys === undefined && f.has('touched-list-keeps-chat-deleted')
        ? conv.touched.filter((k) => !keys.includes(k) && conv.chatDeleted?.includes(k))
        : [];
    if (keys.length === 0)
      throw badRequest('serviceKeys', 'nothing to complete: no instance touched in this conversation');
    const records = keys.map((k) => {
      const r = ctx.findRecord(ws, k);
      if (!r) throw badRequest('serviceKeys', `no record ${k} in workspace ${ws.workspaceKey}`);
      return r;
    });
    // STATE-5 broken on purpose by readiness-check-blocks-oncomplete: a record missing a required field is not
    // finalized.
    const unready =
      f.has('readiness-check-blocks-oncomplete') &&
      records.some((r) =>
        [...classesOf(ws).values()]
          .find((c) => c.configEnd === r.configEnd)
          ?.fields.some((fd) => fd.required && r.values[fd.name] === undefined),
      );
    // DELIV-13 broken on purpose by no-repeat-oncomplete: nothing new to deliver when every record was delivered
    // before.
    const repeat = f.has('no-repeat-oncomplete') && records.every((r) => r.callbackStatus === 'DELIVERED');
    for (const r of records) {
      if (!unready && !f.has('complete-keeps-pending')) r.callbackStatus = 'DELIVERED'; // STATE-4, with no readiness check (STATE-5)
      r.completedAt = Date.now();
    }
    if (unready || repeat) {
      conv.state = 'completed';
      return reply.code(202).send({ serviceKeys: keys });
    }
    conv.state = 'completed';
    const values = Object.fromEntries(records.map((r) => [r.serviceKey, r.values]));
    // EVT-6 broken on purpose by oncomplete-lists-deleted-keys: the keys touched, deleted ones too.
    const listed = f.has('oncomplete-lists-deleted-keys')
      ? [...new Set([...conv.touched, ...keys])]
      : [...keys, ...stale];
    const done = d.lifecycle(conv, 'onComplete', completePayload(ctx, conv, listed, effectiveHookPath(ws), values));
    if (f.has('complete-waits-for-host')) await done; // DELIV-9 broken on purpose
    return reply.code(202).send({ serviceKeys: keys });
  });
}
