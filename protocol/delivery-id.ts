/**
 * X-Service-Delivery-Id forms: lc-<conversationId>-<event> for lifecycle callbacks (HDR-3, 4.1) and
 * uf-<workspaceId>-<endUserHandle> for the user-facts fetch (FACTS-3).
 */
import { ccsError } from '../spec/index.ts';

export function lcDeliveryId(conversationId: number | string, event: string): string {
  const text = String(conversationId);
  if (!/^-?[0-9]+$/.test(text)) {
    throw ccsError('PROTOCOL_CONVERSATION_ID_INVALID', { got: JSON.stringify(conversationId) });
  }
  if (typeof event !== 'string' || event === '') throw ccsError('PROTOCOL_EVENT_INVALID');
  return `lc-${text}-${event}`;
}

export function ufDeliveryId(workspaceId: string, endUserHandle: string): string {
  if (typeof workspaceId !== 'string' || workspaceId === '') {
    throw ccsError('PROTOCOL_WORKSPACE_ID_INVALID');
  }
  if (typeof endUserHandle !== 'string' || endUserHandle === '') {
    throw ccsError('PROTOCOL_END_USER_HANDLE_INVALID');
  }
  return `uf-${workspaceId}-${endUserHandle}`;
}

export type ParsedDeliveryId =
  | { kind: 'lc'; conversationId: number; event: string; conversationIdText: string }
  | { kind: 'uf'; workspaceId: string; endUserHandle: string };

/**
 * Reads a delivery id. The lc form is unambiguous (an integer, then the event). The uf form is
 * not: workspaceId and endUserHandle may both contain dashes. Pass the endUserHandle when it is
 * known (the X-Service-End-User header names it, FACTS-2) and the split is exact; without it the
 * id is split at the first dash after "uf-", which assumes a workspaceId without dashes.
 * conversationIdText keeps the digits as sent (ids beyond 2^53 lose precision as numbers).
 */
export function parseDeliveryId(id: string, hint?: { endUserHandle?: string }): ParsedDeliveryId | undefined {
  if (typeof id !== 'string') return undefined;
  const lc = /^lc-(-?[0-9]+)-(.+)$/s.exec(id);
  if (lc) {
    const conversationIdText = lc[1] as string;
    return { kind: 'lc', conversationId: Number(conversationIdText), event: lc[2] as string, conversationIdText };
  }
  if (!id.startsWith('uf-')) return undefined;
  const rest = id.slice(3);
  const handle = hint?.endUserHandle;
  if (handle !== undefined) {
    const suffix = `-${handle}`;
    if (handle === '' || !rest.endsWith(suffix) || rest.length === suffix.length) return undefined;
    return { kind: 'uf', workspaceId: rest.slice(0, rest.length - suffix.length), endUserHandle: handle };
  }
  const dash = rest.indexOf('-');
  if (dash <= 0 || dash === rest.length - 1) return undefined;
  return { kind: 'uf', workspaceId: rest.slice(0, dash), endUserHandle: rest.slice(dash + 1) };
}
