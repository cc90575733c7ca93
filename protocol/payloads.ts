/**
 * TypeScript types of the callback payloads (2.2, section 6), generated from spec/openapi.yaml
 * (spec/generated/contract.ts): the schema is the one source, these names stay for importers.
 * Payloads carry no configuration values (EVT-2): the host reads data over the data API.
 */
import type { OnStartPayload } from '../spec/index.ts';

export type {
  CallbackStatus,
  OnStartPayload,
  OnSessionInterruptedPayload,
  OnSessionTimeoutPayload,
  OnCompletePayload,
  ConfigSavedPayload,
  ConfigDeletedPayload,
  ConfigBulkDeletedPayload,
  LifecyclePayload,
} from '../spec/index.ts';

/** Common fields of every lifecycle payload (2.2, EVT-4). */
export type LifecycleCommon = Pick<
  OnStartPayload,
  'workspaceKey' | 'configEnd' | 'endUserHandle' | 'conversationId' | 'timestamp'
>;
