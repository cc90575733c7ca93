/** Driver routes of workspaces: create, patch, and the user facts in effect (observation). */
import { replyLanguages, factsInEffect } from '../facts.ts';
import { createWorkspace, patchWorkspace, workspaceView } from '../workspaces.ts';
import { bodyOf, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

export function registerWorkspaceRoutes(d: DriverScope): void {
  const { app, ctx } = d;

  app.post(`${P}/workspaces`, async (req, reply) => reply.code(201).send(workspaceView(ctx, createWorkspace(ctx, bodyOf(req)))));

  app.patch<{ Params: { key: string } }>(`${P}/workspaces/:key`, async (req) => workspaceView(ctx, patchWorkspace(d.workspace(req.params.key), bodyOf(req))));

  app.get<{ Params: { key: string; handle: string } }>(`${P}/workspaces/:key/users/:handle/facts`, async (req) => {
    const ws = d.workspace(req.params.key);
    const entry = factsInEffect(ctx, ws, req.params.handle);
    return { facts: entry?.facts ?? null, languages: replyLanguages(ctx, entry?.facts), fetchedAt: entry?.fetchedAt ?? null };
  });
}
