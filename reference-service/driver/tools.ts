/** The driver's tool call: the service dispatches a tool to the host (TOOL-1, TOOL-2). */
import { CONTRACT } from '../../protocol/index.ts';
import { joinUrl } from '../delivery.ts';
import { effectiveHookPath, effectiveHostBaseUrl, toolsOf } from '../model.ts';
import { signatureFor } from '../signing.ts';
import { badRequest } from '../workspaces.ts';
import { bodyOf, isObj, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

export function registerToolRoutes(d: DriverScope): void {
  const { app, ctx } = d;
  const f = ctx.faults;

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/tool-calls`, async (req) => {
    const conv = d.conversation(req.params.id);
    const b = bodyOf(req);
    const ws = conv.workspace;
    const tool = toolsOf(ws).find((t) => t.toolClass === b.toolClass);
    if (!tool) throw badRequest('toolClass', `no tool ${String(b.toolClass)} in workspace ${ws.workspaceKey}`);
    if (b.input !== undefined && !isObj(b.input)) throw badRequest('input', 'input must be an object');
    const base = effectiveHostBaseUrl(ws);
    const path = f.has('tool-dispatch-to-hook') ? (effectiveHookPath(ws) ?? tool.path) : tool.path; // TOOL-1
    if (!base) {
      ctx.log('info', 'tool.skipped', `tool.dispatch ${tool.toolClass} skipped: hostBaseUrl is not set`, {
        workspaceKey: ws.workspaceKey,
      });
      return { status: null };
    }
    // UNSPEC-11: the payload is the reference's own choice.
    const body = Buffer.from(
      JSON.stringify({
        toolClass: tool.toolClass,
        conversationId: conv.conversationId,
        endUserHandle: conv.endUserHandle,
        input: b.input ?? {},
      }),
      'utf8',
    );
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Service-Event': 'tool.dispatch' };
    const signature = f.has('tool-dispatch-unsigned') ? undefined : await signatureFor(ws, ctx.ring, f, body); // TOOL-2
    if (signature !== undefined) headers['X-Service-Signature'] = signature;
    // Section 8: the callback timeouts apply to every callback, tool dispatches included.
    const outcome = await ctx.sender.send({
      method: 'POST',
      url: new URL(joinUrl(base, path)),
      headers,
      body,
      connectTimeoutMs: ctx.clock.scaled(CONTRACT.connectTimeoutMs),
      requestTimeoutMs: ctx.clock.scaled(CONTRACT.requestTimeoutMs),
    });
    return { status: outcome.kind === 'answer' ? outcome.status : null };
  });
}
