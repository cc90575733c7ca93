/**
 * TypeScript types of the callback payloads (2.2, section 6). Payloads carry no configuration
 * values (EVT-2): the host reads data over the data API.
 */

/** Section 3: a record's lifecycle state; not whether a POST succeeded (DELIV-14). */
export type CallbackStatus = 'PENDING' | 'DELIVERED';

/** Common fields of every lifecycle payload (2.2). */
export interface LifecycleCommon {
  workspaceKey: string;
  /** Always with a leading slash in callback payloads (2.1). */
  configEnd: string;
  /** The ACTING user, never an org handle (2.1). */
  endUserHandle: string;
  conversationId: number;
  /** YYYY-MM-DDTHH:MM:SS.mmm, no zone offset (2.1). */
  timestamp: string;
}

export interface OnStartPayload extends LifecycleCommon {
  event: 'onStart';
  /** Always empty. */
  serviceKeys: string[];
}

export interface OnSessionInterruptedPayload extends LifecycleCommon {
  event: 'onSessionInterrupted';
  /** Always empty. */
  serviceKeys: string[];
}

export interface OnSessionTimeoutPayload extends LifecycleCommon {
  event: 'onSessionTimeout';
  /** Always empty. */
  serviceKeys: string[];
}

export interface OnCompletePayload extends LifecycleCommon {
  event: 'onComplete';
  /** One or more keys of the finalized instances. */
  serviceKeys: string[];
  /** Echoes the discovered callback hook path; may be ignored (HOST-23). */
  path: string;
}

export interface ConfigSavedPayload extends LifecycleCommon {
  event: 'config.saved';
  serviceKey: string;
  /** Dotted field paths naming what changed, no values. */
  changedFields: string[];
  callbackStatus: CallbackStatus;
}

export interface ConfigDeletedPayload extends LifecycleCommon {
  event: 'config.deleted';
  /** Singular; replaces serviceKeys. */
  serviceKey: string;
}

export interface ConfigBulkDeletedPayload extends LifecycleCommon {
  event: 'config.bulk_deleted';
  /** Total keys deleted, on every page. */
  count: number;
  /** Starts at 1. */
  page: number;
  totalPages: number;
  /** At most 500 keys per page. */
  keys: string[];
}

export type LifecyclePayload =
  | OnStartPayload
  | OnCompletePayload
  | OnSessionInterruptedPayload
  | OnSessionTimeoutPayload
  | ConfigSavedPayload
  | ConfigDeletedPayload
  | ConfigBulkDeletedPayload;
