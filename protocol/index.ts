/**
 * protocol/: the contract's algorithms, shared by every side and exported for host teams.
 * Imports only spec/ and npm packages.
 */
export {
  LIFECYCLE_EVENTS,
  TOOL_DISPATCH_EVENT,
  FACTS_FETCH_EVENT,
  CONTRACT,
  SIGNATURE_HEADER,
  EVENT_HEADER,
  DELIVERY_ID_HEADER,
  ATTEMPT_HEADER,
  WORKSPACE_HEADER,
  END_USER_HEADER,
  isLifecycleEvent,
} from './constants.ts';
export type { LifecycleEvent } from './constants.ts';

export { SIGNATURE_VERDICT_KINDS, unixNow } from './verdict.ts';
export type { SignatureVerdict, SignatureVerdictKind, SignatureMode } from './verdict.ts';

export { signHmac, verifyHmac, parseHmacHeader, hmacHex, HMAC_HEADER_PATTERN } from './hmac.ts';
export { isExactHmacForm } from './hmac-form.ts';
export type { HmacHeaderParse } from './hmac.ts';

export { signJws, verifyJws, parseJws, jwsPayloadBytes, generateSigningKey } from './jws.ts';
export type { JwksSource, JwsParse } from './jws.ts';

export { JwksCache, parseJwksDocument, findJwk, importEs256PublicJwk } from './jwks-cache.ts';
export type { JwksCacheOptions, JwksDocument } from './jwks-cache.ts';
export { jwksSeen, jwsSignedBy } from './jwks-seen.ts';
export type { JwkSeen, JwksDocumentSeen } from './jwks-seen.ts';

export { signatureFor, factsSignatureFor } from './signer.ts';
export type { SignerConfig } from './signer.ts';

export { factsSigningPayload } from './facts.ts';

export { lcDeliveryId, ufDeliveryId, parseDeliveryId } from './delivery-id.ts';
export type { ParsedDeliveryId } from './delivery-id.ts';

export { formatCallbackTimestamp, parseCallbackTimestamp, CALLBACK_TIMESTAMP_PATTERN } from './timestamp.ts';

export { bulkPages, totalPagesFor } from './paging.ts';
export type { BulkPage } from './paging.ts';

export { readHeader, headerValue } from './headers.ts';
export type { HeaderBag, HeaderRead } from './headers.ts';

export { verifyCallback, verifyFactsRequest, verifySignature } from './verifier.ts';
export type { VerifierConfig } from './verifier.ts';

export { DeliveryDeduper } from './dedupe.ts';

export type {
  CallbackStatus,
  LifecycleCommon,
  OnStartPayload,
  OnCompletePayload,
  OnSessionInterruptedPayload,
  OnSessionTimeoutPayload,
  ConfigSavedPayload,
  ConfigDeletedPayload,
  ConfigBulkDeletedPayload,
  LifecyclePayload,
} from './payloads.ts';

export type { JWK, CryptoKey, KeyObject } from 'jose';
