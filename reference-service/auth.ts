/**
 * Authentication of calls to the service (5.1): decided before anything else, so a 401/403 never
 * leaks whether a workspace, record or upload exists.
 */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from './context.ts';
import type { Workspace } from './model.ts';

export type CredentialKind = 'embed' | 'api-key' | 'bearer';

function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : undefined;
}

/** The workspace whose credential the request carries, or undefined (401). */
export function credentialOwner(ctx: ServiceContext, req: FastifyRequest, kind: CredentialKind): Workspace | undefined {
  const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
  let token: string | undefined;
  if (kind === 'api-key') {
    // UNSPEC-19: the reference accepts X-Api-Key or Authorization: Bearer.
    const x = req.headers['x-api-key'];
    token = typeof x === 'string' && x.length > 0 ? x : bearerOf(authorization);
  } else {
    token = bearerOf(authorization);
  }
  if (!token) return undefined;
  for (const ws of ctx.workspaces.values()) {
    if (kind === 'bearer' ? token === ws.bearerToken || token === ws.apiKey : token === ws.apiKey) return ws;
  }
  return undefined;
}

/** AUTH-2..4: a key covers its own workspace and, for production, its sb- sandboxes. */
export function covers(ctx: ServiceContext, owner: Workspace, target: Workspace | undefined): boolean {
  if (!target) return false;
  if (owner === target) return true;
  if (target.parent === owner) return !ctx.faults.has('parent-key-refused-on-sandbox'); // AUTH-3
  return ctx.faults.has('sandbox-key-covers-production') && owner.parent === target; // AUTH-4 broken on purpose
}

export type AuthOutcome = { ok: true; ws: Workspace } | { ok: false; status: 401 | 403 };

export function authorize(
  ctx: ServiceContext,
  req: FastifyRequest,
  workspaceKey: string,
  kind: CredentialKind,
  anyToken = false,
): AuthOutcome {
  // anyToken: a seeded fault's route that takes any credential of the right form for the URL's workspace (EMBED-10,
  // UPLOAD-5, UPLOAD-9, AUTH-1).
  const presented =
    kind === 'api-key' ? (req.headers['x-api-key'] ?? req.headers.authorization) : req.headers.authorization;
  const target0 = ctx.workspaces.get(workspaceKey);
  if (anyToken && target0 && typeof presented === 'string' && presented.length > 0) return { ok: true, ws: target0 };
  const owner = credentialOwner(ctx, req, kind);
  if (!owner) return { ok: false, status: 401 };
  const target = ctx.workspaces.get(workspaceKey);
  if (covers(ctx, owner, target)) return { ok: true, ws: target! };
  const related = target !== undefined && (owner.parent === target || target.parent === owner);
  return { ok: false, status: ctx.faults.has('foreign-key-401') && !related ? 401 : 403 };
}
