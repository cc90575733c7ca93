/** Driver routes of a conversation's life: open, observe, interrupt, idle sweep (section 3, 6). */
import { sessionPayload } from '../events.ts';
import { fetchFacts, factsClassOf, factsInEffect, replyLanguages } from '../facts.ts';
import type { Conversation } from '../model.ts';
import { bodyOf, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

export function registerConversationRoutes(d: DriverScope): void {
  const { app, ctx } = d;
  const f = ctx.faults;

  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/conversations`, async (req, reply) => {
    const ws = d.workspace(req.params.key);
    const b = bodyOf(req);
    const endUserHandle = d.handleOf(b.endUserHandle, 'endUserHandle');
    const cls = d.dataClass(ws, b.configEnd, 'configEnd');
    const conv: Conversation = { conversationId: ctx.nextConversationId(), workspace: ws, endUserHandle, configEnd: cls.configEnd, state: 'open', openerLanguage: 'English', touched: [] };
    ctx.conversations.set(conv.conversationId, conv);
    if (f.has('facts-applied-same-open') && factsClassOf(ws)) await fetchFacts(ctx, ws, endUserHandle); // FACTS-6 broken on purpose
    // FACTS-6/9: the opener uses the facts in effect before this open's own fetch.
    conv.openerLanguage = replyLanguages(ctx, factsInEffect(ctx, ws, endUserHandle)?.facts)[0] ?? 'English';
    void d.lifecycle(conv, 'onStart', sessionPayload(ctx, conv, 'onStart'));
    // FACTS-5: in the background; the open never waits for it.
    if (!f.has('facts-applied-same-open')) void fetchFacts(ctx, ws, endUserHandle);
    return reply.code(201).send({ conversationId: conv.conversationId, openerLanguage: conv.openerLanguage });
  });

  app.get<{ Params: { id: string } }>(`${P}/conversations/:id`, async (req) => {
    const c = d.conversation(req.params.id);
    return { conversationId: c.conversationId, workspaceKey: c.workspace.workspaceKey, endUserHandle: c.endUserHandle, configEnd: c.configEnd, state: c.state, openerLanguage: c.openerLanguage };
  });

  /** Marks the drafts of a conversation closed without completing (read by seeded faults only). */
  const closeDrafts = (conv: Conversation) => {
    for (const k of conv.touched) {
      const r = ctx.findRecord(conv.workspace, k);
      if (r?.callbackStatus !== 'PENDING') continue;
      r.trail = { ...r.trail, closedDraft: true };
      // STATE-1 broken on purpose by sweep-finalizes-drafts: drafts of a swept conversation stored as DELIVERED.
      if (conv.state === 'timed-out' && f.has('sweep-finalizes-drafts')) r.callbackStatus = 'DELIVERED';
    }
  };

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/interrupt`, async (req) => {
    const conv = d.conversation(req.params.id);
    conv.state = 'interrupted';
    closeDrafts(conv);
    void d.lifecycle(conv, 'onSessionInterrupted', sessionPayload(ctx, conv, 'onSessionInterrupted')); // EVT-20
    return {};
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/idle-sweep`, async (req) => {
    const conv = d.conversation(req.params.id);
    conv.state = 'timed-out';
    closeDrafts(conv);
    void d.lifecycle(conv, 'onSessionTimeout', sessionPayload(ctx, conv, 'onSessionTimeout')); // EVT-21
    return {};
  });
}
