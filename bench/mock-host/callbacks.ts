/**
 * The callbacks the mock-host benchmark sends: onComplete bodies of about 230 bytes, one
 * conversation per index, signed in HMAC mode (5.2). The secret is a test-only benchmark value.
 */
import { createHash } from 'node:crypto';
import { signHmac } from '../../protocol/index.ts';

export const BENCH_ONLY_SECRET = 'bench-only-hmac-secret';
export const HOOK_PATH = '/hooks';

/**
 * The sending time of the benchmark's callbacks (EVT-14: near the arrival, read as UTC), fixed by the first
 * process that loads this module and inherited by the processes it starts, so every one builds the same bytes.
 */
const SENT_AT = (process.env.BENCH_SENT_AT ??= new Date().toISOString().slice(0, 23));

/** The body of callback i: an onComplete of about 230 bytes, unique per index. */
export function bodyFor(i: number): string {
  return JSON.stringify({
    event: 'onComplete',
    workspaceKey: 'ws-bench',
    configEnd: '/profile',
    endUserHandle: `user-${i % 997}`,
    conversationId: i,
    timestamp: SENT_AT,
    serviceKeys: [`key-${i}-a`, 'key-b'],
    path: HOOK_PATH,
  });
}

export function deliveryIdFor(i: number): string {
  return `lc-${i}-onComplete`;
}

export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The request headers of callback i, signed with t (unix seconds). */
export function headersFor(i: number, body: string, t: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-service-event': 'onComplete',
    'x-service-delivery-id': deliveryIdFor(i),
    'x-service-delivery-attempt': '1',
    'x-service-signature': signHmac({ secret: BENCH_ONLY_SECRET, t, payload: body }),
  };
}
