/** Driver routes of a conversation's life: open, observe, interrupt, idle sweep (section 3, 6). */
import { sessionPayload } from '../events.ts';
import { fetchFacts, factsClassOf, factsInEffect, replyLanguages } from '../facts.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { joinUrl } from '../delivery.ts';
import { effectiveHookPath, effectiveHostBaseUrl, type Conversation, type Workspace } from '../model.ts';
import { bodyOf, DRIVER_PREFIX as P, type DriverScope } from './common.ts';

export function registerConversationRoutes(d: DriverScope): void {
  const { app, ctx } = d;
  const f = ctx.faults;

  app.post<{ Params: { key: string } }>(`${P}/workspaces/:key/conversations`, async (req, reply) => {
    const ws = d.workspace(req.params.key);
    const b = bodyOf(req);
    const endUserHandle = d.handleOf(b.endUserHandle, 'endUserHandle');
    const cls = d.dataClass(ws, b.configEnd, 'configEnd');
    const conv: Conversation = {
      conversationId: ctx.nextConversationId(),
      workspace: ws,
      endUserHandle,
      configEnd: cls.configEnd,
      state: 'open',
      openerLanguage: 'English',
      touched: [],
    };
    ctx.conversations.set(conv.conversationId, conv);
    if (f.has('facts-applied-same-open') && factsClassOf(ws)) await fetchFacts(ctx, ws, endUserHandle); // FACTS-6 broken on purpose
    // FACTS-6/9: the opener uses the facts in effect before this open's own fetch.
    const inEffect = factsInEffect(ctx, ws, endUserHandle)?.facts;
    const preferred = Array.isArray(inEffect?.preferredLanguages)
      ? inEffect.preferredLanguages.filter((x): x is string => typeof x === 'string')
      : [];
    // FACTS-9: the first entry (opener-last-language takes the last one on purpose).
    conv.openerLanguage =
      (f.has('opener-last-language') && preferred.length > 0
        ? preferred[preferred.length - 1]
        : replyLanguages(ctx, inEffect)[0]) ?? 'English';
    // FACTS-14 broken on purpose by hook-health-get: a GET to the hook before the first event.
    if (f.has('hook-health-get')) await healthGet(ws);
    // EVT-16 broken on purpose by onstart-first-conversation-only: "fresh" read as the user's first conversation.
    const earlier = [...ctx.conversations.values()].some(
      (c) => c !== conv && c.workspace === ws && c.endUserHandle === endUserHandle,
    );
    if (!(earlier && f.has('onstart-first-conversation-only')))
      void d.lifecycle(conv, 'onStart', sessionPayload(ctx, conv, 'onStart'));
    // FACTS-5: in the background; the open never waits for it (open-waits-for-facts breaks it on purpose).
    if (f.has('open-waits-for-facts') && factsClassOf(ws)) await fetchFacts(ctx, ws, endUserHandle);
    else if (!f.has('facts-applied-same-open')) void fetchFacts(ctx, ws, endUserHandle);
    return reply.code(201).send({ conversationId: conv.conversationId, openerLanguage: conv.openerLanguage });
  });

  app.get<{ Params: { id: string } }>(`${P}/conversations/:id`, async (req) => {
    const c = d.conversation(req.params.id);
    return {
      conversationId: c.conversationId,
      workspaceKey: c.workspace.workspaceKey,
      endUserHandle: c.endUserHandle,
      configEnd: c.configEnd,
      state: c.state,
      openerLanguage: c.openerLanguage,
    };
  });

  /** A GET to hostBaseUrl + hookPath (hook-health-get only: FACTS-14 says the facts fetch is the only GET). */
  const healthGet = async (ws: Workspace): Promise<void> => {
    const base = effectiveHostBaseUrl(ws);
    const hook = effectiveHookPath(ws);
    if (!base || !hook) return;
    await ctx.sender.send({
      method: 'GET',
      url: new URL(joinUrl(base, hook)),
      headers: { 'X-Service-Workspace': ws.workspaceKey },
      connectTimeoutMs: ctx.clock.scaled(CONTRACT.connectTimeoutMs),
      requestTimeoutMs: ctx.clock.scaled(CONTRACT.requestTimeoutMs),
    });
  };

  /** Marks the drafts of a conversation closed without completing (read by seeded faults only). */
  const closeDrafts = (conv: Conversation) => {
    for (const k of conv.touched) {
      const r = ctx.findRecord(conv.workspace, k);
      if (r?.callbackStatus !== 'PENDING') continue;
      r.trail = { ...r.trail, closedDraft: true };
      // STATE-1 broken on purpose by sweep-finalizes-drafts: drafts of a swept conversation stored as DELIVERED.
      if (conv.state === 'timed-out' && f.has('sweep-finalizes-drafts')) r.callbackStatus = 'DELIVERED';
      // STATE-1 broken on purpose by interrupt-finalizes-drafts: an interrupted conversation's drafts read DELIVERED.
      if (conv.state === 'interrupted' && f.has('interrupt-finalizes-drafts')) r.callbackStatus = 'DELIVERED';
    }
  };

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/interrupt`, async (req) => {
    const conv = d.conversation(req.params.id);
    conv.state = 'interrupted';
    closeDrafts(conv);
    // EVT-20 broken on purpose by interrupt-silent-without-drafts.
    if (conv.touched.length > 0 || !f.has('interrupt-silent-without-drafts'))
      void d.lifecycle(conv, 'onSessionInterrupted', sessionPayload(ctx, conv, 'onSessionInterrupted')); // EVT-20
    return {};
  });

  app.post<{ Params: { id: string } }>(`${P}/conversations/:id/idle-sweep`, async (req) => {
    const conv = d.conversation(req.params.id);
    conv.state = 'timed-out';
    closeDrafts(conv);
    // EVT-21 broken on purpose by sweep-silent-without-drafts; EVT-15 by timeout-event-misspelled.
    const event = f.has('timeout-event-misspelled') ? 'onSessionTimedOut' : 'onSessionTimeout';
    if (conv.touched.length > 0 || !f.has('sweep-silent-without-drafts'))
      void d.lifecycle(conv, event, sessionPayload(ctx, conv, 'onSessionTimeout')); // EVT-21
    return {};
  });
}
