/**
 * Callback signing, service side (5.2). Written here rather than taken from protocol/ because the
 * seeded faults need to bend single steps of it (SIGN-4/6/8/10/12/14); protocol's verifiers are
 * the independent check in the tests.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { FaultSet } from './faults.ts';
import type { Workspace } from './model.ts';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

interface SigningKey {
  kid: string;
  privateKey: PrivateKey;
  publicJwk: JWK;
}

export interface KeyRing {
  production: SigningKey;
  sandbox: SigningKey;
  /** SIGN-9: the JWKS document, every kid the service signs with (rotated keys included). */
  jwks(): { keys: JWK[] };
  /** The keys a workspace was given by JWKS rotations, oldest first (driver capability signing-jwks-rotation). */
  rotated: Map<string, SigningKey[]>;
}

async function makeKey(env: string): Promise<SigningKey> {
  // Generated at start, never committed: the private keys live only in this process.
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `${env}-${randomUUID().slice(0, 8)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

export async function createKeyRing(): Promise<KeyRing> {
  const production = await makeKey('prod');
  const sandbox = await makeKey('sandbox');
  const rotated = new Map<string, SigningKey[]>();
  // SIGN-9: a rotated-out key stays published, so a host still verifying an earlier delivery finds it.
  const jwks = () => {
    const rotatedJwks = [...rotated.values()].flat().map((k) => k.publicJwk);
    return { keys: [production.publicJwk, sandbox.publicJwk, ...rotatedJwks] };
  };
  return { production, sandbox, jwks, rotated };
}

/** SIGN-10: sandbox and production sign with different keys. */
function environmentKey(ring: KeyRing, ws: Workspace, faults: FaultSet): SigningKey {
  if (ws.parent && !faults.has('same-kid-sandbox')) return ring.sandbox;
  return ring.production;
}

/** The key a workspace signs with now: its newest rotated key, else its environment's. */
export function keyFor(ring: KeyRing, ws: Workspace, faults: FaultSet): SigningKey {
  // SIGN-10 broken on purpose by sandbox-shares-rotated-kid: once the parent rotates, its new key is shared.
  const parentOwn = ws.parent ? ring.rotated.get(ws.parent.workspaceKey) : undefined;
  if (faults.has('sandbox-shares-rotated-kid') && parentOwn?.length) return parentOwn[parentOwn.length - 1]!;
  const own = ring.rotated.get(ws.workspaceKey);
  // SIGN-9 broken on purpose by jws-keeps-old-kid-after-rotation: the rotation publishes a key never used.
  if (!own?.length || faults.has('jws-keeps-old-kid-after-rotation')) return environmentKey(ring, ws, faults);
  return own[own.length - 1]!;
}

/** The kid a workspace signed with before its last rotation (undefined before any rotation). */
function previousKid(ring: KeyRing, ws: Workspace, faults: FaultSet): string | undefined {
  const own = ring.rotated.get(ws.workspaceKey) ?? [];
  if (own.length === 0) return undefined;
  return own.length > 1 ? own[own.length - 2]!.kid : environmentKey(ring, ws, faults).kid;
}

/**
 * Driver capability signing-jwks-rotation: a new key with a new kid for the workspace, published
 * in the same document; every callback signed from now on names it (the key source's "refetch when
 * kid is unknown (a rotation)", SIGN-9). Answers the new kid and the one it replaces.
 */
export async function rotateJwksKey(
  ring: KeyRing,
  ws: Workspace,
  faults: FaultSet,
): Promise<{ kid: string; previousKid: string }> {
  const previous = keyFor(ring, ws, faults).kid;
  const key = await makeKey(ws.parent ? 'sandbox' : 'prod');
  ring.rotated.set(ws.workspaceKey, [...(ring.rotated.get(ws.workspaceKey) ?? []), key]);
  return { kid: key.kid, previousKid: previous };
}

/**
 * The X-Service-Signature value over `payload` (raw body bytes, or the facts request line), or
 * undefined when signing is off (SIGN-1). t is read at call time: every attempt is re-signed (SIGN-5).
 */
export async function signatureFor(
  ws: Workspace,
  ring: KeyRing,
  faults: FaultSet,
  payload: Buffer,
  opts: { reserialized?: Buffer } = {},
): Promise<string | undefined> {
  const signing = ws.signing;
  if (signing.mode === 'none') return undefined;
  let t = Math.floor(Date.now() / 1000);
  if (faults.has('stale-t')) t -= 400;
  if (faults.has('future-t')) t += 400;
  if (signing.mode === 'hmac') {
    // SIGN-13: per workspace and per environment; the sandbox uses its own secret.
    const parent = ws.parent?.signing;
    let secret = faults.has('hmac-sandbox-parent-secret') && parent?.mode === 'hmac' ? parent.secret : signing.secret;
    // Seeded fault for SIGN-14: after a rotation, sign with neither the current nor the previous secret.
    if (faults.has('rotation-signs-with-neither') && signing.previousSecret)
      secret = `${signing.previousSecret}:${signing.secret}`;
    const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
    mac.update(faults.has('hmac-base-without-dot') ? `${t}` : `${t}.`);
    mac.update(payload);
    const hex = mac.digest('hex');
    const v1 = faults.has('hmac-uppercase-hex') ? hex.toUpperCase() : hex;
    return faults.has('hmac-header-v1-first') ? `v1=${v1},t=${t}` : `t=${t},v1=${v1}`; // SIGN-11
  }
  const key = keyFor(ring, ws, faults);
  // SIGN-9 broken on purpose by jws-old-kid-new-key: the new key signs, the header names the old kid.
  const kid = (faults.has('jws-old-kid-new-key') ? previousKid(ring, ws, faults) : undefined) ?? key.kid;
  const body = faults.has('sign-reserialized-body') && opts.reserialized ? opts.reserialized : payload;
  // SIGN-8: the JWS payload is "<unix_seconds>." followed by the raw request body.
  const jwsPayload = Buffer.concat([Buffer.from(`${t}.`, 'utf8'), body]);
  // SIGN-7: ES256 with a kid (jws-without-kid breaks it on purpose).
  const protectedHeader = faults.has('jws-without-kid') ? { alg: 'ES256' } : { alg: 'ES256', kid };
  return new CompactSign(jwsPayload).setProtectedHeader(protectedHeader).sign(key.privateKey);
}
