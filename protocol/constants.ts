/**
 * The contract's numbers and names in one place. Every value cites the clause or section it comes
 * from; nothing here is a tuning choice of ours.
 */

/** Section 6: the lifecycle events, exact strings (EVT-15). */
export const LIFECYCLE_EVENTS = [
  'onStart',
  'onComplete',
  'onSessionInterrupted',
  'onSessionTimeout',
  'config.saved',
  'config.deleted',
  'config.bulk_deleted',
] as const;

export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];

/** Section 6 "Other dispatches": not lifecycle events, but they carry X-Service-Event too (5.2.3). */
export const TOOL_DISPATCH_EVENT = 'tool.dispatch';
export const FACTS_FETCH_EVENT = 'user.facts.fetch';

export function isLifecycleEvent(value: unknown): value is LifecycleEvent {
  return typeof value === 'string' && (LIFECYCLE_EVENTS as readonly string[]).includes(value);
}

/** Sections 2.1, 4.2, 6 and 8. */
export const CONTRACT = {
  /** DELIV-2 / section 8: callback connect timeout. */
  connectTimeoutMs: 5000,
  /** DELIV-3 / section 8: callback whole-request timeout (counts the host's synchronous work). */
  requestTimeoutMs: 10000,
  /** DELIV-8: "about 5 s then about 20 s" before attempts 2 and 3. */
  backoffMs: [5000, 20000],
  /** DELIV-7: 1 initial plus 2 retries. */
  maxAttempts: 3,
  /** 5.2.4: reject when abs(now - t) > 300 seconds, both modes. */
  replayWindowSeconds: 300,
  /** FACTS-5: user-facts fetch timeout. */
  factsTimeoutMs: 10000,
  /** FACTS-6: facts cached 24 hours per user. */
  factsCacheMs: 86400000,
  /** Section 6 / 2.2: at most 500 keys per config.bulk_deleted page. */
  bulkPageSize: 500,
  /** 2.1: endUserHandle max 255 chars. */
  endUserHandleMaxLength: 255,
  /** 2.1: reserved handle prefix. */
  reservedHandlePrefix: 'org-',
  /** 2.1: a sandbox workspaceKey has this prefix. */
  sandboxPrefix: 'sb-',
  /** 4.2: openingContext serialized size limit (characters). */
  openingContextMaxChars: 16384,
  /** 4.2 / section 8: 25 MB per source file, read as 25 000 000 bytes (decimal MB). */
  uploadFileMaxBytes: 25000000,
  /** 4.2 / section 8: 30 MB per upload request, read as 30 000 000 bytes (decimal MB). */
  uploadRequestMaxBytes: 30000000,
} as const;

/** Header names, lowercase as node delivers them (4.1, 5.2). Read them case-insensitively. */
export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_HEADER = 'x-service-event';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';
export const ATTEMPT_HEADER = 'x-service-delivery-attempt';
export const WORKSPACE_HEADER = 'x-service-workspace';
export const END_USER_HEADER = 'x-service-end-user';
