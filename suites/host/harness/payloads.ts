/**
 * Callback payloads as the service sends them (section 2.2), built from the contract's fields
 * only, and the headers of section 4.1. Unique conversation ids and handles per test keep tests
 * that share one receiver apart.
 */
import { randomBytes } from 'node:crypto';
import {
  formatCallbackTimestamp,
  lcDeliveryId,
  type LifecycleCommon,
  type LifecycleEvent,
  type LifecyclePayload,
} from '../../../protocol/index.ts';
import type { Payload } from '../../../judge/host/index.ts';

export interface CallbackContext {
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  conversationId: number;
  hookPath: string;
}

let nextConversation = 100_000 + Math.floor(Math.random() * 800_000_000);

export function freshConversationId(): number {
  return nextConversation++;
}

export function freshHandle(prefix = 'u'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export function freshKey(): string {
  return `sk-${randomBytes(8).toString('hex')}`;
}

export function lifecyclePayload(
  event: LifecycleEvent,
  ctx: CallbackContext,
  extra: Record<string, unknown> = {},
): Payload {
  const common: LifecycleCommon & { event: LifecycleEvent } = {
    event,
    workspaceKey: ctx.workspaceKey,
    configEnd: ctx.configEnd,
    endUserHandle: ctx.endUserHandle,
    conversationId: ctx.conversationId,
    timestamp: formatCallbackTimestamp(new Date()),
  };
  // The members each event adds, typed by the payload types generated from spec/openapi.yaml.
  const byEvent: {
    [E in LifecycleEvent]: Omit<Extract<LifecyclePayload, { event: E }>, keyof LifecycleCommon | 'event'>;
  } = {
    onStart: { serviceKeys: [] },
    onSessionInterrupted: { serviceKeys: [] },
    onSessionTimeout: { serviceKeys: [] },
    onComplete: { serviceKeys: [freshKey()], path: ctx.hookPath },
    'config.saved': { serviceKey: freshKey(), changedFields: ['label'], callbackStatus: 'PENDING' },
    'config.deleted': { serviceKey: freshKey() },
    'config.bulk_deleted': { count: 1, page: 1, totalPages: 1, keys: [freshKey()] },
  };
  return { ...common, ...byEvent[event], ...extra } as Payload;
}

/** Section 4.1 headers (signature added by the caller). */
export function callbackHeaders(p: Payload, attempt?: number): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-event': p.event,
    'x-service-delivery-id': lcDeliveryId(p.conversationId, p.event),
  };
  // HDR-5: the attempt header is sent on onComplete only.
  if (p.event === 'onComplete') h['x-service-delivery-attempt'] = String(attempt ?? 1);
  return h;
}

/** The same JSON with unusual but legal whitespace (HOST-24). */
export function oddlySpaced(p: Payload): string {
  return (
    '{\n\t' +
    Object.entries(p)
      .map(([k, v]) => `${JSON.stringify(k)}  :\t${JSON.stringify(v, null, 3)}`)
      .join(' ,\r\n  ') +
    '\n}\n'
  );
}

/** A dot segment: URL parsers move up a level on '.' or '..' in a read path, so neither is sent as a handle or key. */
export const dotSegment = (v: unknown): boolean => v === '.' || v === '..';
