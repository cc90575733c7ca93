/** The host direction's public pieces, for the CLI and other rooms. */
export {
  loadHostTarget,
  parseHostTarget,
  classToSchema,
  fieldTypeSchema,
  DEFAULT_TIMEOUTS,
  defaultNoRetryWindowMs,
} from '../../target/host/target.ts';
export type { HostTarget, HostSigning, FactsClassField } from '../../target/host/target.ts';
export { startHostHarness, REFERENCE_FACTS_CLASS } from './harness/harness.ts';
export type { HostHarness, ModeEndpoint, Mode, SigningKey } from './harness/harness.ts';
export { startServiceSide } from './harness/service-side.ts';
export { connectServiceSide } from './harness/remote-service-side.ts';
export { observe } from './harness/observer.ts';
export type { Observer } from './harness/observer.ts';
export { requestInWords, isAck } from '../../judge/host/index.ts';
export type {
  Violation,
  ServiceSide,
  ServiceSideOptions,
  DataRead,
  JwksFetch,
  SendOutcome,
} from '../../judge/host/index.ts';
export { send, curlOf } from './harness/send.ts';
export type { SendRequest } from './harness/send.ts';
export { HOST_FAULTS } from '../../fixtures/host-receiver/index.ts';
export { SIGNATURE_CASES, casesFor, factsCheckId } from './harness/signature-cases.ts';
export type {
  SignatureCase,
  SigningMode,
  SignedKind,
  Keyring,
  CaseKey,
  SignedRequest,
  CaseRequest,
} from './harness/signature-cases.ts';
