/**
 * The written-in edges of HOST-26 (and HOST-14's last page): the values a generator rarely hits
 * but a host must still acknowledge.
 */
import { bulkPages } from '../../../protocol/index.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload, type CallbackContext } from './payloads.ts';
import type { Payload } from '../../../judge/host/index.ts';

export interface Edge {
  name: string;
  payload: Payload;
}

/** 255 characters, not starting with org- (2.1: max 255). */
export function longHandle(): string {
  const h = freshHandle('long');
  return h + 'x'.repeat(255 - h.length);
}

/** Latin, Greek, CJK and an emoji-free astral-free mix: UTF-8 of two and three bytes. */
export function nonAsciiHandle(): string {
  return `usér-Ωμέγα-日本語-${freshKey().slice(3, 9)}`;
}

function ctx(
  base: Omit<CallbackContext, 'endUserHandle' | 'conversationId'>,
  endUserHandle = freshHandle(),
): CallbackContext {
  return { ...base, endUserHandle, conversationId: freshConversationId() };
}

function bulk(base: Omit<CallbackContext, 'endUserHandle' | 'conversationId'>, total: number): Edge[] {
  const c = ctx(base);
  const keys = Array.from({ length: total }, () => freshKey());
  return bulkPages(keys).map((page) => ({
    name: `config.bulk_deleted page ${page.page} of ${page.totalPages} with ${page.keys.length} key(s) (${total} in all)`,
    payload: lifecyclePayload('config.bulk_deleted', c, {
      count: page.count,
      page: page.page,
      totalPages: page.totalPages,
      keys: page.keys,
    }),
  }));
}

export function edgePayloads(base: Omit<CallbackContext, 'endUserHandle' | 'conversationId'>): Edge[] {
  const long = longHandle();
  const wide = nonAsciiHandle();
  const wideLong = `ü${'日'.repeat(254)}`;
  return [
    ...bulk(base, 1),
    ...bulk(base, 499),
    ...bulk(base, 500),
    // A last page shorter than the others: 500 + 500 + 237.
    ...bulk(base, 1237),
    { name: 'onStart with a 255-character endUserHandle', payload: lifecyclePayload('onStart', ctx(base, long)) },
    {
      name: 'config.saved with a 255-character endUserHandle',
      payload: lifecyclePayload('config.saved', ctx(base, long)),
    },
    { name: 'onStart with a non-ASCII endUserHandle', payload: lifecyclePayload('onStart', ctx(base, wide)) },
    {
      name: 'config.deleted with a non-ASCII endUserHandle',
      payload: lifecyclePayload('config.deleted', ctx(base, wide)),
    },
    {
      name: 'onSessionInterrupted with a 255-character non-ASCII endUserHandle',
      payload: lifecyclePayload('onSessionInterrupted', ctx(base, wideLong)),
    },
    {
      name: 'onComplete with 300 serviceKeys',
      payload: lifecyclePayload('onComplete', ctx(base), {
        serviceKeys: Array.from({ length: 300 }, () => freshKey()),
      }),
    },
    // conversationId is an integer (2.1) with no bound: past 32 bits, and the largest a JSON number holds exactly.
    {
      name: 'onStart whose conversationId is 2^31',
      payload: lifecyclePayload('onStart', { ...ctx(base), conversationId: 2 ** 31 + Math.floor(Math.random() * 1e6) }),
    },
    {
      name: 'config.saved whose conversationId is 2^53 - 1',
      payload: lifecyclePayload('config.saved', {
        ...ctx(base),
        conversationId: Number.MAX_SAFE_INTEGER - Math.floor(Math.random() * 1e6),
      }),
    },
  ];
}
