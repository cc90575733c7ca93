/**
 * The contract's header checks on one request, recorded in its journal entry: lifecycle
 * callbacks (HDR-1..6, HOOK-1), tool dispatches (TOOL-1, TOOL-2), the facts GET (FACTS-1..4).
 * Each check is a fact about this one request; cross-request rules (attempt counting,
 * schedules) are assertions over the journal.
 */
import {
  ATTEMPT_HEADER,
  DELIVERY_ID_HEADER,
  END_USER_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  WORKSPACE_HEADER,
} from '../protocol/index.ts';
import { share, shareCheck } from './compact.ts';
import { isJsonContentType } from './content-type.ts';
import type { EntryCheck, RouteKind } from './types.ts';

type Headers = Record<string, string | string[] | undefined>;

function one(h: Headers, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function q(v: string | undefined): string {
  return v === undefined ? 'absent' : JSON.stringify(v);
}

export interface CheckInput {
  kind: RouteKind;
  method: string;
  headers: Headers;
  json: unknown;
  /** 'unknown': nobody said whether the workspace signs, so presence is not checked. */
  signingMode: 'none' | 'hmac' | 'jwks' | 'unknown';
  query: Record<string, string | string[]>;
}

/**
 * Joins the parts of a detail sentence into one flat string. A template literal would leave a
 * tree of string pieces in every journal entry (six checks each), which the GC walks for as long
 * as the journal keeps the entry; the text is the same.
 */
function cat(...parts: string[]): string {
  return parts.join('');
}

/** cat, for a sentence that repeats across requests (the usual valid case): one shared copy. */
function catShared(...parts: string[]): string {
  return share(parts.join(''));
}

/**
 * The checks that repeat from request to request, by the few inputs that decide them: a lookup
 * instead of building the sentence and its sharing key again (the same shared, frozen check
 * shareCheck gives). Bounded: past the bound a check is built as before.
 */
const MAX_MEMO = 1024;
const METHOD = new Map<string, EntryCheck>();
const CONTENT_TYPE = new Map<string, EntryCheck>();
const EVENT = new Map<string, EntryCheck>();
/** a lifecycle callback's HDR-2 check by its X-Service-Event, then by its body.event (each bounded) */
const LIFECYCLE_EVENT = new Map<string, Map<string, EntryCheck>>();
const MAX_EVENT_MEMO = 64;
const ATTEMPT = new Map<string, EntryCheck>();
const PRESENCE = new Map<string, EntryCheck>();
const ABSENT_KEY = '\u0000';

function remember(cache: Map<string, EntryCheck>, key: string, check: EntryCheck): EntryCheck {
  if (cache.size < MAX_MEMO) cache.set(key, check);
  return check;
}

const SIG_ABSENT_OFF = 'X-Service-Signature is absent; signing is off for this route';
const SIG_PRESENT_OFF = 'X-Service-Signature is present; signing is off for this route';

function presence(out: EntryCheck[], i: CheckInput, sig: string | undefined, clause: string): void {
  // HDR-6 / TOOL-2 / FACTS-4 when signing is on; SIGN-1 (absent) when the workspace has signing off
  if (i.signingMode === 'unknown') return;
  const key = (sig === undefined ? '0' : '1') + i.signingMode + (i.kind === 'facts' ? 'F' : '') + clause;
  const known = PRESENCE.get(key);
  if (known !== undefined) {
    out.push(known);
    return;
  }
  const before = out.length;
  presenceCheck(out, i, sig, clause);
  if (out.length > before) remember(PRESENCE, key, out[out.length - 1]!);
}

function presenceCheck(out: EntryCheck[], i: CheckInput, sig: string | undefined, clause: string): void {
  if (i.signingMode === 'none')
    out.push(
      shareCheck(
        'signature-absent',
        i.kind === 'facts' ? 'FACTS-4' : 'SIGN-1',
        sig === undefined,
        sig === undefined ? SIG_ABSENT_OFF : SIG_PRESENT_OFF,
      ),
    );
  else
    out.push(
      shareCheck(
        'signature-present',
        clause,
        sig !== undefined,
        catShared(
          'X-Service-Signature is ',
          sig === undefined ? 'absent' : 'present',
          '; signing is enabled (',
          i.signingMode,
          ')',
        ),
      ),
    );
}

/**
 * HDR-2 of a lifecycle callback, looked up by its X-Service-Event then its body.event (no key string
 * built per request) when body.event is a string or absent: any other value is rare and described as it is.
 */
function lifecycleEventCheck(event: string | undefined, bodyEvent: unknown): EntryCheck {
  if (bodyEvent !== undefined && typeof bodyEvent !== 'string') return eventCheck(event, bodyEvent);
  const headerKey = event ?? ABSENT_KEY;
  let byBody = LIFECYCLE_EVENT.get(headerKey);
  if (byBody === undefined) {
    if (LIFECYCLE_EVENT.size >= MAX_EVENT_MEMO) return eventCheck(event, bodyEvent);
    LIFECYCLE_EVENT.set(headerKey, (byBody = new Map()));
  }
  const bodyKey = bodyEvent ?? ABSENT_KEY;
  const known = byBody.get(bodyKey);
  if (known !== undefined) return known;
  const check = eventCheck(event, bodyEvent);
  if (byBody.size < MAX_EVENT_MEMO) byBody.set(bodyKey, check);
  return check;
}

// module level, not a closure per call: the test runner's transform names every inner function
function eventCheck(event: string | undefined, bodyEvent: unknown): EntryCheck {
  return shareCheck(
    'event-header',
    'HDR-2',
    event !== undefined && event === bodyEvent,
    catShared(
      'X-Service-Event is ',
      q(event),
      ', body.event is ',
      bodyEvent === undefined ? 'absent' : String(JSON.stringify(bodyEvent)),
    ),
  );
}

export function headerChecks(i: CheckInput): EntryCheck[] {
  const out: EntryCheck[] = [];
  const h = i.headers;
  const sig = one(h, SIGNATURE_HEADER);
  if (i.kind === 'lifecycle' || i.kind === 'tool') {
    const body =
      typeof i.json === 'object' && i.json !== null && !Array.isArray(i.json)
        ? (i.json as Record<string, unknown>)
        : undefined;
    const event = one(h, EVENT_HEADER);
    const methodKey = (i.kind === 'tool' ? 'T' : 'H') + i.method;
    out.push(
      METHOD.get(methodKey) ??
        remember(
          METHOD,
          methodKey,
          shareCheck(
            'method',
            i.kind === 'tool' ? 'TOOL-1' : 'HOOK-1',
            i.method === 'POST',
            catShared('method is ', i.method, '; the contract sends POST'),
          ),
        ),
    );
    const ct = one(h, 'content-type');
    const ctKey = ct ?? ABSENT_KEY;
    out.push(
      CONTENT_TYPE.get(ctKey) ??
        remember(
          CONTENT_TYPE,
          ctKey,
          shareCheck(
            'content-type',
            'HDR-1',
            isJsonContentType(ct),
            catShared('Content-Type is ', q(ct), '; expected application/json'),
          ),
        ),
    );
    if (i.kind === 'tool') {
      const toolKey = 'T' + (event ?? ABSENT_KEY);
      out.push(
        EVENT.get(toolKey) ??
          remember(
            EVENT,
            toolKey,
            shareCheck(
              'event-header',
              'TOOL-1',
              event === 'tool.dispatch',
              catShared('X-Service-Event is ', q(event), '; expected "tool.dispatch"'),
            ),
          ),
      );
      presence(out, i, sig, 'TOOL-2');
      return out;
    }
    const bodyEvent = body?.event;
    out.push(lifecycleEventCheck(event, bodyEvent));
    const id = one(h, DELIVERY_ID_HEADER);
    const conv = body?.conversationId;
    const expectedId =
      conv !== undefined && typeof bodyEvent === 'string' ? cat('lc-', String(conv), '-', bodyEvent) : undefined;
    out.push({
      name: 'delivery-id',
      clause: 'HDR-3',
      ok: id !== undefined && expectedId !== undefined && id === expectedId,
      detail: cat(
        'X-Service-Delivery-Id is ',
        q(id),
        '; expected ',
        expectedId === undefined
          ? 'lc-<conversationId>-<event> (body lacks conversationId or event)'
          : JSON.stringify(expectedId),
      ),
    });
    const attempt = one(h, ATTEMPT_HEADER);
    const attemptKey = (bodyEvent === 'onComplete' ? 'C' : 'N') + (attempt === undefined ? ABSENT_KEY : '=' + attempt);
    let attemptCheck = ATTEMPT.get(attemptKey);
    if (attemptCheck === undefined) {
      if (bodyEvent === 'onComplete') {
        attemptCheck = shareCheck(
          'attempt-header',
          'HDR-4',
          attempt === '1' || attempt === '2' || attempt === '3',
          catShared('X-Service-Delivery-Attempt is ', q(attempt), '; expected 1, 2 or 3 on onComplete'),
        );
      } else {
        attemptCheck = shareCheck(
          'attempt-header',
          'HDR-5',
          attempt === undefined,
          catShared('X-Service-Delivery-Attempt is ', q(attempt), '; it is sent on onComplete only'),
        );
      }
      remember(ATTEMPT, attemptKey, attemptCheck);
    }
    out.push(attemptCheck);
    presence(out, i, sig, 'HDR-6');
    // an exact-size copy: a pushed-to array keeps room for 17, and the journal keeps it
    return out.slice();
  }
  // facts GET (not the hot path: kept as written)
  const add = (name: string, clause: string, ok: boolean, detail: string) => out.push({ name, clause, ok, detail });
  const handle = i.query.endUserHandle;
  const handleText = Array.isArray(handle) ? handle.join(',') : handle;
  add('method', 'FACTS-1', i.method === 'GET', `method is ${i.method}; the facts fetch is a GET`);
  add('query', 'FACTS-1', typeof handle === 'string' && handle !== '', `query endUserHandle is ${q(handleText)}`);
  const accept = one(h, 'accept');
  add(
    'accept',
    'FACTS-2',
    accept !== undefined && /(^|,)\s*application\/json\s*(;|,|$)/i.test(accept),
    `Accept is ${q(accept)}; expected application/json`,
  );
  const event = one(h, EVENT_HEADER);
  add(
    'event-header',
    'FACTS-2',
    event === 'user.facts.fetch',
    `X-Service-Event is ${q(event)}; expected "user.facts.fetch"`,
  );
  const ws = one(h, WORKSPACE_HEADER);
  add('workspace-header', 'FACTS-2', ws !== undefined && ws !== '', `X-Service-Workspace is ${q(ws)}`);
  const eu = one(h, END_USER_HEADER);
  add(
    'end-user-header',
    'FACTS-2',
    eu !== undefined && eu === handleText,
    `X-Service-End-User is ${q(eu)}, query endUserHandle is ${q(handleText)}`,
  );
  const id = one(h, DELIVERY_ID_HEADER);
  const idOk =
    id !== undefined &&
    handleText !== undefined &&
    id.startsWith('uf-') &&
    id.endsWith(`-${handleText}`) &&
    id.length > `uf--${handleText}`.length;
  add(
    'delivery-id',
    'FACTS-3',
    idOk,
    `X-Service-Delivery-Id is ${q(id)}; expected uf-<workspaceId>-${handleText ?? '<endUserHandle>'}`,
  );
  presence(out, i, sig, 'FACTS-4');
  return out;
}
