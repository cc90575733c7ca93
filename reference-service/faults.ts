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
  f(
    'oncomplete-first-key-only',
    'EVT-6',
    'onComplete carries only the first finalized key when a completion finalizes several.',
  ),
  f('conversation-id-string', 'EVT-13', 'conversationId is sent as a string in payloads.'),
  // headers
  f('event-header-mismatch', 'HDR-2', 'X-Service-Event on config.saved is config_saved, not the body event.'),
  f('attempt-header-on-config-saved', 'HDR-5', 'config.saved carries X-Service-Delivery-Attempt: 1.'),
  f(
    'delivery-id-other-form',
    'HDR-3',
    'X-Service-Delivery-Id is dl-<event>-<conversationId> instead of lc-<conversationId>-<event>.',
  ),
  f('attempt-header-zero-based', 'HDR-4', 'X-Service-Delivery-Attempt counts from 0 (0, 1, 2).'),
  f('signature-header-when-off', 'HDR-6', 'With signing off, an empty X-Service-Signature header is still sent.', [
    'SIGN-1',
  ]),
  // addressing
  f(
    'sandbox-no-inherit-host',
    'HOOK-3',
    "A sandbox without its own hostBaseUrl does not inherit its parent's (events skipped).",
  ),
  f(
    'listen-pipe-also-posts-host',
    'HOOK-5',
    'With a local listen pipe running, events are POSTed to the host as well as to the pipe.',
  ),
  f(
    'send-without-hookpath',
    'HOOK-4',
    'With hookPath missing, events are POSTed to hostBaseUrl itself instead of skipped.',
  ),
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
  f(
    'complete-waits-for-host',
    'DELIV-9',
    'The complete action waits for the first onComplete attempt before answering.',
  ),
  f(
    'retry-new-delivery-id',
    'DELIV-11',
    'Each onComplete retry carries a new X-Service-Delivery-Id (suffixed with the attempt).',
    ['HDR-3'],
  ),
  // signing
  f('hmac-base-without-dot', 'SIGN-12', 'The HMAC base string is t followed by the body with no dot between them.'),
  f(
    'sign-reserialized-body',
    'SIGN-8',
    'The JWS payload signs a re-serialized (pretty-printed) body, not the bytes sent.',
  ),
  f('stale-t', 'SIGN-4', 'The signature t is 400 s in the past.'),
  f('no-resign-on-retry', 'SIGN-5', "onComplete retries reuse the first attempt's signature header."),
  f('same-kid-sandbox', 'SIGN-10', 'Sandbox workspaces sign with the production key and kid.'),
  f(
    'sandbox-shares-rotated-kid',
    'SIGN-10',
    "After its parent's JWKS rotation a sandbox signs with the parent's new key and kid.",
  ),
  f('hmac-uppercase-hex', 'SIGN-12', 'The HMAC v1 value is uppercase hex.'),
  f(
    'facts-signed-without-get',
    'SIGN-6',
    'The facts GET is signed over the path and query without the leading "GET ".',
  ),
  f(
    'rotation-signs-with-neither',
    'SIGN-14',
    'After an HMAC rotation the service signs with a secret that is neither the current nor the previous one.',
  ),
  f(
    'listen-pipe-unsigned',
    'SIGN-15',
    'Events through a local listen pipe carry no X-Service-Signature although signing is on.',
  ),
  f(
    'hmac-sandbox-parent-secret',
    'SIGN-13',
    "An HMAC sandbox signs with its production parent's secret instead of its own.",
  ),
  f('tool-dispatch-unsigned', 'TOOL-2', 'Tool dispatches carry no X-Service-Signature when signing is on.'),
  f('tool-dispatch-to-hook', 'TOOL-1', "Tool dispatches are POSTed to the callback hook instead of the tool's route."),
  // paging
  f('bulk-501-keys', 'PAGE-1', 'config.bulk_deleted pages hold 501 keys.'),
  f('pages-from-zero', 'PAGE-2', 'config.bulk_deleted pages are numbered from 0.'),
  f('count-only-page-one', 'PAGE-4', 'count is sent on page 1 only.'),
  // events and states
  f('saved-on-rest-write', 'STATE-3', 'A host REST write fires config.saved.'),
  f('saved-per-field', 'EVT-17', 'config.saved fires once per saved field instead of once per touched instance.'),
  f('rest-write-delivered', 'STATE-2', 'A host REST write stores the record as DELIVERED.'),
  f(
    'saved-status-pending-after-complete',
    'EVT-18',
    'config.saved after a completion says PENDING although the record is DELIVERED.',
  ),
  f(
    'deleted-before-removal',
    'EVT-22',
    'config.deleted is sent before the record is removed, which happens only after the host answers.',
  ),
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
  f(
    'embed-context-16385-accepted',
    'EMBED-6',
    'embed-tokens accepts an openingContext of 16385 serialized characters.',
  ),
  f('embed-configend-accepted', 'EMBED-9', 'embed-tokens accepts a body with a configEnd field.'),
  // upload limits
  f('upload-file-25mb-plus-1-accepted', 'UPLOAD-3', 'upload accepts a source file of 25 MB + 1 byte.'),
  f('upload-status-other-workspace', 'UPLOAD-8', "upload status answers 200 for another workspace's id."),
  // facts handling
  f('facts-applied-same-open', 'FACTS-6', 'Facts fetched at an open are applied to that same open.'),
  f(
    'facts-partially-applied',
    'FACTS-8',
    'A facts answer that does not fit the class is applied field by field (the fitting fields).',
  ),
  f('english-not-appended', 'FACTS-10', 'English is not appended to a preferredLanguages list that lacks it.'),
  f('facts-delivery-id-other-form', 'FACTS-3', 'The facts GET delivery id is uf-<endUserHandle> (no workspaceId).'),
  // fault-model rows (spec/faults/service.yaml): one way each, on the request kind, attempt, edge or mode its row names
  f('lifecycle-body-array', 'EVT-1', 'onSessionTimeout is sent as a JSON array holding the payload.'),
  f('bulk-extra-member', 'EVT-2', 'config.bulk_deleted carries a scope member section 2.2 does not list.'),
  f('interrupted-without-timestamp', 'EVT-4', 'onSessionInterrupted is sent without its timestamp.'),
  f(
    'changed-fields-with-values',
    'EVT-8',
    'changedFields entries carry the value saved (name=Ada) instead of a bare field path.',
  ),
  f('saved-status-lowercase', 'EVT-8', 'config.saved carries callbackStatus in lower case (pending, delivered).'),
  f('deleted-with-servicekeys', 'EVT-9', 'config.deleted carries serviceKeys beside serviceKey.'),
  f('bulk-count-string', 'EVT-10', 'config.bulk_deleted carries count as a string.'),
  f(
    'bulk-deleted-org-handle',
    'EVT-11',
    'config.bulk_deleted names the organization (org-<workspaceKey>) as endUserHandle instead of the acting user.',
  ),
  f('timestamp-no-millis', 'EVT-14', 'Payload timestamps have no milliseconds.'),
  f('timestamp-local-time', 'EVT-14', 'Payload timestamps are written in a local time two hours east of UTC.'),
  f(
    'timeout-event-misspelled',
    'EVT-15',
    'The idle sweep sends the event onSessionTimedOut instead of onSessionTimeout.',
  ),
  f(
    'onstart-first-conversation-only',
    'EVT-16',
    'onStart fires only for the first conversation of an end user in a workspace.',
  ),
  f('complete-when-all-fields-saved', 'EVT-19', 'A turn that fills every field of a record fires onComplete for it.'),
  f(
    'interrupt-silent-without-drafts',
    'EVT-20',
    'onSessionInterrupted fires only when the conversation saved something.',
  ),
  f('sweep-silent-without-drafts', 'EVT-21', 'onSessionTimeout fires only when the conversation saved something.'),
  f(
    'bulk-deleted-only-per-key',
    'EVT-23',
    'A small scope delete fires config.deleted per key and no config.bulk_deleted.',
  ),
  f('content-type-text-on-deleted', 'HDR-1', 'config.deleted is sent with Content-Type text/plain.'),
  f('retry-content-type-text', 'HDR-1', 'onComplete retries (attempts 2 and 3) are sent with Content-Type text/plain.'),
  f('retry-event-header-missing', 'HDR-2', 'onComplete retries carry no X-Service-Event.'),
  f('attempt-header-stuck-at-1', 'HDR-4', 'Every onComplete attempt carries X-Service-Delivery-Attempt: 1.'),
  f('retry-unsigned', 'HDR-6', 'onComplete retries carry no X-Service-Signature although signing is on.'),
  f('deleted-sent-with-put', 'HOOK-1', 'config.deleted is sent with PUT instead of POST.'),
  f(
    'sandbox-hookpath-suffixed',
    'HOOK-2',
    "A sandbox delivers to hookPath + /sandbox instead of its parent's hookPath.",
  ),
  f('no-host-drops-saves', 'HOOK-4', 'With hostBaseUrl or hookPath missing, chat saves are not stored.'),
  f('retry-saved-after-reset', 'DELIV-1', 'config.saved is sent again after a connection reset.'),
  f('request-timeout-5s', 'DELIV-3', 'The whole-request timeout is 5 s instead of 10 s.'),
  f('backoff-20s-first', 'DELIV-8', 'The onComplete back-off is 20 s before attempt 2 too (instead of 5 s).'),
  f(
    'backoff-from-attempt-start',
    'DELIV-8',
    'The onComplete back-off is counted from the start of the failed attempt: a timed-out one is retried at once.',
  ),
  f(
    'backoff-refused-5s',
    'DELIV-8',
    'After a refused connection the next onComplete attempt follows 5 s later, also before attempt 3 (not 20 s).',
  ),
  f('retry-oncomplete-after-204', 'DELIV-10', 'onComplete answered with a 2xx other than 200 is retried.'),
  f(
    'retry-fresh-timestamp-body',
    'DELIV-11',
    'Each onComplete retry re-serializes the payload with a fresh timestamp.',
  ),
  f('no-repeat-oncomplete', 'DELIV-13', 'A completion whose records were all completed before fires no onComplete.'),
  f('status-follows-delivery', 'DELIV-14', 'When every onComplete attempt failed, the records go back to PENDING.'),
  f(
    'reads-wait-for-deliveries',
    'DELIV-15',
    "Data API reads wait until the service's deliveries in flight have ended.",
  ),
  f(
    'mode-switch-keeps-hmac',
    'SIGN-2',
    'A switch from HMAC to JWKS mode is ignored: the workspace keeps signing with HMAC.',
  ),
  f('unsigned-config-deleted', 'SIGN-3', 'config.deleted carries no X-Service-Signature although signing is on.'),
  f('future-t', 'SIGN-4', 'The signature t is 400 s in the future.'),
  f(
    'facts-jws-without-query',
    'SIGN-6',
    'In JWKS mode the facts GET is signed over "GET " and the path without its query.',
  ),
  f('jws-without-kid', 'SIGN-7', 'The JWS header carries no kid.'),
  f('jwks-private-d', 'SIGN-9', 'The JWKS document carries a private d member with each key.'),
  f(
    'jws-keeps-old-kid-after-rotation',
    'SIGN-9',
    'After a JWKS rotation the new key is published but callbacks are still signed with the old key and kid.',
  ),
  f('jws-old-kid-new-key', 'SIGN-9', 'After a JWKS rotation callbacks are signed with the new key, named the old kid.'),
  f('hmac-header-v1-first', 'SIGN-11', 'The HMAC header is v1=<hex>,t=<unix_seconds> (v1 first).'),
  f(
    'facts-query-other-name',
    'FACTS-1',
    'The facts GET names the user in ?user=<handle> instead of ?endUserHandle=<handle>.',
  ),
  f(
    'facts-query-unencoded',
    'FACTS-1',
    'The facts GET writes the endUserHandle into its query without percent-encoding it.',
  ),
  f('facts-accept-missing', 'FACTS-2', 'The facts GET carries no Accept header.'),
  f('facts-unsigned', 'FACTS-4', 'The facts GET carries no X-Service-Signature although signing is on.'),
  f('open-waits-for-facts', 'FACTS-5', 'A conversation opens only once its facts GET has ended.'),
  f('facts-timeout-20s', 'FACTS-5', 'The facts GET timeout is 20 s instead of 10 s.'),
  f('facts-cache-forever', 'FACTS-6', 'Cached facts are used past 24 hours.'),
  f(
    'facts-non-object-clears',
    'FACTS-7',
    'A facts answer that is not a JSON object clears the facts in effect instead of being dropped.',
  ),
  f('opener-last-language', 'FACTS-9', 'The opener speaks the last of preferredLanguages, not the first.'),
  f(
    'no-languages-empty',
    'FACTS-11',
    'Without preferredLanguages the reply language list is empty instead of English alone.',
  ),
  f('facts-without-callback-accepted', 'FACTS-12', 'A FACTS class without a callback is accepted at push.'),
  f('facts-data-route-200', 'FACTS-13', 'A GET on the FACTS configEnd of the data API answers 200 with an empty list.'),
  f('hook-health-get', 'FACTS-14', 'Each open first sends a GET to hostBaseUrl + hookPath as a health check.'),
  f('complete-keeps-pending', 'STATE-4', 'A completion fires onComplete but leaves the records PENDING.'),
  f(
    'readiness-check-blocks-oncomplete',
    'STATE-5',
    'A completion of a record missing a required field fires no onComplete and leaves it PENDING.',
  ),
  f(
    'edit-resets-pending',
    'STATE-6',
    'A chat edit of a DELIVERED record stores it back as PENDING (its config.saved still says DELIVERED).',
  ),
  f('chat-delete-keeps-record', 'STATE-7', 'A chat delete fires config.deleted but keeps the record.'),
  f(
    'scope-delete-keeps-last',
    'STATE-8',
    'A scope delete keeps the last record of the scope (its manifest still names it).',
  ),
  f('envelope-without-warnings', 'ENV-1', 'The envelope has no warnings member.'),
  f(
    'unbound-field-raw-value',
    'ENV-2',
    'A field that does not bind keeps its raw value in data (its reason still in errors).',
  ),
  f('field-problem-422', 'ENV-4', 'A read of a record with field problems answers 422.'),
  f('setting-read-as-list', 'DATA-1', 'GET /{endUserHandle} of a Setting answers a list holding its record.'),
  f('list-omits-host-written', 'DATA-2', 'A List read leaves out records never saved through the chat (host-written).'),
  f(
    'list-read-raw-handle',
    'DATA-2',
    'A List read compares the still percent-encoded handle of the path with the stored one.',
  ),
  f(
    'key-read-raw-handle',
    'DATA-3',
    'A GET by key compares the still percent-encoded handle of the path with the stored one.',
  ),
  f('keyed-write-creates-new', 'DATA-4', 'A keyed POST creates a new record instead of writing the one it names.'),
  f('org-handle-read-404', 'DATA-6', 'A GET with an org- handle answers 404 instead of 400.'),
  f('malformed-body-500', 'DATA-7', 'A write body that is not JSON answers 500.'),
  f('setting-read-empty-200', 'DATA-8', 'A Setting never written for the user answers 200 with data null.'),
  f('keyed-post-unknown-creates', 'DATA-9', 'A keyed POST to an unknown key creates a record under that key.'),
  f('unknown-configend-200', 'DATA-10', 'A GET on a configEnd with no live config answers 200 with an empty list.'),
  f('identity-not-enforced', 'DATA-12', "A write repeating another List record's identity value is accepted."),
  f('setting-write-appends', 'DATA-13', 'An unkeyed write to a Setting that has a record creates a second one.'),
  f(
    'list-unkeyed-overwrites',
    'DATA-14',
    "An unkeyed write to a List overwrites the user's last record instead of adding one.",
  ),
  f('data-list-any-bearer', 'AUTH-1', 'A List or Setting read accepts any Bearer token.'),
  f('parent-key-refused-on-sandbox', 'AUTH-3', 'A production key is refused (403) on its sb- sandbox.'),
  f('migrating-409-without-message', 'ERR-2', 'The migration 409 body has no message.'),
  f('embed-missing-handle-accepted', 'EMBED-1', 'embed-tokens accepts a body without endUserHandle.'),
  f('embed-handle-256-accepted', 'EMBED-2', 'embed-tokens accepts an endUserHandle of 256 characters.'),
  f(
    'embed-handle-length-in-bytes',
    'EMBED-2',
    'embed-tokens counts the endUserHandle limit in UTF-8 bytes, refusing 255 non-ASCII characters.',
  ),
  f('embed-org-handle-accepted', 'EMBED-3', 'embed-tokens accepts an endUserHandle starting with org-.'),
  f(
    'embed-org-anywhere',
    'EMBED-3',
    'embed-tokens refuses an endUserHandle holding org- anywhere, not only at its start.',
  ),
  f('embed-organization-id-unchecked', 'EMBED-4', 'embed-tokens accepts any organizationId, a number included.'),
  f(
    'embed-foreign-referent-accepted',
    'EMBED-5',
    "embed-tokens accepts referentKeys naming another workspace's record.",
  ),
  f(
    'embed-context-16384-rejected',
    'EMBED-6',
    'embed-tokens refuses an openingContext of exactly 16384 serialized characters.',
  ),
  f(
    'embed-context-size-in-bytes',
    'EMBED-6',
    'embed-tokens counts the openingContext limit in UTF-8 bytes, refusing 16384 non-ASCII characters.',
  ),
  f('embed-nested-data-accepted', 'EMBED-7', 'embed-tokens accepts nested values inside openingContext.data.'),
  f('embed-unknown-tool-400', 'EMBED-8', 'embed-tokens refuses an openingContext naming an unknown toolClass.'),
  f('embed-any-authorization', 'EMBED-10', 'embed-tokens accepts any Bearer Authorization.'),
  f('embed-requires-context', 'EMBED-11', 'embed-tokens refuses a body without openingContext.'),
  f('upload-missing-manifest-accepted', 'UPLOAD-1', 'upload accepts a body without a manifest part.'),
  f('upload-missing-file-accepted', 'UPLOAD-2', 'upload accepts a manifest naming a file absent from the body.'),
  f('upload-file-25mb-rejected', 'UPLOAD-3', 'upload refuses a source file of exactly 25 MB.'),
  f('upload-request-30mb-plus-1-accepted', 'UPLOAD-4', 'upload accepts a request of 30 MB + 1 byte.'),
  f('upload-request-30mb-rejected', 'UPLOAD-4', 'upload refuses a request of exactly 30 MB.'),
  f('upload-any-api-key', 'UPLOAD-5', 'upload accepts any API key.'),
  f('upload-octet-stream-refused', 'UPLOAD-6', 'upload refuses a source file sent as application/octet-stream.'),
  f('upload-status-own-404', 'UPLOAD-7', 'upload status answers 404 for an id pushed in this workspace.'),
  f('upload-status-any-key', 'UPLOAD-9', 'upload status accepts any API key.'),
  f('bulk-499-per-page', 'PAGE-1', 'config.bulk_deleted pages hold at most 499 keys (500 keys make two pages).'),
  f('bulk-page-one-twice', 'PAGE-3', 'A scope over 500 keys sends its first page twice instead of its second.'),
  f('bulk-duplicate-key', 'PAGE-5', 'The last page of a manifest repeats the first key in place of its own last one.'),
  // combinations: each breaks its rule only where two features meet (the stateful suite's model finds them)
  f(
    'oncomplete-lists-deleted-keys',
    'EVT-6',
    'onComplete lists every key touched in the conversation, also those deleted through the chat before the completion.',
  ),
  f(
    'scope-delete-this-conversation-only',
    'STATE-8',
    'A scope delete removes only the records touched in the deleting conversation, though its manifest names the whole scope.',
  ),
  f(
    'unkeyed-write-skips-held-setting',
    'DATA-11',
    'An unkeyed POST to a Setting whose one record is held mid-migration is applied instead of answered 409.',
  ),
  f(
    'list-drops-closed-drafts',
    'DATA-2',
    'A List read leaves out drafts whose last conversation closed without completing.',
  ),
  f(
    'cross-endpoint-edit-resets-pending',
    'STATE-6',
    'A chat edit of a DELIVERED record from a conversation on another configEnd stores it back as PENDING.',
  ),
  f(
    'sweep-finalizes-drafts',
    'STATE-1',
    "An idle sweep stores the conversation's drafts as DELIVERED, with no onComplete.",
  ),
  f(
    'release-keeps-withheld',
    'DATA-2',
    'A record released from a migration hold stays out of List reads until it is written again.',
  ),
  f(
    'delivered-edit-saved-per-field',
    'EVT-17',
    'A chat edit of a DELIVERED record fires one config.saved per saved field.',
  ),
  f(
    'turn-status-of-first-instance',
    'EVT-18',
    'In a turn touching several instances, every config.saved carries the callbackStatus of the first one.',
  ),
  f(
    'chat-delete-rest-record-silent',
    'EVT-22',
    'A chat delete of a record never saved through the chat fires no config.deleted.',
  ),
  f(
    'setting-chat-after-rest-second-record',
    'DATA-13',
    'A chat save on a Setting whose one record was written over REST creates a second record.',
  ),
  f(
    'setting-read-after-chat-delete',
    'DATA-1',
    'After the Setting record is deleted through the chat, GET /{endUserHandle} answers 404 even once the chat saves a new one.',
  ),
  f(
    'manifest-omits-delivered',
    'PAGE-5',
    'The config.bulk_deleted manifest leaves out DELIVERED records of the scope (count and pages still count them).',
  ),
  f(
    'rest-write-in-live-conversation-saved',
    'STATE-3',
    'A host REST write to a record touched in a conversation still open fires config.saved.',
  ),
  // transitions over mixed scopes (reached by the model-based test's prefixes, suites/service/stateful/prefixes.ts)
  f(
    'scope-delete-keeps-delivered',
    'STATE-8',
    'A scope delete removes only the PENDING records of the scope; ' +
      'DELIVERED ones stay, though its manifest names them.',
  ),
  f(
    'interrupt-finalizes-drafts',
    'STATE-1',
    'An interrupted conversation stores its drafts as DELIVERED, with no ' + 'onComplete.',
  ),
  f(
    'deleted-names-creating-conversation',
    'EVT-22',
    'config.deleted is sent as an event of the conversation that created the record, not of the one that deleted it.',
  ),
]);

const BY_NAME = new Map(FAULTS.map((fault) => [fault.name, fault]));

/** Throws REFSVC_FAULT_UNKNOWN naming the unknown fault and listing the known ones. */
export function validateFaults(names: readonly string[]): string[] {
  for (const name of names) {
    if (!BY_NAME.has(name)) {
      throw new CcsError(
        'REFSVC_FAULT_UNKNOWN',
        `unknown seeded fault '${name}'; known faults: ${FAULTS.map((x) => x.name).join(', ')}`,
        { fault: name },
      );
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
