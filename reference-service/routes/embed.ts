/** POST /api/{workspaceKey}/embed-tokens (4.2, 7, 8, 9): EMBED-1..11. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CONTRACT } from '../../protocol/index.ts';
import { authorize } from '../auth.ts';
import type { ServiceContext } from '../context.ts';
import { sendError } from '../http-errors.ts';

const ORGANIZATION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/; // the reference's notion of a valid organizationId (EMBED-4 reading)
const MAX_HANDLE = CONTRACT.endUserHandleMaxLength;
const MAX_CONTEXT = CONTRACT.openingContextMaxChars;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why the body is rejected (400), or undefined when it is accepted. */
export function embedProblem(ctx: ServiceContext, workspaceKey: string, body: unknown): string | undefined {
  const f = ctx.faults;
  if (!isPlainObject(body)) return 'body is not a JSON object';
  if ('configEnd' in body && !f.has('embed-configend-accepted')) return 'configEnd is no longer accepted (EMBED-9)';
  const handle = body.endUserHandle;
  if (typeof handle !== 'string' || handle.length === 0) return 'endUserHandle missing (EMBED-1)';
  if (handle.length > (f.has('embed-handle-255-rejected') ? MAX_HANDLE - 1 : MAX_HANDLE)) return `endUserHandle longer than ${MAX_HANDLE} (EMBED-2)`;
  if (handle.startsWith(CONTRACT.reservedHandlePrefix)) return `endUserHandle starts with ${CONTRACT.reservedHandlePrefix} (EMBED-3)`;
  if ('organizationId' in body && (typeof body.organizationId !== 'string' || !ORGANIZATION_ID.test(body.organizationId))) return 'invalid organizationId (EMBED-4)';
  if ('openingContext' in body) {
    const oc = body.openingContext;
    if (!isPlainObject(oc)) return 'openingContext is not an object';
    if (JSON.stringify(oc).length > (f.has('embed-context-16385-accepted') ? MAX_CONTEXT + 1 : MAX_CONTEXT)) return `openingContext over ${MAX_CONTEXT} serialized characters (EMBED-6)`;
    if ('data' in oc) {
      if (!isPlainObject(oc.data)) return 'openingContext.data is not an object';
      for (const v of Object.values(oc.data)) if (typeof v === 'object' && v !== null) return 'openingContext.data holds a nested value (EMBED-7)';
    }
    if ('referentKeys' in oc) {
      const keys = oc.referentKeys;
      if (!Array.isArray(keys)) return 'openingContext.referentKeys is not an array';
      const ws = ctx.workspaces.get(workspaceKey);
      for (const k of keys) {
        const r = typeof k === 'string' && ws ? ctx.findRecord(ws, k) : undefined;
        if (!r || r.endUserHandle !== handle) return 'openingContext.referentKeys names an unknown or unowned key (EMBED-5)';
      }
    }
    // EMBED-8: an unknown toolClass is ignored, never an error.
  }
  return undefined;
}

export function registerEmbed(app: FastifyInstance, ctx: ServiceContext): void {
  app.post<{ Params: { workspaceKey: string } }>('/api/:workspaceKey/embed-tokens', async (req, reply) => {
    const auth = authorize(ctx, req, req.params.workspaceKey, 'embed');
    if (!auth.ok) return sendError(req, reply, auth.status, ctx.faults);
    if (embedProblem(ctx, req.params.workspaceKey, req.body)) return sendError(req, reply, 400, ctx.faults);
    // UNSPEC-4: the response body is not shown; the reference answers an opaque token.
    return reply.code(200).send({ embedToken: `et_${randomBytes(18).toString('base64url')}`, expiresIn: 3600 });
  });
}
