/** POST /api/{workspaceKey}/embed-tokens (4.2, 7, 8, 9): EMBED-1..11. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CONTRACT } from '../../protocol/index.ts';
import { authorize } from '../auth.ts';
import type { ServiceContext } from '../context.ts';
import { sendError } from '../http-errors.ts';
import { toolsOf } from '../model.ts';

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
  if (typeof handle !== 'string' || handle.length === 0) {
    if (!(f.has('embed-missing-handle-accepted') && handle === undefined)) return 'endUserHandle missing (EMBED-1)';
  } else {
    // EMBED-2: characters (the seeded faults move the edge, or count UTF-8 bytes).
    const length = f.has('embed-handle-length-in-bytes') ? Buffer.byteLength(handle, 'utf8') : [...handle].length;
    const max = f.has('embed-handle-255-rejected')
      ? MAX_HANDLE - 1
      : f.has('embed-handle-256-accepted')
        ? MAX_HANDLE + 1
        : MAX_HANDLE;
    if (length > max) return `endUserHandle longer than ${MAX_HANDLE} (EMBED-2)`;
    const org = f.has('embed-org-anywhere')
      ? handle.includes(CONTRACT.reservedHandlePrefix)
      : handle.startsWith(CONTRACT.reservedHandlePrefix);
    if (org && !f.has('embed-org-handle-accepted'))
      return `endUserHandle starts with ${CONTRACT.reservedHandlePrefix} (EMBED-3)`;
  }
  const orgIdOk = typeof body.organizationId === 'string' && ORGANIZATION_ID.test(body.organizationId);
  if ('organizationId' in body && !orgIdOk && !f.has('embed-organization-id-unchecked'))
    return 'invalid organizationId (EMBED-4)';
  if (!('openingContext' in body) && f.has('embed-requires-context'))
    return 'openingContext missing (EMBED-11 broken on purpose)';
  if ('openingContext' in body) {
    const oc = body.openingContext;
    if (!isPlainObject(oc)) return 'openingContext is not an object';
    const text = JSON.stringify(oc);
    const size = f.has('embed-context-size-in-bytes') ? Buffer.byteLength(text, 'utf8') : text.length;
    const limit = f.has('embed-context-16385-accepted')
      ? MAX_CONTEXT + 1
      : f.has('embed-context-16384-rejected')
        ? MAX_CONTEXT - 1
        : MAX_CONTEXT;
    if (size > limit) return `openingContext over ${MAX_CONTEXT} serialized characters (EMBED-6)`;
    if ('data' in oc) {
      if (!isPlainObject(oc.data)) return 'openingContext.data is not an object';
      if (!f.has('embed-nested-data-accepted'))
        for (const v of Object.values(oc.data))
          if (typeof v === 'object' && v !== null) return 'openingContext.data holds a nested value (EMBED-7)';
    }
    // EMBED-8 broken on purpose by embed-unknown-tool-400.
    const ws = ctx.workspaces.get(workspaceKey);
    if (
      f.has('embed-unknown-tool-400') &&
      'toolClass' in oc &&
      !(ws ? toolsOf(ws) : []).some((t) => t.toolClass === oc.toolClass)
    )
      return 'unknown toolClass';
    if ('referentKeys' in oc) {
      const keys = oc.referentKeys;
      if (!Array.isArray(keys)) return 'openingContext.referentKeys is not an array';
      const ws = ctx.workspaces.get(workspaceKey);
      for (const k of keys) {
        const r =
          typeof k === 'string' && ws
            ? f.has('embed-foreign-referent-accepted')
              ? ctx.records.get(k)
              : ctx.findRecord(ws, k)
            : undefined;
        if (!r || (r.endUserHandle !== handle && !f.has('embed-foreign-referent-accepted')))
          return 'openingContext.referentKeys names an unknown or unowned key (EMBED-5)';
      }
    }
    // EMBED-8: an unknown toolClass is ignored, never an error.
  }
  return undefined;
}

export function registerEmbed(app: FastifyInstance, ctx: ServiceContext): void {
  app.post<{ Params: { workspaceKey: string } }>('/api/:workspaceKey/embed-tokens', async (req, reply) => {
    const auth = authorize(ctx, req, req.params.workspaceKey, 'embed', ctx.faults.has('embed-any-authorization'));
    if (!auth.ok) return sendError(req, reply, auth.status, ctx.faults);
    if (embedProblem(ctx, req.params.workspaceKey, req.body)) return sendError(req, reply, 400, ctx.faults);
    // UNSPEC-4: the response body is not shown; the reference answers an opaque token.
    return reply.code(200).send({ embedToken: `et_${randomBytes(18).toString('base64url')}`, expiresIn: 3600 });
  });
}
