import { test, expect } from '@playwright/test';
import * as protocol from '../../../protocol/index.ts';

/** Other rooms code against these names (the protocol brief); a rename must fail here first. */
test('protocol/index.ts exports the agreed public API', () => {
  const functions = [
    'signHmac', 'verifyHmac', 'signJws', 'verifyJws', 'generateSigningKey', 'factsSigningPayload', 'lcDeliveryId',
    'ufDeliveryId', 'parseDeliveryId', 'formatCallbackTimestamp', 'parseCallbackTimestamp', 'bulkPages', 'totalPagesFor',
    'verifyCallback', 'verifyFactsRequest', 'JwksCache', 'DeliveryDeduper', 'signatureFor', 'factsSignatureFor',
  ] as const;
  for (const name of functions) expect(typeof protocol[name], name).toBe('function');
  expect(protocol.CALLBACK_TIMESTAMP_PATTERN).toBeInstanceOf(RegExp);
  expect(protocol.CONTRACT).toEqual({
    connectTimeoutMs: 5000, requestTimeoutMs: 10000, backoffMs: [5000, 20000], maxAttempts: 3, replayWindowSeconds: 300,
    factsTimeoutMs: 10000, factsCacheMs: 86400000, bulkPageSize: 500, endUserHandleMaxLength: 255, reservedHandlePrefix: 'org-',
    sandboxPrefix: 'sb-', openingContextMaxChars: 16384, uploadFileMaxBytes: 25000000, uploadRequestMaxBytes: 30000000,
  });
  expect({
    SIGNATURE_HEADER: protocol.SIGNATURE_HEADER, EVENT_HEADER: protocol.EVENT_HEADER, DELIVERY_ID_HEADER: protocol.DELIVERY_ID_HEADER,
    ATTEMPT_HEADER: protocol.ATTEMPT_HEADER, WORKSPACE_HEADER: protocol.WORKSPACE_HEADER, END_USER_HEADER: protocol.END_USER_HEADER,
  }).toEqual({
    SIGNATURE_HEADER: 'x-service-signature', EVENT_HEADER: 'x-service-event', DELIVERY_ID_HEADER: 'x-service-delivery-id',
    ATTEMPT_HEADER: 'x-service-delivery-attempt', WORKSPACE_HEADER: 'x-service-workspace', END_USER_HEADER: 'x-service-end-user',
  });
  expect([...protocol.SIGNATURE_VERDICT_KINDS].sort()).toEqual(['absent', 'future', 'invalid', 'malformed', 'stale', 'unknown-kid', 'valid']);
});
