/**
 * A callback payload as the harness sends it (section 2.2): the contract's shape, plus whatever a test adds or
 * overrides on purpose. The host judge reads it from its ledger; the harness builds it
 * (suites/host/harness/payloads.ts).
 */
import type { LifecycleEvent } from '../../protocol/index.ts';

export type Payload = Record<string, unknown> & { event: LifecycleEvent; conversationId: number };
