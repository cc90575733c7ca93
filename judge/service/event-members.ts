/**
 * The members section 2.2 gives each event, by event: serviceKeys empty on the session events (EVT-5),
 * onComplete's path echoing the hook path it was POSTed to (EVT-7), config.saved's changedFields as field
 * paths with no values and its callbackStatus one of two words (EVT-8), config.deleted's one serviceKey
 * (EVT-9), config.bulk_deleted's integers and keys (EVT-10).
 */
import type { JournalEntry } from '../../mock-host/index.ts';
import { at, show } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';

const SESSION_EVENTS = new Set(['onStart', 'onSessionInterrupted', 'onSessionTimeout']);
const PATH: CheckWords = { id: 'payload.oncomplete-path' };
const STATUS: CheckWords = { id: 'payload.saved-status-value' };
const CHANGED: CheckWords = { id: 'payload.changed-fields-paths' };
const STATUSES = new Set(['PENDING', 'DELIVERED']);

/** A dotted field path (a.b.c), never a value: no space, '=', ':', quote or brace, no empty segment. */
function isFieldPath(c: unknown): boolean {
  return typeof c === 'string' && c !== '' && !/[\s="':{}]/.test(c) && c.split('.').every((s) => s !== '');
}

export function judgeEventMembers(e: JournalEntry, p: Record<string, unknown>, event: string, v: Verdicts): void {
  if (SESSION_EVENTS.has(event)) {
    const keys = p.serviceKeys;
    v.that(
      'EVT-5',
      `${event} carries serviceKeys as an empty array`,
      Array.isArray(keys) && keys.length === 0,
      { id: 'payload.session-servicekeys-empty' },
      () => ({ expected: 'serviceKeys: []', seen: `serviceKeys ${show(keys)} (${at(e)})` }),
    );
  }
  if (event === 'config.deleted') {
    v.that(
      'EVT-9',
      'config.deleted carries serviceKey (a string) and no serviceKeys',
      typeof p.serviceKey === 'string' && !('serviceKeys' in p),
      { id: 'payload.deleted-singular' },
      () => ({
        expected: 'serviceKey: a string, no serviceKeys',
        seen: `serviceKey ${show(p.serviceKey)}, serviceKeys ${show(p.serviceKeys)} (${at(e)})`,
      }),
    );
  }
  if (event === 'config.bulk_deleted') {
    // a page without count is PAGE-4's (count is on every page); a count of another type is this clause's
    const ints = ['count', 'page', 'totalPages'].filter((k) => (k !== 'count' || k in p) && !Number.isInteger(p[k]));
    const keysOk = Array.isArray(p.keys) && p.keys.every((k) => typeof k === 'string');
    v.that(
      'EVT-10',
      'config.bulk_deleted carries count, page, totalPages as integers and keys as strings',
      ints.length === 0 && keysOk,
      { id: 'payload.bulk-members' },
      () => ({
        expected: 'integers count, page, totalPages; keys an array of strings',
        seen: `${ints.map((k) => `${k} ${show(p[k])}`).join(', ')}${keysOk ? '' : ` keys ${show(p.keys)}`} (${at(e)})`,
      }),
    );
  }
  if (event === 'onComplete') judgeOnCompletePath(e, p.path, v);
  if (event === 'config.saved') judgeSaved(e, p, v);
}

/** EVT-7: path is the hook path, the tail of the POST's path (hostBaseUrl may carry a path of its own). */
function judgeOnCompletePath(e: JournalEntry, path: unknown, v: Verdicts): void {
  const echoes = typeof path === 'string' && path.startsWith('/') && e.path.endsWith(path);
  v.that(
    'EVT-7',
    'onComplete carries path, echoing the hook path it was POSTed to',
    echoes,
    PATH,
    echoes ? undefined : () => ({ expected: `a tail of ${e.path}`, seen: `path ${show(path)} (${at(e)})` }),
  );
}

/** EVT-8: callbackStatus PENDING or DELIVERED; changedFields a non-empty list of field paths, no values. */
function judgeSaved(e: JournalEntry, p: Record<string, unknown>, v: Verdicts): void {
  const status = p.callbackStatus;
  const word = typeof status === 'string' && STATUSES.has(status);
  v.that(
    'EVT-8',
    'config.saved carries callbackStatus PENDING or DELIVERED',
    word,
    STATUS,
    word ? undefined : () => ({ expected: 'PENDING or DELIVERED', seen: `callbackStatus ${show(status)} (${at(e)})` }),
  );
  const changed = p.changedFields;
  const paths = Array.isArray(changed) && changed.length > 0 && changed.every(isFieldPath);
  v.that(
    'EVT-8',
    'config.saved names what changed as dotted field paths, with no values',
    paths,
    CHANGED,
    paths
      ? undefined
      : () => ({ expected: 'field paths such as "email" or "address.street"', seen: `${show(changed)} (${at(e)})` }),
  );
}
