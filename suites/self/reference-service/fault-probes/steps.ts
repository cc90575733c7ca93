/** Steps several probes of the seeded faults share (beside helpers.ts). */
import { expect } from '@playwright/test';
import type { Stage, Received } from '../host.ts';
import { completeWith, first, waitMs, bearer, dataPath, multipart } from './helpers.ts';
import type { JWK } from 'jose';

export const turn = (s: Stage, id: number, saves: unknown[]) =>
  s.driver('POST', `/conversations/${id}/turns`, { saves });

export const restWrite = (s: Stage, tail: string, data: object) =>
  s.api('POST', dataPath(s, tail), { data }, bearer(s));

export const read = (s: Stage, tail: string) => s.api('GET', dataPath(s, tail), undefined, bearer(s));

export const hold = (s: Stage, key: string, held: boolean) =>
  s.driver('POST', `/workspaces/${s.ws.workspaceKey}/records/${key}/migration-hold`, { held });

/** A completed /contacts record of u-1 (conversation 1), and a second conversation opened on /contacts. */
export async function completedThenReopened(s: Stage): Promise<{ key: string; c2: number }> {
  const c1 = await s.open('u-1', '/contacts');
  const t = await turn(s, c1, [{ fields: { email: 'a@x.io' } }]);
  await s.driver('POST', `/conversations/${c1}/complete`, {});
  await first(s, 'onComplete');
  return { key: t.json.serviceKeys[0], c2: await s.open('u-1', '/contacts') };
}

export const json = (r: Received) => r.json as Record<string, any>;

export const factsGet = async (s: Stage) =>
  (await s.host.waitFor((r) => r.some((x) => x.method === 'GET'))).find((x) => x.method === 'GET')!;

export const seedAndBulk = async (s: Stage, count: number) => {
  await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/seed`, {
    configEnd: '/contacts',
    endUserHandle: 'u-1',
    count,
  });
  const id = await s.open('u-1', '/contacts');
  await s.driver('POST', `/conversations/${id}/bulk-delete`, {});
  return id;
};

/** Three onComplete attempts: 503, 503, then 200. */
export const retried = async (s: Stage) => {
  await completeWith(s, (r) => ({ status: r.headers['x-service-delivery-attempt'] === '3' ? 200 : 503 }));
  return first(s, 'onComplete', 2);
};

export const write = (s: Stage, tail: string, data: object) => s.api('POST', dataPath(s, tail), { data }, bearer(s));

export const embed = (s: Stage, body: object, authorization = s.ws.embedAuthorization) =>
  s.api('POST', `/api/${s.ws.workspaceKey}/embed-tokens`, body, { authorization });

export const contextOf = (n: number, ch = 'x') => ({
  data: { note: ch.repeat(n - JSON.stringify({ data: { note: '' } }).length) },
});

export async function upload(s: Stage, parts: Parameters<typeof multipart>[0], apiKey = s.ws.apiKey): Promise<number> {
  const m = multipart(parts);
  const res = await fetch(`${s.svc.url}/api/${s.ws.workspaceKey}/upload`, {
    method: 'POST',
    body: m.body as unknown as BodyInit,
    headers: { 'content-type': m.type, 'x-api-key': apiKey },
  });
  return res.status;
}

/** A two-file upload of exactly n bytes, neither file over 25 MB. */
export function partsOfSize(n: number): Parameters<typeof multipart>[0] {
  const shape = (rest: number) => [
    { name: 'manifest', body: JSON.stringify({ sources: ['a', 'b'] }) },
    { name: 'a', filename: 'a', body: Buffer.alloc(25_000_000, 97) },
    { name: 'b', filename: 'b', body: Buffer.alloc(rest, 98) },
  ];
  return shape(n - multipart(shape(0)).body.length);
}

/** Rotates the stage's workspace key, opens a conversation, and gives the onStart's kid with the rotation's answer. */
export async function rotatedOnStart(
  s: Stage,
): Promise<{ kid: string; previousKid: string; header: string; doc: JWK[] }> {
  const r = await s.driver('POST', `/workspaces/${s.ws.workspaceKey}/jwks/rotate`, {});
  expect(r.status).toBe(200);
  await s.open();
  const header = (await first(s, 'onStart')).headers['x-service-signature']!;
  const doc = (await s.api('GET', '/.well-known/service/jwks.json')).json.keys as JWK[];
  return { kid: r.json.kid, previousKid: r.json.previousKid, header, doc };
}

/** Monotonic ms at which the service log first showed n failed attempts of the delivery. */
export async function failedAt(s: Stage, deliveryId: string, n: number, ms: number): Promise<number> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    const lines = (await s.driver('GET', '/log')).json.lines as Array<{ event: string; deliveryId?: string }>;
    const failed = lines.filter((x) => x.event === 'delivery.failed' && x.deliveryId === deliveryId);
    if (failed.length >= n) return performance.now();
    await waitMs(10);
  }
  throw new Error(`no ${n} failed attempts of ${deliveryId} within ${ms} ms`);
}
