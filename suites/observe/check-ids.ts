/**
 * The check ids the traffic judge gives its checks: the ids the service suites give the same rules
 * (suites/service/check-ids.ts), so a fault-model row names one check whichever way it was decided.
 * A row marked `traffic: --inject ...` in spec/faults/service.yaml names one of these (suites/self/observe/).
 */
export const TRAFFIC_CHECK_IDS = [
  'delivery.attempt-numbering', 'delivery.backoff', 'delivery.no-retry-after-2xx-4xx',
  'delivery.no-retry-other-events', 'delivery.retry-after-5xx', 'delivery.same-id-same-body',
  'delivery.three-attempts', 'facts.delivery-id', 'facts.headers', 'facts.request-form',
  'facts.signature-exactly-when-on', 'header.attempt-only-oncomplete', 'header.content-type',
  'header.delivery-id-form', 'header.event-equals-body', 'header.first-attempt-1',
  'header.signature-exactly-when-on', 'hook.post-to-hook-path', 'model.json-object', 'model.unknown-event',
  'page.at-most-500', 'page.count-every-page', 'page.numbering', 'page.union-exact', 'payload.bulk-members',
  'payload.closed-members', 'payload.common-fields', 'payload.configend-slash', 'payload.conversation-id-integer',
  'payload.deleted-singular', 'payload.event-member', 'payload.no-inline-values',
  'payload.session-servicekeys-empty', 'payload.timestamp-form', 'sign.absent-when-off', 'sign.every-event',
  'sign.facts-request-line', 'sign.hmac-header-form', 'sign.hmac-v1', 'sign.jwks-document', 'sign.jws-form',
  'sign.jws-payload', 'sign.resigned-each-attempt', 'sign.t-now',
] as const;
