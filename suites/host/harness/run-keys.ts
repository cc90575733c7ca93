/**
 * The JWKS-mode keys the harness signs with: the key the document publishes, a decoy it publishes
 * under another kid, and a stranger it never publishes (signature-cases.ts). A service side shared
 * by every worker of a run makes them once and publishes them before the first callback, and each
 * worker, a restarted one too, signs with the same keys: a receiver that honours a refetch cooldown
 * then meets a new kid only where a test means a rotation (HOST-8), never because a worker started.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, importJWK, type JWK } from 'jose';
import { generateSigningKey, type CryptoKey, type KeyObject } from '../../../protocol/index.ts';
import type { RunKeys, SigningKey } from '../../../judge/host/index.ts';

/** Their private halves, as the control route of a shared service side sends them to workers. */
export type RunKeysJson = Partial<Record<keyof RunKeys, { kid: string; privateJwk: JWK; publicJwk: JWK }>>;

const NAMES = ['key', 'decoy', 'stranger', 'sandbox'] as const;

export async function newSigningKey(): Promise<SigningKey> {
  return generateSigningKey(`ccs-${randomBytes(6).toString('hex')}`);
}

/** With a sandbox workspace declared, its own key too (5.2: sandbox and production use different kids). */
export async function newRunKeys(sandbox = false): Promise<RunKeys> {
  const [key, decoy, stranger] = await Promise.all([newSigningKey(), newSigningKey(), newSigningKey()]);
  return { key: key!, decoy: decoy!, stranger: stranger!, ...(sandbox ? { sandbox: await newSigningKey() } : {}) };
}

/** The document served at a run's start: the key, the decoy and a sandbox's own key, each under its kid (5.2). */
export function publishedJwks(keys: RunKeys): JWK[] {
  return [keys.key.publicJwk, keys.decoy.publicJwk, ...(keys.sandbox ? [keys.sandbox.publicJwk] : [])];
}

export async function runKeysToJson(keys: RunKeys): Promise<RunKeysJson> {
  const out = {} as RunKeysJson;
  for (const n of NAMES) {
    const k = keys[n];
    if (k !== undefined) out[n] = { kid: k.kid, privateJwk: await exportJWK(k.privateKey), publicJwk: k.publicJwk };
  }
  return out;
}

export async function runKeysFromJson(json: RunKeysJson): Promise<RunKeys> {
  const out = {} as RunKeys;
  for (const n of NAMES) {
    const k = json[n];
    if (k === undefined) continue;
    out[n] = {
      kid: k.kid,
      privateKey: (await importJWK(k.privateJwk, 'ES256', { extractable: true })) as CryptoKey | KeyObject,
      publicJwk: k.publicJwk,
    };
  }
  return out;
}
