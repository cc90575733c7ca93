/**
 * The clauses one callback decides by itself (sections 2.1, 2.2, 4.1, 5.2): its payload, its
 * headers and its signature in the declared mode. The mock host already worked out the header
 * checks and the signature verdict of each entry (mock-host/checks.ts, settle.ts): they are reused
 * here, each named by the check id the service suites give the same rule.
 */
import { CONTRACT, LIFECYCLE_EVENTS } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { COMMON_FIELDS, EVENT_FIELDS, TIMESTAMP_PATTERN, header } from './journal.ts';
import { judgeSignature } from './signature.ts';
import { entryCheckWords, judgeAbsentAlsoHdr6, ruleOf } from './entry-checks.ts';
import { notACallback } from './hook-strays.ts';
import { judgeSendingTime } from './sending-time.ts';
import { judgeEventMembers } from './event-members.ts';
import { at, bodyOf, show, type DeclaredSigning } from './words.ts';
import type { CheckWords, Verdicts } from './verdicts.ts';
import { toClauseId } from '../../spec/index.ts';

const BODY_HEADER_RULES = new Set(['HDR-2', 'HDR-3', 'HDR-4', 'HDR-5']);
const OWN_RULE_MEMBERS = new Set(['eventType', 'data', 'values']);
const OWN_RULE_MEMBERS_DELETED = new Set([...OWN_RULE_MEMBERS, 'serviceKeys']);
const EVENTS = new Set<string>(LIFECYCLE_EVENTS);
const INLINE = ['data', 'values'];

/** The members section 2.2 lists for a known event: one set per event, not one per callback. */
const ALLOWED = new Map<string, Set<string>>();
function allowedMembers(event: string): Set<string> {
  let allowed = ALLOWED.get(event);
  if (allowed === undefined) {
    allowed = new Set<string>([...COMMON_FIELDS, ...(EVENT_FIELDS[event] ?? [])]);
    ALLOWED.set(event, allowed);
  }
  return allowed;
}

/** EVT-4: every common field but event (EVT-3's) is a member of p. */
function hasCommonFields(p: Record<string, unknown>): boolean {
  for (const f of COMMON_FIELDS) if (f !== 'event' && !(f in p)) return false;
  return true;
}

/** EVT-2's rule for one event, made once per event rather than once per callback. */
const CLOSED_RULES = new Map<string, string>();
function closedRule(event: string): string {
  let rule = CLOSED_RULES.get(event);
  if (rule === undefined)
    CLOSED_RULES.set(event, (rule = `${event} carries only the members section 2.2 lists for it`));
  return rule;
}

/**
 * Whether p has an own member in neither set: Object.keys(p).some(...) without the array and the
 * closure per callback (the TypeScript loader names every named function it compiles).
 */
function hasUnlisted(p: Record<string, unknown>, allowed: Set<string>, own: Set<string>): boolean {
  for (const k in p) if (Object.prototype.hasOwnProperty.call(p, k) && !allowed.has(k) && !own.has(k)) return true;
  return false;
}

const JSON_OBJECT: CheckWords = { id: 'model.json-object' };
const NO_INLINE_VALUES: CheckWords = { id: 'payload.no-inline-values' };
const EVENT_MEMBER: CheckWords = { id: 'payload.event-member' };
const UNKNOWN_EVENT: CheckWords = { id: 'model.unknown-event' };
const CLOSED_MEMBERS: CheckWords = { id: 'payload.closed-members' };
const COMMON: CheckWords = { id: 'payload.common-fields' };
const CONFIG_END: CheckWords = { id: 'payload.configend-slash' };
const CONVERSATION_ID: CheckWords = { id: 'payload.conversation-id-integer' };
const TIMESTAMP: CheckWords = { id: 'payload.timestamp-form' };

/** The hook paths a callback may go to, in words: a driven run has one per test workspace, so a few and a count. */
function pathsInWords(paths: string[]): string {
  const shown = paths.slice(0, 3).join(' or ');
  return paths.length > 3 ? `${shown} or one of ${paths.length - 3} more hook paths` : shown || 'the hook path';
}

/** An unrouted request that says it is a lifecycle callback went to another path than hookPath (HOOK-1). */
export function judgeUnrouted(e: JournalEntry, v: Verdicts, hookPaths: string[]): void {
  const lifecycleId = header(e, 'x-service-delivery-id')?.startsWith('lc-') === true;
  if (header(e, 'x-service-event') === undefined || !lifecycleId) return;
  v.that('HOOK-1', 'a lifecycle callback is a POST to hostBaseUrl + hookPath', false, {
    id: 'hook.post-to-hook-path',
    expected: `${e.method === 'POST' ? 'POST' : 'a POST'} to ${pathsInWords(hookPaths)}`,
    seen: `${e.method} ${e.path} (${at(e)})`,
  });
}

/** timed: the entry's arrival time is known, so its signature's t is judged against it (SIGN-4). */
export function judgeCallback(
  e: JournalEntry,
  v: Verdicts,
  signing: DeclaredSigning,
  secrets: string[] = [],
  timed = true,
  bound?: Record<string, string[]>,
): void {
  if (notACallback(e, v)) return;
  const body = bodyOf(e);
  const isObject = body !== undefined;
  v.that(
    'EVT-1',
    'a lifecycle callback body is a JSON object',
    isObject,
    JSON_OBJECT,
    isObject ? undefined : () => ({ expected: 'a JSON object', seen: `${e.parseError ?? show(e.json)} (${at(e)})` }),
  );
  const event = typeof body?.event === 'string' ? body.event : undefined;
  for (const c of e.checks) {
    // the header rules read body.event and conversationId: without them the payload clauses decide
    if (BODY_HEADER_RULES.has(c.clause) && !event) continue;
    // an attempt past the third is DELIV-7's (the count), judged over the series (retries.ts)
    if (c.clause === 'HDR-4' && (e.attempt ?? 0) > CONTRACT.maxAttempts) continue;
    if (c.clause === 'HDR-3' && body?.conversationId === undefined) continue;
    // the mock host's detail reads "<what was seen>; expected <what the rule wants>" (mock-host/checks.ts)
    // a header sent with signing off breaks both rules of that one condition (HDR-6's "exactly when")
    if (c.name === 'signature-absent') judgeAbsentAlsoHdr6(e, c.ok, c.detail, v);
    v.that(
      toClauseId(c.clause),
      ruleOf(c.name),
      c.ok,
      entryCheckWords(c),
      c.ok
        ? undefined
        : () => {
            const [seen, expected] = c.detail.split('; expected ') as [string, string | undefined];
            return { expected: expected ?? ruleOf(c.name), seen: `${seen} (${at(e)})` };
          },
    );
  }
  if (body) judgePayload(e, body, v);
  judgeSignature(e, v, signing, secrets, timed, bound);
}

function judgePayload(e: JournalEntry, p: Record<string, unknown>, v: Verdicts): void {
  const noInline = !('data' in p) && !('values' in p);
  v.that(
    'EVT-2',
    'the payload carries no data or values object',
    noInline,
    NO_INLINE_VALUES,
    noInline
      ? undefined
      : () => ({
          expected: 'no data and no values member',
          seen: INLINE.filter((k) => k in p).join(', ') + ` (${at(e)})`,
        }),
  );
  const eventMember = p.eventType === undefined && typeof p.event === 'string';
  v.that(
    'EVT-3',
    'the discriminating field is event, never eventType',
    eventMember,
    EVENT_MEMBER,
    eventMember
      ? undefined
      : () => ({
          expected: 'event: a string, no eventType',
          seen: `event ${show(p.event)}, eventType ${show(p.eventType)} (${at(e)})`,
        }),
  );
  const event = typeof p.event === 'string' ? p.event : undefined;
  if (event === undefined) return;
  const isKnown = EVENTS.has(event);
  const known = v.that(
    'EVT-15',
    'event is one of the exact strings of section 6',
    isKnown,
    UNKNOWN_EVENT,
    isKnown ? undefined : () => ({ expected: [...EVENTS].join(', '), seen: show(event) + ` (${at(e)})` }),
  );
  if (known) {
    const allowed = allowedMembers(event);
    // eventType, data and values, and serviceKeys on config.deleted, are the rules of EVT-3, EVT-2's
    // first check and EVT-9: left to them so this check names only the unlisted members
    const own = event === 'config.deleted' ? OWN_RULE_MEMBERS_DELETED : OWN_RULE_MEMBERS;
    const closed = !hasUnlisted(p, allowed, own);
    v.that(
      'EVT-2',
      closedRule(event),
      closed,
      CLOSED_MEMBERS,
      closed
        ? undefined
        : () => ({
            expected: `members among ${[...allowed].join(', ')}`,
            seen: `also ${Object.keys(p)
              .filter((k) => !allowed.has(k) && !own.has(k))
              .join(', ')} (${at(e)})`,
          }),
    );
  }
  const common = hasCommonFields(p);
  v.that(
    'EVT-4',
    'every payload carries workspaceKey, configEnd, endUserHandle, conversationId and timestamp',
    common,
    COMMON,
    common
      ? undefined
      : () => ({
          expected: 'every common field',
          seen: `no ${COMMON_FIELDS.filter((f) => f !== 'event' && !(f in p)).join(', ')} (${at(e)})`,
        }),
  );
  judgeEventMembers(e, p, event, v);
  if ('configEnd' in p) {
    const slash = typeof p.configEnd === 'string' && p.configEnd.startsWith('/');
    v.that(
      'EVT-12',
      'configEnd carries a leading slash',
      slash,
      CONFIG_END,
      slash ? undefined : () => ({ expected: '"/<configEnd>"', seen: `configEnd ${show(p.configEnd)} (${at(e)})` }),
    );
  }
  if ('conversationId' in p) {
    const integer = Number.isInteger(p.conversationId);
    v.that(
      'EVT-13',
      'conversationId is an integer',
      integer,
      CONVERSATION_ID,
      integer
        ? undefined
        : () => ({ expected: 'an integer', seen: `conversationId ${show(p.conversationId)} (${at(e)})` }),
    );
  }
  if ('timestamp' in p) {
    const form = typeof p.timestamp === 'string' && TIMESTAMP_PATTERN.test(p.timestamp);
    v.that(
      'EVT-14',
      'timestamp is YYYY-MM-DDTHH:MM:SS.mmm with no zone offset',
      form,
      TIMESTAMP,
      form
        ? undefined
        : () => ({ expected: 'YYYY-MM-DDTHH:MM:SS.mmm', seen: `timestamp ${show(p.timestamp)} (${at(e)})` }),
    );
    if (form) judgeSendingTime(e, p.timestamp as string, v);
  }
}
