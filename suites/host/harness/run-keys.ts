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
export type RunKeysJson = Record<keyof RunKeys, { kid: string; privateJwk: JWK; publicJwk: JWK }>;

const NAMES = ['key', 'decoy', 'stranger'] as const;

export async function newSigningKey(): Promise<SigningKey> {
  return generateSigningKey(`ccs-${randomBytes(6).toString('hex')}`);
}

export async function newRunKeys(): Promise<RunKeys> {
  const [key, decoy, stranger] = await Promise.all([newSigningKey(), newSigningKey(), newSigningKey()]);
  return { key: key!, decoy: decoy!, stranger: stranger! };
}

export async function runKeysToJson(keys: RunKeys): Promise<RunKeysJson> {
  const out = {} as RunKeysJson;
  for (const n of NAMES)
    out[n] = { kid: keys[n].kid, privateJwk: await exportJWK(keys[n].privateKey), publicJwk: keys[n].publicJwk };
  return out;
}

export async function runKeysFromJson(json: RunKeysJson): Promise<RunKeys> {
  const out = {} as RunKeys;
  for (const n of NAMES) {
    const k = json[n];
    out[n] = {
      kid: k.kid,
      privateKey: (await importJWK(k.privateJwk, 'ES256', { extractable: true })) as CryptoKey | KeyObject,
      publicJwk: k.publicJwk,
    };
  }
  return out;
}
