/**
 * The driver API of spec/driver.openapi.yaml, under /__driver: stands in for the end user's chat
 * and the dashboard. Every event it triggers goes through the same delivery engine as any other.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as Driver from '../spec/index.ts'; // the driver's shapes, generated from spec/driver.openapi.yaml
import { setPath } from './binding.ts';
import type { ServiceContext } from './context.ts';
import { bulkPages, completePayload, deletedPayload, savedPayload, sessionPayload } from './events.ts';
import { fetchFacts, factsClassOf, factsInEffect, replyLanguages } from './facts.ts';
import { classesOf, effectiveHookPath, effectiveHostBaseUrl, toolsOf, type ClassDef, type Conversation, type StoredRecord, type Workspace } from './model.ts';
import { joinUrl } from './delivery.ts';
import { signatureFor } from './signing.ts';
import { badRequest, createWorkspace, DriverError, notFound, patchWorkspace, workspaceView } from './workspaces.ts';

export const CAPABILITIES = [
  'workspaces', 'sandbox', 'signing-none', 'signing-hmac', 'signing-hmac-rotation', 'signing-jwks', 'conversations', 'turns',
  'complete', 'delete', 'bulk-delete', 'interrupt', 'idle-sweep', 'tool-call', 'migration-hold', 'seed-records', 'facts',
  'facts-observation', 'opener-language', 'clock-advance', 'service-log', 'upload',
] as const;

/** UNSPEC-13: the reference's "small scope" threshold for per-key config.deleted. */
export const SMALL_SCOPE_MAX = 3;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bodyOf(req: FastifyRequest): Record<string, unknown> {
  const b = req.body ?? {};
  if (!isObj(b)) throw badRequest('body', 'body must be a JSON object');
  return b;
}

function withSlash(v: string): string {
  return v.startsWith('/') ? v : `/${v}`;
}

export function registerDriver(app: FastifyInstance, ctx: ServiceContext, serviceUrl: () => string): void {
  const f = ctx.faults;
  const P = '/__driver';

  const workspace = (key: string): Workspace => {
    const ws = ctx.workspaces.get(key);
    if (!ws) throw notFound(`no workspace ${key}`);
    return ws;
  };
  const conversation = (raw: string): Conversation => {
    const id = Number(raw);
    const conv = Number.isInteger(id) ? ctx.conversations.get(id) : undefined;
    if (!conv) throw notFound(`no conversation ${raw}`);
    return conv;
  };
  const dataClass = (ws: Workspace, configEnd: unknown, field: string): ClassDef => {
    if (typeof configEnd !== 'string') throw badRequest(field, 'configEnd must be a string like "/profile"');
    const cls = classesOf(ws).get(withSlash(configEnd));
    if (!cls || cls.kind === 'FACTS') throw badRequest(field, `no SETTING or LIST class at ${configEnd} in workspace ${ws.workspaceKey}`);
    return cls;
  };
  const handleOf = (v: unknown, field: string): string => {
    if (typeof v !== 'string' || v.length === 0 || v.length > 255) throw badRequest(field, 'endUserHandle must be a string of 1-255 characters');
    if (v.startsWith('org-')) throw badRequest(field, 'endUserHandle must not start with org- (2.1)');
    return v;
  };
  const newRecord = (ws: Workspace, cls: ClassDef, endUserHandle: string): StoredRecord => {
    const r: StoredRecord = { serviceKey: ctx.newServiceKey(), workspaceKey: ws.workspaceKey, configEnd: cls.configEnd, endUserHandle, values: {}, callbackStatus: 'PENDING', completedAt: Date.now(), held: false };
    ctx.records.set(r.serviceKey, r);
    return r;
  };
  const lifecycle = (conv: Conversation, event: string, payload: Record<string, unknown>): Promise<void> =>
    ctx.deliverer.enqueue(conv.workspace, conv.conversationId, event, payload);

  app.get(`${P}/capabilities`, async () => ({
    driverVersion: '1',
    timeScale: ctx.clock.timeScale,
    capabilities: [...CAPABILITIES],
    jwksUrl: `${serviceUrl()}/.well-known/service/jwks.json`,
  }));

  app.post(`${P}/workspaces`, async (req, reply) => reply.code(201).send(workspaceView(ctx, createWorkspace(ctx, bodyOf(req)))));

  app.patch<{ Params: { key: string } }>(`${P}/workspaces/:key`, async (req) => workspaceView(ctx, patchWorkspace(workspace(req.params.key), bodyOf(req))));

  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/conversations`, async (req, reply) => {
    const ws = workspace(req.params.key);
    const b = bodyOf(req);
    const endUserHandle = handleOf(b.endUserHandle, 'endUserHandle');
    const cls = dataClass(ws, b.configEnd, 'configEnd');
    const conv: Conversation = { conversationId: ctx.nextConversationId(), workspace: ws, endUserHandle, configEnd: cls.configEnd, state: 'open', openerLanguage: 'English', touched: [] };
    ctx.conversations.set(conv.conversationId, conv);
    if (f.has('facts-applied-same-open') && factsClassOf(ws)) await fetchFacts(ctx, ws, endUserHandle); // FACTS-6 broken on purpose
    // FACTS-6/9: the opener uses the facts in effect before this open's own fetch.
    conv.openerLanguage = replyLanguages(ctx, factsInEffect(ctx, ws, endUserHandle)?.facts)[0] ?? 'English';
    void lifecycle(conv, 'onStart', sessionPayload(ctx, conv, 'onStart'));
    // FACTS-5: in the background; the open never waits for it.
    if (!f.has('facts-applied-same-open')) void fetchFacts(ctx, ws, endUserHandle);
    return reply.code(201).send({ conversationId: conv.conversationId, openerLanguage: conv.openerLanguage } satisfies Driver.DriverOpenConversationResponse);
  });

  app.get<{ Params: { id: string } }>(`${P}/conversations/:id`, async (req) => {
    const c = conversation(req.params.id);
    return { conversationId: c.conversationId, workspaceKey: c.workspace.workspaceKey, endUserHandle: c.endUserHandle, configEnd: c.configEnd, state: c.state, openerLanguage: c.openerLanguage } satisfies Driver.DriverConversation;
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/turns`, async (req) => {
    const conv = conversation(req.params.id);
    const b = bodyOf(req);
    if (!Array.isArray(b.saves) || b.saves.length === 0) throw badRequest('saves', 'saves must be a non-empty array');
    const ws = conv.workspace;
    // Validate every save before applying any (a turn is applied whole).
    const plan = b.saves.map((s: unknown, i: number) => {
      if (!isObj(s)) throw badRequest(`saves[${i}]`, 'a save must be an object');
      const cls = dataClass(ws, s.configEnd ?? conv.configEnd, `saves[${i}].configEnd`);
      if (!isObj(s.fields) || Object.keys(s.fields).length === 0) throw badRequest(`saves[${i}].fields`, 'fields must be a non-empty object of dotted path to value');
      let record: StoredRecord | undefined;
      if (s.serviceKey !== undefined) {
        if (typeof s.serviceKey !== 'string') throw badRequest(`saves[${i}].serviceKey`, 'serviceKey must be a string');
        record = ctx.findRecord(ws, s.serviceKey);
        if (!record || record.configEnd !== cls.configEnd || record.endUserHandle !== conv.endUserHandle) throw badRequest(`saves[${i}].serviceKey`, `no record ${s.serviceKey} of this user at ${cls.configEnd}`);
      }
      return { cls, record, fields: s.fields };
    });
    const touched = new Map<string, { cls: ClassDef; record: StoredRecord; changed: string[] }>();
    const perField: Array<{ cls: ClassDef; record: StoredRecord; field: string }> = [];
    const serviceKeys: string[] = [];
    for (const step of plan) {
      let record = step.record;
      if (!record && step.cls.kind === 'SETTING') record = ctx.recordsOf(ws, step.cls.configEnd, conv.endUserHandle)[0];
      if (!record) record = newRecord(ws, step.cls, conv.endUserHandle); // STATE-1: a new draft is PENDING
      for (const [path, value] of Object.entries(step.fields)) {
        setPath(record.values, path, value);
        perField.push({ cls: step.cls, record, field: path });
      }
      record.completedAt = Date.now(); // ENV-3; callbackStatus unchanged (STATE-6)
      const entry = touched.get(record.serviceKey) ?? { cls: step.cls, record, changed: [] };
      for (const path of Object.keys(step.fields)) if (!entry.changed.includes(path)) entry.changed.push(path);
      touched.set(record.serviceKey, entry);
      if (!conv.touched.includes(record.serviceKey)) conv.touched.push(record.serviceKey);
      serviceKeys.push(record.serviceKey);
    }
    const status = (r: StoredRecord) => (f.has('saved-status-pending-after-complete') ? 'PENDING' : r.callbackStatus);
    if (f.has('saved-per-field')) {
      for (const p of perField) void lifecycle(conv, 'config.saved', savedPayload(ctx, conv, p.cls.configEnd, p.record.serviceKey, [p.field], status(p.record)));
    } else {
      // EVT-17: one config.saved per touched instance per turn, changedFields the union.
      for (const t of touched.values()) void lifecycle(conv, 'config.saved', savedPayload(ctx, conv, t.cls.configEnd, t.record.serviceKey, t.changed, status(t.record)));
    }
    return { serviceKeys } satisfies Driver.DriverRunTurnResponse;
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/complete`, async (req, reply) => {
    const conv = conversation(req.params.id);
    const b = bodyOf(req);
    const ws = conv.workspace;
    let keys: string[];
    if (b.serviceKeys !== undefined) {
      if (!Array.isArray(b.serviceKeys) || !b.serviceKeys.every((k) => typeof k === 'string')) throw badRequest('serviceKeys', 'serviceKeys must be an array of strings');
      keys = b.serviceKeys as string[];
    } else keys = conv.touched.filter((k) => ctx.findRecord(ws, k));
    if (keys.length === 0) throw badRequest('serviceKeys', 'nothing to complete: no instance touched in this conversation');
    const records = keys.map((k) => {
      const r = ctx.findRecord(ws, k);
      if (!r) throw badRequest('serviceKeys', `no record ${k} in workspace ${ws.workspaceKey}`);
      return r;
    });
    for (const r of records) {
      r.callbackStatus = 'DELIVERED'; // STATE-4, with no readiness check (STATE-5)
      r.completedAt = Date.now();
    }
    conv.state = 'completed';
    const values = Object.fromEntries(records.map((r) => [r.serviceKey, r.values]));
    const done = lifecycle(conv, 'onComplete', completePayload(ctx, conv, keys, effectiveHookPath(ws), values));
    if (f.has('complete-waits-for-host')) await done; // DELIV-9 broken on purpose
    return reply.code(202).send({ serviceKeys: keys } satisfies Driver.DriverCompleteConversationResponse);
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/delete`, async (req) => {
    const conv = conversation(req.params.id);
    const b = bodyOf(req);
    if (typeof b.serviceKey !== 'string') throw badRequest('serviceKey', 'serviceKey must be a string');
    const r = ctx.findRecord(conv.workspace, b.serviceKey);
    if (!r) throw notFound(`no record ${b.serviceKey}`);
    const payload = deletedPayload(ctx, conv, r.configEnd, r.serviceKey);
    if (f.has('deleted-before-removal')) {
      void lifecycle(conv, 'config.deleted', payload).then(() => ctx.records.delete(r.serviceKey));
    } else {
      ctx.records.delete(r.serviceKey); // EVT-22: the record is gone before the event
      void lifecycle(conv, 'config.deleted', payload);
    }
    return {};
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/bulk-delete`, async (req) => {
    const conv = conversation(req.params.id);
    const b = bodyOf(req);
    const ws = conv.workspace;
    const cls = dataClass(ws, b.configEnd ?? conv.configEnd, 'configEnd');
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
    for (const page of pages) void lifecycle(conv, 'config.bulk_deleted', page); // PAGE-3: each page its own POST
    if (keys.length > 0 && keys.length <= SMALL_SCOPE_MAX) {
      for (const r of records) void lifecycle(conv, 'config.deleted', deletedPayload(ctx, conv, r.configEnd, r.serviceKey)); // EVT-23
    }
    return { count: keys.length, totalPages: pages.length } satisfies Driver.DriverBulkDeleteResponse;
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/interrupt`, async (req) => {
    const conv = conversation(req.params.id);
    conv.state = 'interrupted';
    void lifecycle(conv, 'onSessionInterrupted', sessionPayload(ctx, conv, 'onSessionInterrupted')); // EVT-20
    return {};
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/idle-sweep`, async (req) => {
    const conv = conversation(req.params.id);
    conv.state = 'timed-out';
    void lifecycle(conv, 'onSessionTimeout', sessionPayload(ctx, conv, 'onSessionTimeout')); // EVT-21
    return {};
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/tool-calls`, async (req) => {
    const conv = conversation(req.params.id);
    const b = bodyOf(req);
    const ws = conv.workspace;
    const tool = toolsOf(ws).find((t) => t.toolClass === b.toolClass);
    if (!tool) throw badRequest('toolClass', `no tool ${String(b.toolClass)} in workspace ${ws.workspaceKey}`);
    if (b.input !== undefined && !isObj(b.input)) throw badRequest('input', 'input must be an object');
    const base = effectiveHostBaseUrl(ws);
    const path = f.has('tool-dispatch-to-hook') ? effectiveHookPath(ws) ?? tool.path : tool.path; // TOOL-1
    if (!base) {
      ctx.log('info', 'tool.skipped', `tool.dispatch ${tool.toolClass} skipped: hostBaseUrl is not set`, { workspaceKey: ws.workspaceKey });
      return { status: null };
    }
    // UNSPEC-11: the payload is the reference's own choice.
    const body = Buffer.from(JSON.stringify({ toolClass: tool.toolClass, conversationId: conv.conversationId, endUserHandle: conv.endUserHandle, input: b.input ?? {} }), 'utf8');
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Service-Event': 'tool.dispatch' };
    const signature = f.has('tool-dispatch-unsigned') ? undefined : await signatureFor(ws, ctx.ring, f, body); // TOOL-2
    if (signature !== undefined) headers['X-Service-Signature'] = signature;
    const outcome = await ctx.sender.send({ method: 'POST', url: new URL(joinUrl(base, path)), headers, body, connectTimeoutMs: ctx.clock.scaled(5000), requestTimeoutMs: ctx.clock.scaled(10000) });
    return { status: outcome.kind === 'answer' ? outcome.status : null } satisfies Driver.DriverCallToolResponse;
  });

  app.post<{ Params: { key: string; serviceKey: string } }>(`${P}/workspaces/:key/records/:serviceKey/migration-hold`, async (req) => {
    const ws = workspace(req.params.key);
    const b = bodyOf(req);
    if (typeof b.held !== 'boolean') throw badRequest('held', 'held must be a boolean');
    const r = ctx.findRecord(ws, req.params.serviceKey);
    if (!r) throw notFound(`no record ${req.params.serviceKey} in workspace ${ws.workspaceKey}`);
    r.held = b.held;
    return {};
  });

  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/seed`, async (req, reply) => {
    const ws = workspace(req.params.key);
    const b = bodyOf(req);
    const cls = dataClass(ws, b.configEnd, 'configEnd');
    const handle = handleOf(b.endUserHandle, 'endUserHandle');
    if (typeof b.count !== 'number' || !Number.isInteger(b.count) || b.count < 1 || b.count > 100_000) throw badRequest('count', 'count must be an integer from 1 to 100000');
    if (cls.kind === 'SETTING' && (b.count !== 1 || ctx.recordsOf(ws, cls.configEnd, handle).length > 0)) throw badRequest('count', 'a SETTING class holds one record per endUserHandle');
    if (b.fields !== undefined && !isObj(b.fields)) throw badRequest('fields', 'fields must be an object');
    const serviceKeys: string[] = [];
    for (let i = 0; i < b.count; i += 1) {
      const r = newRecord(ws, cls, handle); // STATE-2/3: PENDING, no event
      for (const [path, value] of Object.entries((b.fields as Record<string, unknown> | undefined) ?? {})) setPath(r.values, path, value);
      serviceKeys.push(r.serviceKey);
    }
    return reply.code(201).send({ serviceKeys } satisfies Driver.DriverSeedRecordsResponse);
  });

  app.get<{ Params: { key: string; handle: string } }>(`${P}/workspaces/:key/users/:handle/facts`, async (req) => {
    const ws = workspace(req.params.key);
    const entry = factsInEffect(ctx, ws, req.params.handle);
    return { facts: entry?.facts ?? null, languages: replyLanguages(ctx, entry?.facts), fetchedAt: entry?.fetchedAt ?? null } satisfies Driver.DriverGetFactsResponse;
  });

  app.post(`${P}/clock/advance`, async (req) => {
    const b = bodyOf(req);
    if (typeof b.ms !== 'number' || !Number.isInteger(b.ms) || b.ms < 0) throw badRequest('ms', 'ms must be a non-negative integer');
    return { now: new Date(ctx.clock.advance(b.ms)).toISOString() } satisfies Driver.DriverAdvanceClockResponse;
  });

  app.get<{ Querystring: { since?: string } }>(`${P}/log`, async (req) => {
    const since = Number(req.query.since ?? 0);
    if (!Number.isFinite(since) || since < 0) throw badRequest('since', 'since must be a non-negative integer');
    return { lines: ctx.logLines.filter((l) => l.seq > since) } satisfies Driver.DriverGetLogResponse;
  });
}

/** Answers a DriverError or a body the driver could not parse in the driver's own error shape. */
export function driverErrorReply(error: unknown, reply: FastifyReply): FastifyReply {
  if (error instanceof DriverError) return reply.code(error.status).send(error.body);
  const e = error as { statusCode?: number; message?: string };
  const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? 400 : 500;
  return reply.code(status).send(status === 400 ? { error: 'bad-request', field: 'body', message: e.message ?? 'bad request' } : { error: 'internal', message: 'driver error' });
}
