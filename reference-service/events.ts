/** Callback payloads of section 2.2 (closed shapes of spec/openapi.yaml), with the shape faults. */
import { CONTRACT } from '../protocol/index.ts';
import { contractTimestamp } from './clock.ts';
import type { ServiceContext } from './context.ts';
import type { CallbackStatus, Conversation } from './model.ts';

export type Payload = Record<string, unknown>;

/** EVT-4: event, workspaceKey, configEnd, endUserHandle, conversationId, timestamp. */
export function commonFields(ctx: ServiceContext, conv: Conversation, event: string, configEnd: string = conv.configEnd): Payload {
  const f = ctx.faults;
  const p: Payload = {};
  p[f.has('eventtype-instead-of-event') ? 'eventType' : 'event'] = event; // EVT-3
  p.workspaceKey = conv.workspace.workspaceKey;
  p.configEnd = f.has('configend-without-slash') ? configEnd.replace(/^\/+/, '') : configEnd; // EVT-12
  p.endUserHandle = conv.endUserHandle;
  p.conversationId = f.has('conversation-id-string') ? String(conv.conversationId) : conv.conversationId; // EVT-13
  p.timestamp = contractTimestamp(Date.now(), f.has('timestamp-with-zone')); // EVT-14
  return p;
}

/** EVT-5: onStart, onSessionInterrupted, onSessionTimeout carry serviceKeys, empty. */
export function sessionPayload(ctx: ServiceContext, conv: Conversation, event: 'onStart' | 'onSessionInterrupted' | 'onSessionTimeout'): Payload {
  const p = commonFields(ctx, conv, event);
  if (!(event === 'onStart' && ctx.faults.has('onstart-without-servicekeys'))) p.serviceKeys = [];
  return p;
}

/** EVT-6/7: every finalized key, and path echoing hookPath. */
export function completePayload(ctx: ServiceContext, conv: Conversation, serviceKeys: string[], hookPath: string | null, values: Record<string, unknown>): Payload {
  const p = commonFields(ctx, conv, 'onComplete');
  p.serviceKeys = ctx.faults.has('oncomplete-first-key-only') ? serviceKeys.slice(0, 1) : serviceKeys;
  if (!ctx.faults.has('oncomplete-without-path')) p.path = hookPath ?? '';
  if (ctx.faults.has('oncomplete-inline-data')) p.data = values; // EVT-2 broken on purpose
  return p;
}

/** EVT-8: serviceKey, changedFields (dotted paths, no values), callbackStatus at save time. */
export function savedPayload(ctx: ServiceContext, conv: Conversation, configEnd: string, serviceKey: string, changedFields: string[], callbackStatus: CallbackStatus): Payload {
  const p = commonFields(ctx, conv, 'config.saved', configEnd);
  p.serviceKey = serviceKey;
  p.changedFields = changedFields;
  p.callbackStatus = callbackStatus;
  return p;
}

/** EVT-9: serviceKey singular, no serviceKeys. */
export function deletedPayload(ctx: ServiceContext, conv: Conversation, configEnd: string, serviceKey: string): Payload {
  const p = commonFields(ctx, conv, 'config.deleted', configEnd);
  p.serviceKey = serviceKey;
  return p;
}

/** EVT-10, PAGE-1..5: pages of at most 500 keys, numbered from 1, count on every page. */
export function bulkPages(ctx: ServiceContext, conv: Conversation, configEnd: string, keys: string[]): Payload[] {
  const f = ctx.faults;
  const size = f.has('bulk-501-keys') ? CONTRACT.bulkPageSize + 1 : CONTRACT.bulkPageSize;
  const totalPages = Math.ceil(keys.length / size); // PAGE-2: an empty scope sends no page
  const pages: Payload[] = [];
  for (let i = 0; i < totalPages; i += 1) {
    const p = commonFields(ctx, conv, 'config.bulk_deleted', configEnd);
    if (!(f.has('count-only-page-one') && i > 0)) p.count = keys.length;
    p.page = f.has('pages-from-zero') ? i : i + 1;
    p.totalPages = totalPages;
    p.keys = keys.slice(i * size, (i + 1) * size);
    pages.push(p);
  }
  return pages;
}
