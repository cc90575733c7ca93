/** Driver routes of workspaces: create, patch, the local listen pipe, and the user facts in effect (observation). */
import { replyLanguages, factsInEffect } from '../facts.ts';
import { badRequest, createWorkspace, patchWorkspace, workspaceView } from '../workspaces.ts';
import { rotateJwksKey } from '../signing.ts';
import { bodyOf, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

export function registerWorkspaceRoutes(d: DriverScope): void {
  const { app, ctx } = d;

  app.post(`${P}/workspaces`, async (req, reply) =>
    reply.code(201).send(workspaceView(ctx, createWorkspace(ctx, bodyOf(req)))),
  );

  app.patch<{ Params: { key: string } }>(`${P}/workspaces/:key`, async (req) => {
    const ws = d.workspace(req.params.key);
    const body = bodyOf(req);
    // SIGN-2 broken on purpose by mode-switch-keeps-hmac: a switch from HMAC to JWKS is ignored.
    const keep =
      ctx.faults.has('mode-switch-keeps-hmac') &&
      ws.signing.mode === 'hmac' &&
      (body.signing as { mode?: unknown } | undefined)?.mode === 'jwks';
    return workspaceView(ctx, patchWorkspace(ws, keep ? { ...body, signing: ws.signing } : body));
  });

  // Capability signing-jwks-rotation (SIGN-9): a new key and kid for the workspace, in the same document.
  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/jwks/rotate`, async (req) => {
    const ws = d.workspace(req.params.key);
    if (ws.signing.mode !== 'jwks') throw badRequest('signing.mode', 'a JWKS rotation needs a workspace in jwks mode');
    return rotateJwksKey(ctx.ring, ws, ctx.faults);
  });

  // HOOK-5, SIGN-15: a running local listen pipe receives the workspace's events instead of the host POST.
  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/listen`, async (req) => {
    const ws = d.workspace(req.params.key);
    const b = bodyOf(req);
    if (b.forwardTo === null) {
      ctx.listenPipes.delete(ws.workspaceKey);
      return { forwardTo: null };
    }
    let url: URL | undefined;
    try {
      url = typeof b.forwardTo === 'string' ? new URL(b.forwardTo) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw badRequest('forwardTo', 'forwardTo must be an absolute http(s) URL or null');
    ctx.listenPipes.set(ws.workspaceKey, url);
    return { forwardTo: url.href };
  });

  app.get<{ Params: { key: string; handle: string } }>(`${P}/workspaces/:key/users/:handle/facts`, async (req) => {
    const ws = d.workspace(req.params.key);
    const entry = factsInEffect(ctx, ws, req.params.handle);
    return {
      facts: entry?.facts ?? null,
      languages: replyLanguages(ctx, entry?.facts),
      fetchedAt: entry?.fetchedAt ?? null,
    };
  });
}
