/**
 * The signature cases of the host fault model (spec/faults/host.yaml): one per way a verifier can
 * break a step of the two verification lists of 5.2, each a check id, the clause it decides, the
 * modes and request kinds it applies to, and how to build it from a correct request. Each case
 * breaks exactly one thing of an otherwise correct request (PITFALLS: a refusal proves nothing if
 * two things are wrong). Pure: the live suite and the known-answer vectors build the same cases.
 */
import type { HostCheckId } from '../../../spec/index.ts';
import type { SignatureCase, SignedKind, SigningMode } from './signature-case-kit.ts';
import { WINDOW_AND_BODY_CASES } from './signature-cases-window.ts';
import { HEADER_AND_HMAC_CASES } from './signature-cases-hmac.ts';
import { JWS_CASES } from './signature-cases-jws.ts';
import { JWS_WIRE_CASES } from './wire/jws-shapes.ts';

export { oneByteChanged, respaced } from './signature-case-kit.ts';
export type {
  CaseKey,
  CaseRequest,
  Keyring,
  SignatureCase,
  SignedKind,
  SignedRequest,
  SigningMode,
} from './signature-case-kit.ts';

/** The case list, in the order of the verification steps of 5.2. */
export const SIGNATURE_CASES: readonly SignatureCase[] = [
  ...WINDOW_AND_BODY_CASES,
  ...HEADER_AND_HMAC_CASES,
  ...JWS_CASES,
  ...JWS_WIRE_CASES,
];

/** The cases of one mode and request kind. */
export function casesFor(mode: SigningMode, kind: SignedKind): SignatureCase[] {
  return SIGNATURE_CASES.filter((c) => c.modes.includes(mode) && c.kinds.includes(kind));
}

/** The callback's check id of a case (its own id). */
export function callbackCheckId(c: SignatureCase): HostCheckId {
  // A callback case's row exists: the fault-model self test fails a callback case no row names.
  return c.id as HostCheckId;
}

/** The facts GET's check id of a case: the same way, on the request line (HOST-18). */
export function factsCheckId(c: SignatureCase): Extract<HostCheckId, `facts-sig.${string}`> {
  // A facts case's row exists: the fault-model self test fails a facts case no row names.
  return c.id.replace(/^sig\./, 'facts-sig.') as Extract<HostCheckId, `facts-sig.${string}`>;
}
