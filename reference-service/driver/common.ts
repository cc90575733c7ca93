/**
 * What every driver route file shares: the body check, the lookups of workspaces, conversations
 * and classes (answering the driver's own 400/404 shapes), and the lifecycle enqueue.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTRACT } from '../../protocol/index.ts';
import type { ServiceContext } from '../context.ts';
import { classesOf, type ClassDef, type Conversation, type StoredRecord, type Workspace } from '../model.ts';
import { badRequest, notFound } from '../workspaces.ts';

/** The prefix of every driver route (spec/driver.openapi.yaml servers). */
export const DRIVER_PREFIX = '/__driver';

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function bodyOf(req: FastifyRequest): Record<string, unknown> {
  const b = req.body ?? {};
  if (!isObj(b)) throw badRequest('body', 'body must be a JSON object');
  return b;
}

function withSlash(v: string): string {
  return v.startsWith('/') ? v : `/${v}`;
}

/** The lookups and helpers a driver route file needs, bound to one running service. */
export interface DriverScope {
  app: FastifyInstance;
  ctx: ServiceContext;
  serviceUrl: () => string;
  workspace(key: string): Workspace;
  conversation(raw: string): Conversation;
  dataClass(ws: Workspace, configEnd: unknown, field: string): ClassDef;
  handleOf(v: unknown, field: string): string;
  newRecord(ws: Workspace, cls: ClassDef, endUserHandle: string): StoredRecord;
  lifecycle(conv: Conversation, event: string, payload: Record<string, unknown>): Promise<void>;
}

export function driverScope(app: FastifyInstance, ctx: ServiceContext, serviceUrl: () => string): DriverScope {
  return {
    app,
    ctx,
    serviceUrl,
    workspace(key) {
      const ws = ctx.workspaces.get(key);
      if (!ws) throw notFound(`no workspace ${key}`);
      return ws;
    },
    conversation(raw) {
      const id = Number(raw);
      const conv = Number.isInteger(id) ? ctx.conversations.get(id) : undefined;
      if (!conv) throw notFound(`no conversation ${raw}`);
      return conv;
    },
    dataClass(ws, configEnd, field) {
      if (typeof configEnd !== 'string') throw badRequest(field, 'configEnd must be a string like "/profile"');
      const cls = classesOf(ws).get(withSlash(configEnd));
      if (!cls || cls.kind === 'FACTS')
        throw badRequest(field, `no SETTING or LIST class at ${configEnd} in workspace ${ws.workspaceKey}`);
      return cls;
    },
    handleOf(v, field) {
      // 2.1: at most 255 characters, never the reserved org- prefix.
      const max = CONTRACT.endUserHandleMaxLength;
      if (typeof v !== 'string' || v.length === 0 || v.length > max)
        throw badRequest(field, `endUserHandle must be a string of 1-${max} characters`);
      if (v.startsWith(CONTRACT.reservedHandlePrefix))
        throw badRequest(field, `endUserHandle must not start with ${CONTRACT.reservedHandlePrefix} (2.1)`);
      return v;
    },
    newRecord(ws, cls, endUserHandle) {
      const r: StoredRecord = {
        serviceKey: ctx.newServiceKey(),
        workspaceKey: ws.workspaceKey,
        configEnd: cls.configEnd,
        endUserHandle,
        values: {},
        callbackStatus: 'PENDING',
        completedAt: Date.now(),
        held: false,
      };
      ctx.records.set(r.serviceKey, r);
      return r;
    },
    lifecycle: (conv, event, payload) => ctx.deliverer.enqueue(conv.workspace, conv.conversationId, event, payload),
  };
}
