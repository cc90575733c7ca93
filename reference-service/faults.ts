/**
 * The seeded faults: each breaks exactly one clause of spec/clauses.yaml and nothing else, so the
 * mutation matrix can prove that the suite of that clause fails and every other suite still passes.
 */
import { CcsError, areaOfClause, type ClauseId } from '../spec/index.ts';

export interface FaultDefinition {
  name: string;
  /** A clause id of spec/clauses.yaml (a mistyped one fails to typecheck). */
  clause: ClauseId;
  sentence: string;
  /** The clause's area prefix, e.g. 'DELIV'. */
  area: string;
  /** Further clauses this fault breaks by its nature (the matrix counts them as its own). */
  also?: readonly ClauseId[];
}

function f(name: string, clause: ClauseId, sentence: string, also?: readonly ClauseId[]): FaultDefinition {
  return { name, clause, sentence, area: areaOfClause(clause), ...(also ? { also } : {}) };
}

export const FAULTS: readonly FaultDefinition[] = Object.freeze([
  // payload shapes
  f('onstart-without-servicekeys', 'EVT-5', 'onStart is sent without its serviceKeys member.'),
  f('eventtype-instead-of-event', 'EVT-3', 'Lifecycle payloads name the discriminator eventType instead of event.'),
  f('oncomplete-inline-data', 'EVT-2', 'onComplete carries an inline data object with the record values.'),
  f('timestamp-with-zone', 'EVT-14', 'Payload timestamps end with a Z zone designator.'),
  f('configend-without-slash', 'EVT-12', 'Payload configEnd is sent without its leading slash.'),
  f('oncomplete-without-path', 'EVT-7', 'onComplete is sent without the path member.'),
  f('oncomplete-first-key-only', 'EVT-6', 'onComplete carries only the first finalized key when a completion finalizes several.'),
  f('conversation-id-string', 'EVT-13', 'conversationId is sent as a string in payloads.'),
  // headers
  f('event-header-mismatch', 'HDR-2', 'X-Service-Event on config.saved is config_saved, not the body event.'),
  f('attempt-header-on-config-saved', 'HDR-5', 'config.saved carries X-Service-Delivery-Attempt: 1.'),
  f('delivery-id-other-form', 'HDR-3', 'X-Service-Delivery-Id is dl-<event>-<conversationId> instead of lc-<conversationId>-<event>.'),
  f('attempt-header-zero-based', 'HDR-4', 'X-Service-Delivery-Attempt counts from 0 (0, 1, 2).'),
  f('signature-header-when-off', 'HDR-6', 'With signing off, an empty X-Service-Signature header is still sent.', ['SIGN-1']),
  // addressing
  f('sandbox-no-inherit-host', 'HOOK-3', 'A sandbox without its own hostBaseUrl does not inherit its parent\'s (events skipped).'),
  f('listen-pipe-also-posts-host', 'HOOK-5', 'With a local listen pipe running, events are POSTed to the host as well as to the pipe.'),
  f('send-without-hookpath', 'HOOK-4', 'With hookPath missing, events are POSTed to hostBaseUrl itself instead of skipped.'),
  // retries and timeouts
  f('two-attempts-only', 'DELIV-7', 'onComplete makes 2 attempts in total instead of 3.'),
  f('four-attempts', 'DELIV-7', 'onComplete makes 4 attempts in total instead of 3.'),
  f('backoff-5s-both', 'DELIV-8', 'The onComplete back-off is 5 s before attempt 3 too (instead of 20 s).'),
  f('retry-config-saved-after-503', 'DELIV-1', 'config.saved is retried after a 503 answer.'),
  f('retry-oncomplete-after-4xx', 'DELIV-10', 'onComplete is retried after a 4xx answer.'),
  f('no-retry-on-timeout', 'DELIV-6', 'onComplete is not retried after a whole-request timeout.'),
  f('no-retry-on-connect-refused', 'DELIV-5', 'onComplete is not retried after a refused connection.'),
  f('no-retry-on-5xx', 'DELIV-4', 'onComplete is not retried after a 5xx answer.'),
  f('request-timeout-20s', 'DELIV-3', 'The whole-request timeout is 20 s instead of 10 s.'),
  f('complete-waits-for-host', 'DELIV-9', 'The complete action waits for the first onComplete attempt before answering.'),
  f('retry-new-delivery-id', 'DELIV-11', 'Each onComplete retry carries a new X-Service-Delivery-Id (suffixed with the attempt).'),
  // signing
  f('hmac-base-without-dot', 'SIGN-12', 'The HMAC base string is t followed by the body with no dot between them.'),
  f('sign-reserialized-body', 'SIGN-8', 'The JWS payload signs a re-serialized (pretty-printed) body, not the bytes sent.'),
  f('stale-t', 'SIGN-4', 'The signature t is 400 s in the past.'),
  f('no-resign-on-retry', 'SIGN-5', 'onComplete retries reuse the first attempt\'s signature header.'),
  f('same-kid-sandbox', 'SIGN-10', 'Sandbox workspaces sign with the production key and kid.'),
  f('hmac-uppercase-hex', 'SIGN-12', 'The HMAC v1 value is uppercase hex.'),
  f('facts-signed-without-get', 'SIGN-6', 'The facts GET is signed over the path and query without the leading "GET ".'),
  f('rotation-signs-with-neither', 'SIGN-14', 'After an HMAC rotation the service signs with a secret that is neither the current nor the previous one.'),
  f('listen-pipe-unsigned', 'SIGN-15', 'Events through a local listen pipe carry no X-Service-Signature although signing is on.'),
  f('hmac-sandbox-parent-secret', 'SIGN-13', 'An HMAC sandbox signs with its production parent\'s secret instead of its own.'),
  f('tool-dispatch-unsigned', 'TOOL-2', 'Tool dispatches carry no X-Service-Signature when signing is on.'),
  f('tool-dispatch-to-hook', 'TOOL-1', 'Tool dispatches are POSTed to the callback hook instead of the tool\'s route.'),
  // paging
  f('bulk-501-keys', 'PAGE-1', 'config.bulk_deleted pages hold 501 keys.'),
  f('pages-from-zero', 'PAGE-2', 'config.bulk_deleted pages are numbered from 0.'),
  f('count-only-page-one', 'PAGE-4', 'count is sent on page 1 only.'),
  // events and states
  f('saved-on-rest-write', 'STATE-3', 'A host REST write fires config.saved.'),
  f('saved-per-field', 'EVT-17', 'config.saved fires once per saved field instead of once per touched instance.'),
  f('rest-write-delivered', 'STATE-2', 'A host REST write stores the record as DELIVERED.'),
  f('saved-status-pending-after-complete', 'EVT-18', 'config.saved after a completion says PENDING although the record is DELIVERED.'),
  f('deleted-before-removal', 'EVT-22', 'config.deleted is sent before the record is removed, which happens only after the host answers.'),
  // auth
  f('sandbox-key-covers-production', 'AUTH-4', 'A sandbox key is accepted on its production workspace.'),
  f('data-get-by-key-without-bearer', 'AUTH-1', 'A data GET by key without a Bearer token is answered.'),
  f('foreign-key-401', 'AUTH-2', 'A valid key of another workspace gets 401 instead of 403.'),
  // data API statuses and bodies
  f('put-answers-404', 'DATA-5', 'PUT on a data route answers 404 instead of 405.'),
  f('not-found-with-message', 'ERR-1', 'Error bodies carry an extra message member.'),
  f('error-500-with-detail', 'ERR-4', 'A 500 body carries the error message and a stack trace.'),
  f('unavailable-503-with-message', 'ERR-5', 'A 503 body carries a message member with retry advice.'),
  f('held-record-read-200', 'DATA-11', 'A GET by key of a record held mid-migration answers 200.'),
  f('list-drops-unbound', 'ENV-5', 'A List read drops a record whose data does not bind.'),
  f('identity-conflict-no-existing-key', 'ERR-3', 'The IDENTITY_CONFLICT body lacks existingKey.'),
  f('draft-completed-at-null', 'ENV-3', 'completedAt is null on drafts.'),
  // embed-tokens limits
  f('embed-handle-255-rejected', 'EMBED-2', 'embed-tokens rejects an endUserHandle of exactly 255 characters.'),
  f('embed-context-16385-accepted', 'EMBED-6', 'embed-tokens accepts an openingContext of 16385 serialized characters.'),
  f('embed-configend-accepted', 'EMBED-9', 'embed-tokens accepts a body with a configEnd field.'),
  // upload limits
  f('upload-file-25mb-plus-1-accepted', 'UPLOAD-3', 'upload accepts a source file of 25 MB + 1 byte.'),
  f('upload-status-other-workspace', 'UPLOAD-8', 'upload status answers 200 for another workspace\'s id.'),
  // facts handling
  f('facts-applied-same-open', 'FACTS-6', 'Facts fetched at an open are applied to that same open.'),
  f('facts-partially-applied', 'FACTS-8', 'A facts answer that does not fit the class is applied field by field (the fitting fields).'),
  f('english-not-appended', 'FACTS-10', 'English is not appended to a preferredLanguages list that lacks it.'),
  f('facts-delivery-id-other-form', 'FACTS-3', 'The facts GET delivery id is uf-<endUserHandle> (no workspaceId).'),
  // combinations: each breaks its rule only where two features meet (the stateful suite's model finds them)
  f('oncomplete-lists-deleted-keys', 'EVT-6', 'onComplete lists every key touched in the conversation, also those deleted through the chat before the completion.'),
  f('scope-delete-this-conversation-only', 'STATE-8', 'A scope delete removes only the records touched in the deleting conversation, though its manifest names the whole scope.'),
  f('unkeyed-write-skips-held-setting', 'DATA-11', 'An unkeyed POST to a Setting whose one record is held mid-migration is applied instead of answered 409.'),
  f('list-drops-closed-drafts', 'DATA-2', 'A List read leaves out drafts whose last conversation closed without completing.'),
  f('cross-endpoint-edit-resets-pending', 'STATE-6', 'A chat edit of a DELIVERED record from a conversation on another configEnd stores it back as PENDING.'),
  f('sweep-finalizes-drafts', 'STATE-1', 'An idle sweep stores the conversation\'s drafts as DELIVERED, with no onComplete.'),
  f('release-keeps-withheld', 'DATA-2', 'A record released from a migration hold stays out of List reads until it is written again.'),
  f('delivered-edit-saved-per-field', 'EVT-17', 'A chat edit of a DELIVERED record fires one config.saved per saved field.'),
  f('turn-status-of-first-instance', 'EVT-18', 'In a turn touching several instances, every config.saved carries the callbackStatus of the first one.'),
  f('chat-delete-rest-record-silent', 'EVT-22', 'A chat delete of a record never saved through the chat fires no config.deleted.'),
  f('setting-chat-after-rest-second-record', 'DATA-13', 'A chat save on a Setting whose one record was written over REST creates a second record.'),
  f('setting-read-after-chat-delete', 'DATA-1', 'After the Setting record is deleted through the chat, GET /{endUserHandle} answers 404 even once the chat saves a new one.'),
  f('manifest-omits-delivered', 'PAGE-5', 'The config.bulk_deleted manifest leaves out DELIVERED records of the scope (count and pages still count them).'),
  f('rest-write-in-live-conversation-saved', 'STATE-3', 'A host REST write to a record touched in a conversation still open fires config.saved.'),
  f('deleted-names-creating-conversation', 'EVT-22', 'config.deleted is sent as an event of the conversation that created the record, not of the one that deleted it.'),
]);

const BY_NAME = new Map(FAULTS.map((fault) => [fault.name, fault]));

/** Throws REFSVC_FAULT_UNKNOWN naming the unknown fault and listing the known ones. */
export function validateFaults(names: readonly string[]): string[] {
  for (const name of names) {
    if (!BY_NAME.has(name)) {
      throw new CcsError('REFSVC_FAULT_UNKNOWN', `unknown seeded fault '${name}'; known faults: ${FAULTS.map((x) => x.name).join(', ')}`, { fault: name });
    }
  }
  return [...new Set(names)];
}

/** The switch set a running service consults: one lookup per decision point. */
export class FaultSet {
  private readonly on: Set<string>;
  constructor(names: readonly string[]) {
    this.on = new Set(validateFaults(names));
  }
  has(name: string): boolean {
    return this.on.has(name);
  }
  list(): string[] {
    return [...this.on];
  }
}
