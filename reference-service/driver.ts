/**
 * The driver API of spec/driver.openapi.yaml, under /__driver: stands in for the end user's chat
 * and the dashboard. Every event it triggers goes through the same delivery engine as any other.
 * The routes live in driver/, one file per resource.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from './context.ts';
import { DRIVER_PREFIX, driverScope } from './driver/common.ts';
import { registerConversationRoutes } from './driver/conversations.ts';
import { registerRecordRoutes } from './driver/records.ts';
import { registerSaveRoutes } from './driver/saves.ts';
import { registerServiceRoutes } from './driver/service.ts';
import { registerToolRoutes } from './driver/tools.ts';
import { registerWorkspaceRoutes } from './driver/workspaces.ts';
import { DriverError } from './workspaces.ts';

export { SMALL_SCOPE_MAX } from './driver/records.ts';

export const CAPABILITIES = [
  'workspaces',
  'sandbox',
  'signing-none',
  'signing-hmac',
  'signing-hmac-rotation',
  'signing-jwks',
  'conversations',
  'turns',
  'complete',
  'delete',
  'bulk-delete',
  'interrupt',
  'idle-sweep',
  'tool-call',
  'migration-hold',
  'seed-records',
  'facts',
  'facts-observation',
  'opener-language',
  'clock-advance',
  'service-log',
  'upload',
  'outage',
  'listen-pipe',
  'signing-jwks-rotation',
] as const;

export function registerDriver(app: FastifyInstance, ctx: ServiceContext, serviceUrl: () => string): void {
  app.get(`${DRIVER_PREFIX}/capabilities`, async () => ({
    driverVersion: '1',
    timeScale: ctx.clock.timeScale,
    capabilities: [...CAPABILITIES],
    jwksUrl: `${serviceUrl()}/.well-known/service/jwks.json`,
  }));
  const d = driverScope(app, ctx, serviceUrl);
  registerWorkspaceRoutes(d);
  registerConversationRoutes(d);
  registerSaveRoutes(d);
  registerRecordRoutes(d);
  registerToolRoutes(d);
  registerServiceRoutes(d);
}

/** Answers a DriverError or a body the driver could not parse in the driver's own error shape. */
export function driverErrorReply(error: unknown, reply: FastifyReply): FastifyReply {
  if (error instanceof DriverError) return reply.code(error.status).send(error.body);
  const e = error as { statusCode?: number; message?: string };
  const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? 400 : 500;
  return reply
    .code(status)
    .send(
      status === 400
        ? { error: 'bad-request', field: 'body', message: e.message ?? 'bad request' }
        : { error: 'internal', message: 'driver error' },
    );
}
