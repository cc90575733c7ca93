/**
 * The host as a reader of the harness's data API (section 6 rule 8, section 7 "Client behaviour"):
 * completions whose keys the data API then serves, and what the receiver read, judged per key.
 * Each test uses its own endUserHandle and keys, so reads of parallel tests never mix.
 */
import type { HostHarness, ModeEndpoint } from './harness.ts';
import type { DataRead, KeysReadCheck, Payload, SendOutcome } from '../../../judge/host/index.ts';
import { deliver } from './deliver.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './payloads.ts';

/** Handles and keys that a read path must percent-encode: reserved characters, a space, non-ASCII. */
export function encodedHandle(): string {
  return `${freshHandle('u é')}/?#%&+=`;
}
export function encodedKeys(): string[] {
  const tail = freshHandle('k').slice(2);
  return [`sk/${tail}?a#b`, `sk ${tail}%20+`, `sk-ü-${tail}&=`];
}

/** A read fetches the record of `key` when it asks for it by key, or lists the user's records (which include it). */
export const covers =
  (handle: string, key: string) =>
  (r: DataRead): boolean =>
    r.endUserHandle === handle && (r.serviceKey === key || r.serviceKey === null);
/** ...and the harness answered it with the record. */
export const readOk =
  (handle: string, key: string) =>
  (r: DataRead): boolean =>
    covers(handle, key)(r) && r.status === 200;
export const byKey =
  (handle: string, key: string) =>
  (r: DataRead): boolean =>
    r.endUserHandle === handle && r.serviceKey === key;

export const summary = (r: DataRead) => ({
  endUserHandle: r.endUserHandle,
  serviceKey: r.serviceKey,
  status: r.status,
  seq: r.seq,
});

/** The reads of a user, in words (what the receiver asked and what it was answered). */
export function readsInWords(h: HostHarness, handle: string): string {
  const rs = h.service.reads.filter((r) => r.endUserHandle === handle);
  return rs.length === 0
    ? 'no read of this user'
    : rs
        .map(
          (r) =>
            `GET ${r.serviceKey === null ? '/{endUserHandle}' : `/{endUserHandle}/${JSON.stringify(r.serviceKey)}`} answered ${r.status}`,
        )
        .join('; ');
}

export interface Completion {
  payload: Payload;
  outcome: SendOutcome;
  handle: string;
  keys: string[];
}

/**
 * An onComplete whose keys the data API serves (deliver.ts serves them before it leaves), sent with the given
 * attempt. The judge holds it to a read of every key (HOST-13); `keysRead` names the check that decides it
 * when the test has words of its own for it.
 */
export async function complete(
  h: HostHarness,
  ep: ModeEndpoint,
  keys: string[],
  o: { handle?: string; conversationId?: number; attempt?: number; payload?: Payload; keysRead?: KeysReadCheck } = {},
): Promise<Completion> {
  const handle = o.handle ?? freshHandle();
  const payload =
    o.payload ??
    lifecyclePayload(
      'onComplete',
      {
        workspaceKey: h.target.workspaceKey,
        configEnd: h.target.configEnd,
        endUserHandle: handle,
        conversationId: o.conversationId ?? freshConversationId(),
        hookPath: ep.hookPath,
      },
      { serviceKeys: keys },
    );
  const outcome = await deliver(h, ep, payload, {
    ...(o.attempt === undefined ? {} : { attempt: o.attempt }),
    ...(o.keysRead === undefined ? {} : { expect: { keysRead: o.keysRead } }),
  });
  return { payload, outcome, handle, keys };
}

/** The first read matching after a given journal position, within the deadline. */
export function readAfter(
  h: HostHarness,
  pred: (r: DataRead) => boolean,
  afterSeq: number,
  deadlineMs: number,
): Promise<DataRead | undefined> {
  return h.service.waitForRead((r) => r.seq > afterSeq && pred(r), deadlineMs);
}

/** The journal's position now (after a round trip when the service side is shared). */
export async function journalSeq(h: HostHarness): Promise<number> {
  await h.service.sync();
  return Math.max(0, ...h.service.reads.map((r) => r.seq), ...h.service.jwksFetches.map((f) => f.seq));
}
