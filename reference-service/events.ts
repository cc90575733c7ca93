/**
 * Callback payloads of section 2.2, built as the types generated from spec/openapi.yaml (closed
 * shapes), then handed to the shape faults, which alone may break them on the wire.
 */
import type {
  CallbackStatus,
  ConfigBulkDeletedPayload,
  ConfigDeletedPayload,
  ConfigSavedPayload,
  LifecycleCommon,
  LifecyclePayload,
  OnCompletePayload,
  OnSessionInterruptedPayload,
  OnSessionTimeoutPayload,
  OnStartPayload,
} from '../protocol/index.ts';
import { CONTRACT } from '../protocol/index.ts';
import { contractTimestamp } from './clock.ts';
import type { ServiceContext } from './context.ts';
import type { Conversation, Payload } from './model.ts';

export type { Payload };

type Event = LifecyclePayload['event'];

/** EVT-4: event, workspaceKey, configEnd, endUserHandle, conversationId, timestamp. */
export function commonFields<E extends Event>(
  ctx: ServiceContext,
  conv: Conversation,
  event: E,
  configEnd: string = conv.configEnd,
): LifecycleCommon & { event: E } {
  const f = ctx.faults;
  return {
    event,
    workspaceKey: conv.workspace.workspaceKey,
    configEnd: f.has('configend-without-slash') ? configEnd.replace(/^\/+/, '') : configEnd, // EVT-12
    endUserHandle: conv.endUserHandle,
    conversationId: conv.conversationId,
    timestamp: eventTimestamp(f), // EVT-14
  };
}

/** EVT-14: the sending time, date-time with milliseconds and no zone (three seeded faults bend it). */
function eventTimestamp(f: ServiceContext['faults']): string {
  const ts = contractTimestamp(
    Date.now() + (f.has('timestamp-local-time') ? 2 * 3_600_000 : 0),
    f.has('timestamp-with-zone'),
  );
  return f.has('timestamp-no-millis') ? ts.slice(0, 19) : ts;
}

/** The faults that break a payload's types: applied last, member order kept. */
function onWire(ctx: ServiceContext, payload: LifecyclePayload, drop: string[] = [], add: Payload = {}): Payload {
  const f = ctx.faults;
  const out: Payload = {};
  for (const [name, value] of Object.entries(payload)) {
    if (drop.includes(name)) continue;
    if (name === 'event' && f.has('eventtype-instead-of-event'))
      out.eventType = value; // EVT-3
    else if (name === 'conversationId' && f.has('conversation-id-string'))
      out.conversationId = String(value); // EVT-13
    else out[name] = value;
  }
  return Object.assign(out, add);
}

/** EVT-5: onStart, onSessionInterrupted, onSessionTimeout carry serviceKeys, empty. */
export function sessionPayload(
  ctx: ServiceContext,
  conv: Conversation,
  event: 'onStart' | 'onSessionInterrupted' | 'onSessionTimeout',
): Payload {
  const f = ctx.faults;
  const p: OnStartPayload | OnSessionInterruptedPayload | OnSessionTimeoutPayload = {
    ...commonFields(ctx, conv, event),
    // EVT-5 broken on purpose by session-events-carry-touched-keys: a closing conversation names what it touched.
    serviceKeys: event !== 'onStart' && f.has('session-events-carry-touched-keys') ? [...conv.touched] : [],
  };
  const drop =
    event === 'onStart' && f.has('onstart-without-servicekeys')
      ? ['serviceKeys']
      : event === 'onSessionInterrupted' && f.has('interrupted-without-timestamp')
        ? ['timestamp']
        : [];
  // EVT-15 broken on purpose by timeout-event-misspelled.
  return onWire(
    ctx,
    p,
    drop,
    event === 'onSessionTimeout' && f.has('timeout-event-misspelled') ? { event: 'onSessionTimedOut' } : {},
  );
}

/** EVT-6/7: every finalized key, and path echoing hookPath. */
export function completePayload(
  ctx: ServiceContext,
  conv: Conversation,
  serviceKeys: string[],
  hookPath: string | null,
  values: Record<string, unknown>,
): Payload {
  const f = ctx.faults;
  const p: OnCompletePayload = {
    ...commonFields(ctx, conv, 'onComplete'),
    serviceKeys: f.has('oncomplete-first-key-only') ? serviceKeys.slice(0, 1) : serviceKeys,
    path: hookPath ?? '',
  };
  // EVT-2 broken on purpose by oncomplete-inline-data.
  return onWire(
    ctx,
    p,
    f.has('oncomplete-without-path') ? ['path'] : [],
    f.has('oncomplete-inline-data') ? { data: values } : {},
  );
}

/** EVT-8: serviceKey, changedFields (dotted paths, no values), callbackStatus at save time. */
export function savedPayload(
  ctx: ServiceContext,
  conv: Conversation,
  configEnd: string,
  serviceKey: string,
  changedFields: string[],
  callbackStatus: CallbackStatus,
): Payload {
  const p: ConfigSavedPayload = {
    ...commonFields(ctx, conv, 'config.saved', configEnd),
    serviceKey,
    changedFields,
    callbackStatus,
  };
  // EVT-8 broken on purpose by saved-status-lowercase.
  return onWire(
    ctx,
    p,
    [],
    ctx.faults.has('saved-status-lowercase') ? { callbackStatus: callbackStatus.toLowerCase() } : {},
  );
}

/** EVT-9: serviceKey singular, no serviceKeys. */
export function deletedPayload(
  ctx: ServiceContext,
  conv: Conversation,
  configEnd: string,
  serviceKey: string,
): Payload {
  const p: ConfigDeletedPayload = { ...commonFields(ctx, conv, 'config.deleted', configEnd), serviceKey };
  // EVT-9 broken on purpose by deleted-with-servicekeys.
  return onWire(ctx, p, [], ctx.faults.has('deleted-with-servicekeys') ? { serviceKeys: [serviceKey] } : {});
}

/** EVT-10, PAGE-1..5: pages of at most 500 keys, numbered from 1, count on every page. */
export function bulkPages(
  ctx: ServiceContext,
  conv: Conversation,
  configEnd: string,
  keys: string[],
  unlisted?: (key: string) => boolean,
): Payload[] {
  const f = ctx.faults;
  const size = f.has('bulk-501-keys')
    ? CONTRACT.bulkPageSize + 1
    : f.has('bulk-499-per-page')
      ? CONTRACT.bulkPageSize - 1
      : CONTRACT.bulkPageSize;
  const totalPages = Math.ceil(keys.length / size); // PAGE-2: an empty scope sends no page
  const pages: Payload[] = [];
  for (let i = 0; i < totalPages; i += 1) {
    const p: ConfigBulkDeletedPayload = {
      ...commonFields(ctx, conv, 'config.bulk_deleted', configEnd),
      count: keys.length,
      page: f.has('pages-from-zero') ? i : i + 1,
      totalPages,
      keys: keys.slice(i * size, (i + 1) * size).filter((k) => !unlisted?.(k)),
    };
    // PAGE-5 broken on purpose by bulk-duplicate-key: the last page ends with the first key again.
    if (f.has('bulk-duplicate-key') && i > 0 && i === totalPages - 1) p.keys = [...p.keys.slice(0, -1), keys[0]!];
    const add: Payload = {
      ...(f.has('bulk-extra-member') ? { scope: configEnd } : {}), // EVT-2
      ...(f.has('bulk-count-string') ? { count: String(keys.length) } : {}), // EVT-10
      ...(f.has('bulk-deleted-org-handle') ? { endUserHandle: `org-${conv.workspace.workspaceKey}` } : {}), // EVT-11
    };
    pages.push(onWire(ctx, p, f.has('count-only-page-one') && i > 0 ? ['count'] : [], add));
  }
  // PAGE-3 broken on purpose by bulk-page-one-twice: the first page again in place of the second.
  if (f.has('bulk-page-one-twice') && pages.length > 1) pages[1] = pages[0]!;
  return pages;
}
