/**
 * What the signature cases (signature-cases.ts) are made of: their types and the signing helpers
 * they build requests with. Pure: the live suite and the known-answer vectors build the same cases.
 */
import {
  createHmac,
  createPublicKey,
  sign as nodeSign,
  createPrivateKey,
  type KeyObject as NodeKeyObject,
} from 'node:crypto';
import { CompactSign, base64url, exportJWK, type CryptoKey, type JWK, type KeyObject } from 'jose';
import { jwsPayloadBytes, signHmac, signJws } from '../../../protocol/index.ts';
import { ccsError, type ClauseId, type HostCheckId } from '../../../spec/index.ts';

export type SigningMode = 'hmac' | 'jwks';
/** The request kinds a signature covers: a callback's raw body, the facts GET's request line (5.2 item 6). */
export type SignedKind = 'callback' | 'facts';

export interface CaseKey {
  kid: string;
  privateKey: CryptoKey | KeyObject;
  publicJwk: JWK;
}

/** What the cases sign with: the receiver's own secret or published key, and the keys that must fail. */
export interface Keyring {
  /** HMAC: the secret the receiver holds. */
  secret?: string;
  /** JWKS: the key the JWKS document publishes under its kid. */
  key?: CaseKey;
  /** JWKS: a second key the document publishes, under another kid. */
  decoy?: CaseKey;
  /** JWKS: a key the document does not publish (signs under the published kid, or its own). */
  stranger?: CaseKey;
}

/** A request as the service would send it: the bytes signed and sent, and the signature's t. */
export interface SignedRequest {
  /** The signed payload: the raw body, or "GET " + request target. */
  payload: Buffer;
  /** The request target (facts GET), for cases that change what was signed. */
  requestTarget?: string;
  t: number;
}

/** What a case sends: the X-Service-Signature value (null: no header), and the body when it differs. */
export interface CaseRequest {
  signature: string | null;
  body?: Buffer;
  requestTarget?: string;
}

/** 'sig.X' of a row 'facts-sig.X': the id of a case only the facts GET is sent (its callback rows do not exist). */
type FactsStem = HostCheckId extends infer I ? (I extends `facts-sig.${infer R}` ? `sig.${R}` : never) : never;

/** A case: an edge with the check id of its fault-model rows, or the control, which decides nothing itself. */
export type SignatureCase =
  (CaseOf & { id: HostCheckId | FactsStem; control?: undefined }) | (CaseOf & { id: 'sig.control'; control: true });

interface CaseOf {
  /** The check id of its fault-model rows ('sig.t-future-301s'), typed by the host fault model; 'sig.control'. */
  id: string;
  /** In words, for the check's rule. */
  name: string;
  /** The clause a callback of this case decides (the facts GET's cases decide HOST-18). */
  clause: ClauseId;
  modes: readonly SigningMode[];
  kinds: readonly SignedKind[];
  /** true: a correct verifier accepts it (an edge inside the window); false: it must be refused. */
  accepted: boolean;
  /**
   * A correctly signed request sent beside the edges: it decides nothing itself (HOST-1 and the
   * verifier's clause are decided in lifecycle-ack.spec.ts); an edge is judged only where it was accepted.
   */
  control?: true | undefined;
  /** The t to sign with, from the sender's whole-second clock now (the window edges). */
  t?: (now: number) => number;
  build(r: SignedRequest, k: Keyring): Promise<CaseRequest>;
}

export const WRONG_SECRET = 'not-the-secret-test-only';

/** One byte of a JSON body changed: a letter inside a string value, so the JSON stays valid. */
export function oneByteChanged(body: string): string {
  const m = /"workspaceKey"\s*:\s*"([^"\\])/.exec(body);
  const i = m ? m.index + m[0].length - 1 : body.lastIndexOf('"') - 1;
  return body.slice(0, i) + (body[i] === 'q' ? 'z' : 'q') + body.slice(i + 1);
}

/** The same JSON value with other whitespace: what a verifier that re-serializes would compute over. */
export function respaced(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 3);
  } catch {
    return `${body} `;
  }
}

export function must<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw ccsError('HOST_HARNESS_DEFECT', { problem: `signature case needs ${what}` });
  return v;
}

export const hmac = (secret: string, t: number, payload: Buffer | string) => signHmac({ secret, t, payload });
export const hex = (secret: string, base: Buffer) => createHmac('sha256', secret).update(base).digest('hex');

export async function jws(key: CaseKey, header: Record<string, unknown>, payload: Uint8Array): Promise<string> {
  return new CompactSign(payload).setProtectedHeader({ alg: 'ES256', ...header }).sign(key.privateKey);
}

/** A compact JWS put together by hand (alg none, HS256, a DER signature): what jose refuses to make. */
export function rawJws(
  header: Record<string, unknown>,
  payload: Uint8Array,
  signature: (input: Buffer) => Buffer,
): string {
  const input = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(payload)}`;
  return `${input}.${base64url.encode(signature(Buffer.from(input, 'ascii')))}`;
}

export async function nodePrivateKey(key: CaseKey): Promise<NodeKeyObject> {
  const jwk = await exportJWK(key.privateKey);
  return createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
}

export function publicPem(key: CaseKey): string {
  return createPublicKey({ key: key.publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
}

export const BOTH: readonly SigningMode[] = ['hmac', 'jwks'];
export const EVERY_KIND: readonly SignedKind[] = ['callback', 'facts'];

/** The signature of a correct request in the mode of the keyring (HMAC when it has a secret). */
export async function correct(r: SignedRequest, k: Keyring, t = r.t): Promise<string> {
  if (k.secret !== undefined) return hmac(k.secret, t, r.payload);
  const key = must(k.key, 'the published key');
  return signJws({ privateKey: key.privateKey, kid: key.kid, t, payload: r.payload });
}
