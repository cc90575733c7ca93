/**
 * Every check id the host suites give to check() (suites/shared/checks.ts): the ids the rows of the
 * host fault model (spec/faults/host.yaml) name. A self test keeps the two in agreement: no row
 * names an id no check has, and no check id is missing a row.
 */
import { SIGNATURE_CASES, factsCheckId } from './harness/signature-cases.ts';

/** The checks written out in the spec files (the signature cases' ids come from their table). */
export const HOST_WRITTEN_CHECK_IDS = [
  'ack.2xx-within-10s',
  'ack.within-1s',
  'ack.answered',
  'ack.within-1s-slow-reads',
  'ack.within-1s-during-reads',
  'sig.every-event',
  'sig.refusal-401',
  'sig.valid-accepted',
  'payload.raw-bytes-verified',
  'payload.generated-acked',
  'payload.whitespace-acked',
  'hmac.previous-secret-accepted',
  'jwks.refetch-on-new-kid',
  'jwks.cached',
  'data.every-key-read',
  'data.encoded-key-read',
  'data.every-key-read-after-404',
  'data.every-key-read-after-409',
  'data.every-key-read-after-held',
  'data.every-key-read-after-null-data',
  'data.every-key-read-pool',
  'data.retry-409',
  'data.retry-503',
  'data.retry-backoff',
  'data.retry-pool',
  'data.no-retry-401',
  'data.no-retry-400',
  'delivery.redelivery-acked',
  'delivery.redelivery-deduped',
  'delivery.same-conversation-handled',
  'delivery.genuine-after-forged-handled',
  'delivery.retry-verified',
  'delivery.retry-acked',
  'delivery.unseen-retry-handled',
  'delivery.repeat-complete-acked',
  'delivery.repeat-complete-read',
  'delivery.every-page-acked',
  // The service side as an observer of every test (harness/observer.ts).
  'observe.read-with-token',
  'observe.retry-with-token',
  'observe.read-announced-key',
  'observe.no-retry-4xx',
  'observe.read-path-well-formed',
  'observe.retry-backoff',
  'observe.jwks-key-source',
  'facts.answered-within-10s',
  'facts.encoded-handle-answered',
  'facts.flat-object',
  'facts.no-envelope',
  'facts.matches-class',
  'facts.languages-english',
  'facts.languages-english-many-users',
] as const;

export const HOST_CHECK_IDS: readonly string[] = [
  ...HOST_WRITTEN_CHECK_IDS,
  ...SIGNATURE_CASES.filter((c) => !c.control && c.kinds.includes('callback')).map((c) => c.id),
  ...SIGNATURE_CASES.filter((c) => !c.control && c.kinds.includes('facts')).map(factsCheckId),
];
