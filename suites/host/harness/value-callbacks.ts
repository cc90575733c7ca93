/**
 * The callbacks that carry the value classes (value-classes.ts): each class on every event whose
 * members it fills (2.2), and payloads written in other bytes for the same JSON value. Pure: the
 * live suite sends them (values.spec.ts) and a self test checks each is valid per spec/openapi.yaml.
 */
import { freshConversationId, lifecyclePayload, type CallbackContext, type Payload } from './payloads.ts';
import { CONVERSATION_ID_CLASSES, HANDLE_CLASSES, KEY_CLASSES, escapedJson, type TextClass } from './value-classes.ts';

export interface ValueCallback {
  name: string;
  payload: Payload;
  /** The bytes sent when not JSON.stringify(payload): the same value written with \u escapes and \/. */
  body?: string;
}

export type CallbackBase = Omit<CallbackContext, 'endUserHandle' | 'conversationId'>;

const keyOf = (id: string): TextClass => KEY_CLASSES.find((k) => k.id === id)!;

export function valueCallbacks(base: CallbackBase): ValueCallback[] {
  const ctx = (endUserHandle: string, conversationId = freshConversationId()) => ({
    ...base,
    endUserHandle,
    conversationId,
  });
  const at = (c: TextClass) => ctx(c.make());
  const out: ValueCallback[] = [];
  // onComplete with a handle of every class: values.spec.ts's read test, whose reads the handle's path must carry.
  for (const c of HANDLE_CLASSES)
    for (const event of ['onStart', 'config.saved'] as const)
      out.push({
        name: `${event} with endUserHandle of ${c.id} (${c.words})`,
        payload: lifecyclePayload(event, at(c)),
      });
  const plain = HANDLE_CLASSES[0]!;
  for (const k of KEY_CLASSES)
    for (const event of ['config.saved', 'config.deleted'] as const)
      out.push({
        name: `${event} with serviceKey of ${k.id} (${k.words})`,
        payload: lifecyclePayload(event, at(plain), { serviceKey: k.make() }),
      });
  out.push({
    name: 'onComplete with a serviceKey of every class',
    payload: lifecyclePayload('onComplete', at(plain), { serviceKeys: KEY_CLASSES.map((k) => k.make()) }),
  });
  out.push({
    name: 'config.bulk_deleted with keys of every class',
    payload: lifecyclePayload('config.bulk_deleted', at(plain), {
      count: KEY_CLASSES.length,
      page: 1,
      totalPages: 1,
      keys: KEY_CLASSES.map((k) => k.make()),
    }),
  });
  for (const n of CONVERSATION_ID_CLASSES)
    for (const event of ['onStart', 'onComplete'] as const)
      out.push({
        name: `${event} with conversationId ${n.words}`,
        payload: lifecyclePayload(event, ctx(plain.make(), n.make())),
      });
  // The same JSON value in other bytes: non-ASCII as \u escapes, '/' as \/ (any JSON writer may).
  for (const c of HANDLE_CLASSES.filter((x) => /non-ascii|astral|reserved/.test(x.id))) {
    const payload = lifecyclePayload('config.saved', at(c), { serviceKey: keyOf('key.non-ascii').make() });
    out.push({ name: `config.saved of ${c.id} written with \\u escapes and \\/`, payload, body: escapedJson(payload) });
  }
  return out;
}
