import { test, expect } from '@playwright/test';
import * as protocol from '../../../protocol/index.ts';

// The reference service and the suites both read their numbers from protocol/constants.ts, so a
// wrong value there would move both together and no conformance check could see it: the values
// are pinned here against the contract's words (sections 2.1, 4.2, 5.2, 6 and 8).
test('the contract numbers are the ones sections 2.1, 4.2, 5.2, 6 and 8 state (DELIV-2 DELIV-3 DELIV-7 DELIV-8 PAGE-1 FACTS-5 FACTS-6)', () => {
  expect(protocol.CONTRACT).toEqual({
    connectTimeoutMs: 5000,
    requestTimeoutMs: 10000,
    backoffMs: [5000, 20000],
    maxAttempts: 3,
    replayWindowSeconds: 300,
    factsTimeoutMs: 10000,
    factsCacheMs: 86400000,
    bulkPageSize: 500,
    endUserHandleMaxLength: 255,
    reservedHandlePrefix: 'org-',
    sandboxPrefix: 'sb-',
    openingContextMaxChars: 16384,
    uploadFileMaxBytes: 25000000,
    uploadRequestMaxBytes: 30000000,
  });
});

test("the header names are the contract's, lowercase as node delivers them (4.1, 5.2)", () => {
  expect({
    SIGNATURE_HEADER: protocol.SIGNATURE_HEADER,
    EVENT_HEADER: protocol.EVENT_HEADER,
    DELIVERY_ID_HEADER: protocol.DELIVERY_ID_HEADER,
    ATTEMPT_HEADER: protocol.ATTEMPT_HEADER,
    WORKSPACE_HEADER: protocol.WORKSPACE_HEADER,
    END_USER_HEADER: protocol.END_USER_HEADER,
  }).toEqual({
    SIGNATURE_HEADER: 'x-service-signature',
    EVENT_HEADER: 'x-service-event',
    DELIVERY_ID_HEADER: 'x-service-delivery-id',
    ATTEMPT_HEADER: 'x-service-delivery-attempt',
    WORKSPACE_HEADER: 'x-service-workspace',
    END_USER_HEADER: 'x-service-end-user',
  });
});
