/**
 * Every check id the service suites give to check() (suites/shared/checks.ts): the ids the rows of
 * the service fault model (spec/faults/service.yaml) name. A self test keeps the two in agreement:
 * no row names an id no check has, and no check id is missing a row.
 */

/** The checks written out in the example-based spec files. */
const WRITTEN = [
  'auth.data-401', 'auth.embed-401', 'auth.foreign-key-403', 'auth.parent-key-covers-sandbox',
  'auth.sandbox-key-refused', 'auth.upload-401', 'auth.upload-status-401', 'delivery.attempt-numbering',
  'delivery.backoff', 'delivery.host-never-blocks', 'delivery.no-retry-after-2xx-4xx',
  'delivery.no-retry-other-events', 'delivery.off-request-thread', 'delivery.repeat-complete-new-id',
  'delivery.request-timeout-10s', 'delivery.retry-after-5xx', 'delivery.retry-after-refused',
  'delivery.retry-after-timeout', 'delivery.same-id-same-body', 'delivery.slow-success-not-retried',
  'delivery.status-not-delivery', 'delivery.three-attempts', 'embed.configend-refused', 'embed.context-16384-accepted',
  'embed.context-16385-refused', 'embed.context-counts-characters', 'embed.handle-255-accepted',
  'embed.handle-256-refused', 'embed.handle-counts-characters', 'embed.handle-required', 'embed.nested-data-refused',
  'embed.org-handle-refused', 'embed.org-inside-accepted', 'embed.organization-id', 'embed.referent-keys',
  'embed.unknown-tool-ignored', 'embed.valid-accepted', 'error.500-no-detail', 'error.503-default-body',
  'error.default-body', 'error.identity-body', 'error.migrating-body', 'facts.background-fetch', 'facts.cache-24h',
  'facts.cache-next-open', 'facts.callback-required', 'facts.delivery-id', 'facts.english-alone',
  'facts.english-appended', 'facts.headers', 'facts.no-data-routes', 'facts.non-object-dropped', 'facts.only-get',
  'facts.opener-language', 'facts.rejected-whole', 'facts.request-form', 'facts.signature-exactly-when-on',
  'facts.timeout-10s', 'header.attempt-only-oncomplete', 'header.content-type', 'header.delivery-id-form',
  'header.event-equals-body', 'header.first-attempt-1', 'header.signature-exactly-when-on', 'hook.listen-pipe-instead',
  'hook.post-to-hook-path', 'hook.sandbox-inherits-host', 'hook.sandbox-same-path', 'hook.skipped-when-missing',
  'hook.values-readable', 'page.500-one-page', 'page.at-most-500', 'page.count-every-page', 'page.numbering',
  'page.own-post', 'page.union-exact', 'payload.bulk-members', 'payload.changed-fields-paths',
  'payload.closed-members', 'payload.common-fields', 'payload.configend-slash', 'payload.conversation-id-integer',
  'payload.deleted-singular', 'payload.event-member', 'payload.no-inline-values',
  'payload.oncomplete-every-key', 'payload.oncomplete-path', 'payload.saved-status-value',
  'payload.session-servicekeys-empty', 'payload.timestamp-form', 'payload.timestamp-sending-time',
  'sign.absent-when-off', 'sign.every-event', 'sign.facts-request-line', 'sign.hmac-header-form', 'sign.hmac-v1',
  'sign.jwks-document', 'sign.jws-form', 'sign.jws-payload', 'sign.jws-payload-full-page', 'sign.listen-pipe-signed',
  'sign.one-mode', 'sign.resigned-each-attempt', 'sign.rotation', 'sign.sandbox-own-kid', 'sign.sandbox-own-secret',
  'sign.t-now', 'state.bulk-deleted-fires', 'state.chat-delete-removes', 'state.complete-delivered',
  'state.deleted-after-removal', 'state.edit-keeps-delivered', 'state.interrupted-fires',
  'state.no-oncomplete-unless-done', 'state.no-readiness-check', 'state.saved-once-per-instance',
  'state.saved-status-at-save', 'state.scope-delete-removes', 'state.timeout-fires', 'tool.own-route', 'tool.signed',
  'upload.file-25mb-accepted', 'upload.file-over-25mb-413', 'upload.manifest-required',
  'upload.referenced-file-required', 'upload.request-30mb-accepted', 'upload.request-over-30mb-413',
  'upload.status-foreign-404', 'upload.status-own-push', 'upload.valid-accepted',
] as const;

/** The checks of the model-based suite (suites/service/stateful/): each decides a rule where features meet. */
const STATEFUL = [
  'model.json-object', 'model.acting-user', 'model.deleted-fires', 'model.delivered-kept', 'model.draft-status', 'model.held-409',
  'model.list-drafts', 'model.manifest', 'model.oncomplete-keys', 'model.onstart-fires', 'model.read-by-key',
  'model.rest-no-event', 'model.saved-once-per-instance', 'model.saved-status', 'model.scope-removed',
  'model.setting-one-record', 'model.setting-read', 'model.unknown-event',
] as const;

/** The checks of the data API's spec files (data-api.spec.ts, property.data-api.spec.ts). */
const DATA_API = [
  'data.held-409', 'data.identity-conflict', 'data.keyed-write', 'data.list-many-records', 'data.list-read',
  'data.malformed-400', 'data.org-handle-400', 'data.put-405', 'data.setting-none-404', 'data.setting-one-record',
  'data.setting-read', 'data.unknown-configend-404', 'data.unknown-key-404', 'env.draft-completed-at', 'env.envelope',
  'env.list-keeps-unbound', 'env.problems-not-errors', 'env.unbound-null', 'state.rest-write-pending',
  'state.rest-write-silent',
] as const;

/** The checks of a duty in a further state: after a JWKS rotation, the back-off after each way an attempt fails. */
const STATES = ['sign.jwks-rotation', 'delivery.backoff-after-timeout', 'delivery.backoff-after-refused'] as const;

export const SERVICE_CHECK_IDS: readonly string[] = [...WRITTEN, ...STATEFUL, ...DATA_API, ...STATES];
/** Every service check id is written out where its check is made. */
export const SERVICE_WRITTEN_CHECK_IDS = SERVICE_CHECK_IDS;
