/**
 * The callbacks that carry the value classes (value-classes.ts), generated with the run's seed: each
 * class of endUserHandle on an event the seed picks among all seven (2.2), each class of serviceKey on a
 * config.* event (beside a handle class, or alone), all of them in one onComplete's serviceKeys and one
 * bulk page's keys, the edges of every integer width as conversationId (and as count and page of a bulk
 * page), the calendar's edges as timestamp, changedFields and callbackStatus from their schemas, and
 * payloads written in other bytes for the same JSON value. Pure: the live suite sends them (values.spec.ts)
 * and a self test checks each is valid per spec/openapi.yaml.
 */
import fc from 'fast-check';
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../../protocol/index.ts';
import { freshConversationId, freshHandle, freshKey, lifecyclePayload, type CallbackContext } from './payloads.ts';
import type { Payload } from '../../../judge/host/index.ts';
import { HANDLE_CLASSES, INTEGER_CLASSES, KEY_CLASSES, classSeed, escapedJson, sampleClass } from './value-classes.ts';
import { CHANGED_FIELDS, ONCOMPLETE_EDGE, TIMESTAMP, conversationIdOf, edgesOf } from './value-numbers.ts';
import { componentSchema, enumOf, integerBounds, memberSchema } from './value-schema.ts';

export interface ValueCallback {
  name: string;
  payload: Payload;
  /** The bytes sent when not JSON.stringify(payload): the same value written with \u escapes and \/. */
  body?: string;
}

export type CallbackBase = Omit<CallbackContext, 'endUserHandle' | 'conversationId'>;

const EVENTS = LIFECYCLE_EVENTS as readonly LifecycleEvent[];
/** Events whose keys no read follows (section 6 rule 8 names onComplete): a key class may ride on them. */
const KEYED: readonly LifecycleEvent[] = ['config.saved', 'config.deleted', 'config.bulk_deleted'];
const pick = <T>(xs: readonly T[], seed: number): T => fc.sample(fc.constantFrom(...xs), { seed, numRuns: 1 })[0]!;

/** The members an event's own schema gives each value (2.2), the value classes' fields apart. */
function members(event: LifecycleEvent, seed: number, keys: () => string[]): Record<string, unknown> {
  const [timestamp] = fc.sample(TIMESTAMP, { seed, numRuns: 1 });
  const common = { timestamp };
  if (event === 'onComplete') return { ...common, serviceKeys: keys() };
  if (event === 'config.saved') {
    const status = pick(enumOf(componentSchema('CallbackStatus')), seed);
    const [changedFields] = fc.sample(CHANGED_FIELDS, { seed, numRuns: 1 });
    return { ...common, serviceKey: keys()[0], changedFields, callbackStatus: status };
  }
  if (event === 'config.deleted') return { ...common, serviceKey: keys()[0] };
  if (event === 'config.bulk_deleted') {
    const ks = keys();
    return { ...common, count: ks.length, page: 1, totalPages: 1, keys: ks };
  }
  return common;
}

export function valueCallbacks(base: CallbackBase, seed: number, perClass = 1): ValueCallback[] {
  const bounds = integerBounds(memberSchema('OnStartPayload', 'conversationId'));
  const ctx = (endUserHandle: string, conversationId = freshConversationId()) => ({
    ...base,
    endUserHandle,
    conversationId,
  });
  const fresh = () => [freshKey()];
  const out: ValueCallback[] = [];
  const plain = () => freshHandle();
  // A handle class and the key class of the same index share a callback when the seed picks an event with
  // a serviceKey that no read follows (config.*); a key class left alone goes on a callback of its own.
  HANDLE_CLASSES.forEach((c, n) => {
    const k = KEY_CLASSES[n];
    const keys = k === undefined ? [] : sampleClass(k, seed, perClass);
    sampleClass(c, seed, perClass).forEach((h, i) => {
      const s = classSeed(seed, `${c.id}#${i}`);
      const event = pick(EVENTS, s);
      const key = keys[i];
      const paired = key !== undefined && k !== undefined && KEYED.includes(event);
      out.push({
        name: `${event} with endUserHandle of ${c.id} (${c.words})${paired ? `, keys of ${k.id} (${k.words})` : ''}`,
        payload: lifecyclePayload(event, ctx(h), members(event, s, paired ? () => [key] : fresh)),
      });
      if (paired) keys[i] = '';
    });
    keys.forEach((key, i) => {
      if (key === '' || k === undefined) return;
      const s = classSeed(seed, `${k.id}#${i}`);
      const event = pick(['config.saved', 'config.deleted'] as const, s);
      out.push({
        name: `${event} with serviceKey of ${k.id} (${k.words})`,
        payload: lifecyclePayload(
          event,
          ctx(plain()),
          members(event, s, () => [key]),
        ),
      });
    });
  });
  // Keys of every class in one list: a reader that stops at the first key it cannot handle misses the rest.
  const everyKey = () => [...new Set(KEY_CLASSES.flatMap((k) => sampleClass(k, classSeed(seed, 'list'), perClass)))];
  for (const event of ['onComplete', 'config.bulk_deleted'] as const)
    out.push({
      name: `${event} with keys of every class`,
      payload: lifecyclePayload(event, ctx(plain()), members(event, seed, everyKey)),
    });
  for (const n of INTEGER_CLASSES)
    edgesOf(n, classSeed(seed, n.id), perClass).forEach((e, i) => {
      const s = classSeed(seed, `${n.id}#${i}`);
      const event = pick(ONCOMPLETE_EDGE(e) ? EVENTS : EVENTS.filter((x) => x !== 'onComplete'), s);
      const id = conversationIdOf(e, event, bounds);
      out.push({
        name: `${event} with conversationId ${id} (${n.id}: ${n.words})`,
        payload: lifecyclePayload(event, ctx(plain(), id), members(event, s, fresh)),
      });
    });
  out.push(...bulkEdges(() => ctx(plain())));
  // The same JSON value in other bytes: non-ASCII as \u escapes, '/' as \/ (any JSON writer may).
  const key = sampleClass(
    KEY_CLASSES.find((k) => k.id === 'key.mixed-widths')!,
    seed,
  )[0]!;
  for (const c of HANDLE_CLASSES.filter((x) => /mixed-widths|bidi|reserved/.test(x.id))) {
    const payload = lifecyclePayload('config.saved', ctx(sampleClass(c, seed)[0]!), { serviceKey: key });
    out.push({ name: `config.saved of ${c.id} written with \\u escapes and \\/`, payload, body: escapedJson(payload) });
  }
  return out;
}

/**
 * A bulk page whose count and page pass an integer width (2.2: count, page and totalPages are
 * integers; 6: 500 keys a page, count on every page): the last page of a scope of 2^31 + a few keys,
 * and one of 32768 pages.
 */
function bulkEdges(c: () => CallbackContext): ValueCallback[] {
  const page = (count: number) => {
    const totalPages = Math.ceil(count / 500);
    const keys = Array.from({ length: count - 500 * (totalPages - 1) }, () => freshKey());
    return lifecyclePayload('config.bulk_deleted', c(), { count, page: totalPages, totalPages, keys });
  };
  const few = 1 + Math.floor(Math.random() * 20);
  return [
    {
      name: 'config.bulk_deleted, the last page of 2^31 + a few keys (count past int32)',
      payload: page(2 ** 31 - 148 + 500 + few),
    },
    { name: 'config.bulk_deleted, page 32768 of 32768 (page past int16)', payload: page(500 * 32767 + few) },
  ];
}
