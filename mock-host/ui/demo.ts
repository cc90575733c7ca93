/**
 * A realistic stretch of traffic for the inspector's picture: a conversation that opens, saves,
 * and completes with an onComplete answered 503 twice and accepted on the third attempt (paced
 * by the contract's back-off, about 5 s then about 20 s, scaled), a signed facts GET, a save
 * signed with the wrong secret, and a timeout of another user's session. Everything goes over
 * real HTTP and is signed for real (HMAC, 5.2). The secret is a test-only value.
 */
import { request } from 'node:http';
import { lcDeliveryId, signHmac, factsSigningPayload, ufDeliveryId } from '../../protocol/index.ts';

export const DEMO_ONLY_SECRET = 'demo-only-hmac-secret';

function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<number> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const h = { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) };
    const req = request(
      {
        method,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: h,
        agent: false,
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

const now = () => Math.floor(Date.now() / 1000);
const stamp = () => new Date().toISOString().slice(0, 23);

function lifecycle(
  event: string,
  conversationId: number,
  endUserHandle: string,
  extra: Record<string, unknown>,
): string {
  return JSON.stringify({
    event,
    workspaceKey: 'acme-prod',
    configEnd: '/shipping-profile',
    endUserHandle,
    conversationId,
    timestamp: stamp(),
    ...extra,
  });
}

async function callback(base: string, body: string, o: { attempt?: number; secret?: string } = {}): Promise<number> {
  const b = JSON.parse(body) as { event: string; conversationId: number };
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'ccs-callbacks/1.0',
    'X-Service-Event': b.event,
    'X-Service-Delivery-Id': lcDeliveryId(b.conversationId, b.event),
    // SIGN-5: each attempt is signed again with a fresh t
    'X-Service-Signature': signHmac({ secret: o.secret ?? DEMO_ONLY_SECRET, t: now(), payload: body }),
  };
  if (o.attempt !== undefined) headers['X-Service-Delivery-Attempt'] = String(o.attempt);
  return send(base, 'POST', '/hooks', headers, body);
}

export async function postDemoTraffic(base: string, timeScale: number): Promise<void> {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms * timeScale));
  const user = 'user-4711';
  const target = `/facts?endUserHandle=${user}`;
  await send(base, 'GET', target, {
    Accept: 'application/json',
    'User-Agent': 'ccs-facts/1.0',
    'X-Service-Event': 'user.facts.fetch',
    'X-Service-Workspace': 'acme-prod',
    'X-Service-End-User': user,
    'X-Service-Delivery-Id': ufDeliveryId('acme-prod', user),
    'X-Service-Signature': signHmac({ secret: DEMO_ONLY_SECRET, t: now(), payload: factsSigningPayload(target) }),
  });
  await callback(base, lifecycle('onStart', 5120, user, { serviceKeys: [] }));
  await callback(
    base,
    lifecycle('config.saved', 5120, user, {
      serviceKey: 'sp-9f2c',
      changedFields: ['address.city', 'address.zip'],
      callbackStatus: 'PENDING',
    }),
  );
  await callback(
    base,
    lifecycle('config.saved', 5121, 'user-0815', {
      serviceKey: 'sp-77aa',
      changedFields: ['carrier'],
      callbackStatus: 'PENDING',
    }),
    { secret: 'a-rotated-away-secret' },
  );
  await callback(base, lifecycle('onSessionTimeout', 5119, 'user-0815', { serviceKeys: [] }));
  await callback(base, lifecycle('onStart', 5122, 'user-2024', { serviceKeys: [] }));
  await callback(
    base,
    lifecycle('onComplete', 5122, 'user-2024', { serviceKeys: ['sp-1c3e', 'sp-1c3f'], path: '/hooks' }),
    { attempt: 1 },
  );
  await callback(base, lifecycle('config.deleted', 5123, 'user-2024', { serviceKey: 'sp-0a11' }));
  // a body the schema refuses: serviceKeys must be an array (2.2)
  await callback(base, lifecycle('onSessionInterrupted', 5124, 'user-3141', { serviceKeys: 'none' }));
  const complete = lifecycle('onComplete', 5120, user, { serviceKeys: ['sp-9f2c'], path: '/hooks' });
  // the service's back-off: the first two attempts of lc-5120 are answered 503 by the script
  await callback(base, complete, { attempt: 1 });
  await wait(5000);
  await callback(base, complete, { attempt: 2 });
  await wait(20000);
  await callback(base, complete, { attempt: 3 });
}
