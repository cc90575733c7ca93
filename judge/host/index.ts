/**
 * judge/host/: the judge of the host direction, run at the end of every host test by the suites' observer
 * (suites/host/harness/observer.ts): the ledger of every callback and facts GET the harness sends, the duties
 * it leaves and their verdicts, and the rules every request a receiver makes to the service side is judged on.
 */
export { isAck, answered, describe, type SendOutcome } from './exchange.ts';
export type { Payload } from './payload.ts';
export {
  JWKS_PATH,
  type DataRead,
  type JwksFetch,
  type ReadHold,
  type RunKeys,
  type ServiceSide,
  type ServiceSideOptions,
  type SigningKey,
} from './service-side-types.ts';
export {
  Ledger,
  servedKeysOf,
  type CurrentTest,
  type Exchange,
  type Expectation,
  type KeysReadCheck,
  type RefusalCheck,
  type Sent,
} from './ledger.ts';
export { dutiesOf, type Duty } from './duties.ts';
export { judgeDuties, type DutyOptions, type DutyVerdict } from './judge-duties.ts';
export { fetchViolations, readViolations, requestInWords, fetchInWords, type Violation } from './read-rules.ts';
