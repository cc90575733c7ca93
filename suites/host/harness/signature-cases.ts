/**
 * The signature cases of the host fault model (spec/faults/host.yaml): one per way a verifier can
 * break a step of the two verification lists of 5.2, each a check id, the clause it decides, the
 * modes and request kinds it applies to, and how to build it from a correct request. Each case
 * breaks exactly one thing of an otherwise correct request (PITFALLS: a refusal proves nothing if
 * two things are wrong). Pure: the live suite and the known-answer vectors build the same cases.
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
import type { ClauseId, HostCheckId } from '../../../spec/index.ts';

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

/** A case: an edge with the check id of its fault-model rows, or the control, which decides nothing itself. */
/** 'sig.X' of a row 'facts-sig.X': the id of a case only the facts GET is sent (its callback rows do not exist). */
type FactsStem = HostCheckId extends infer I ? (I extends `facts-sig.${infer R}` ? `sig.${R}` : never) : never;

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

const WRONG_SECRET = 'not-the-secret-test-only';

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

function must<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`signature case needs ${what}`);
  return v;
}

const hmac = (secret: string, t: number, payload: Buffer | string) => signHmac({ secret, t, payload });
const hex = (secret: string, base: Buffer) => createHmac('sha256', secret).update(base).digest('hex');

async function jws(key: CaseKey, header: Record<string, unknown>, payload: Uint8Array): Promise<string> {
  return new CompactSign(payload).setProtectedHeader({ alg: 'ES256', ...header }).sign(key.privateKey);
}

/** A compact JWS put together by hand (alg none, HS256, a DER signature): what jose refuses to make. */
function rawJws(header: Record<string, unknown>, payload: Uint8Array, signature: (input: Buffer) => Buffer): string {
  const input = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(payload)}`;
  return `${input}.${base64url.encode(signature(Buffer.from(input, 'ascii')))}`;
}

async function nodePrivateKey(key: CaseKey): Promise<NodeKeyObject> {
  const jwk = await exportJWK(key.privateKey);
  return createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
}

function publicPem(key: CaseKey): string {
  return createPublicKey({ key: key.publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
}

const BOTH: readonly SigningMode[] = ['hmac', 'jwks'];
const EVERY_KIND: readonly SignedKind[] = ['callback', 'facts'];

/** The signature of a correct request in the mode of the keyring (HMAC when it has a secret). */
async function correct(r: SignedRequest, k: Keyring, t = r.t): Promise<string> {
  if (k.secret !== undefined) return hmac(k.secret, t, r.payload);
  const key = must(k.key, 'the published key');
  return signJws({ privateKey: key.privateKey, kid: key.kid, t, payload: r.payload });
}

/** The case list, in the order of the verification steps of 5.2. */
export const SIGNATURE_CASES: readonly SignatureCase[] = [
  {
    id: 'sig.control',
    name: 'a correctly signed request, t at now',
    clause: 'HOST-1',
    modes: BOTH,
    kinds: EVERY_KIND,
    accepted: true,
    control: true,
    t: (now) => now,
    build: async (r, k) => ({ signature: await correct(r, k) }),
  },
  // The window (5.2 item 4), both sides, both edges: the whole-second sender clock decides t.
  {
    id: 'sig.t-past-300s-accepted',
    name: 't at now - 300 s (inside the window) is accepted',
    clause: 'HOST-5',
    modes: BOTH,
    kinds: EVERY_KIND,
    accepted: true,
    // HOST-5 reading: the next whole second, so a receiver on a fractional or a whole-second clock both see at most 300 s.
    t: (now) => now + 1 - 300,
    build: async (r, k) => ({ signature: await correct(r, k) }),
  },
  {
    id: 'sig.t-future-300s-accepted',
    name: 't at now + 300 s (inside the window) is accepted',
    clause: 'HOST-6',
    modes: BOTH,
    kinds: EVERY_KIND,
    accepted: true,
    t: (now) => now + 300,
    build: async (r, k) => ({ signature: await correct(r, k) }),
  },
  {
    id: 'sig.t-past-301s',
    name: 't at now - 301 s is refused',
    clause: 'HOST-5',
    modes: BOTH,
    kinds: EVERY_KIND,
    accepted: false,
    t: (now) => now - 301,
    build: async (r, k) => ({ signature: await correct(r, k) }),
  },
  // HOST-6: floor(now) + 302 stays more than 300 s ahead of the receiver's clock even a second later.
  {
    id: 'sig.t-future-301s',
    name: 't at now + 301 s is refused',
    clause: 'HOST-6',
    modes: BOTH,
    kinds: EVERY_KIND,
    accepted: false,
    t: (now) => now + 302,
    build: async (r, k) => ({ signature: await correct(r, k) }),
  },

  // What is signed (5.2: "the signed body must equal the received body"; raw bytes, HOST-4).
  {
    id: 'sig.body-byte-changed',
    name: 'one byte of the body changed after signing is refused',
    clause: 'HOST-4',
    modes: ['hmac'],
    kinds: ['callback'],
    accepted: false,
    build: async (r, k) => ({
      signature: await correct(r, k),
      body: Buffer.from(oneByteChanged(r.payload.toString('utf8'))),
    }),
  },
  {
    id: 'sig.jws-body-byte-changed',
    name: 'one byte of the body changed after signing is refused (step 6: the signed body equals the received body)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: ['callback'],
    accepted: false,
    build: async (r, k) => ({
      signature: await correct(r, k),
      body: Buffer.from(oneByteChanged(r.payload.toString('utf8'))),
    }),
  },
  {
    id: 'sig.reserialized-body',
    name: 'a body signed with other whitespace than the bytes sent is refused',
    clause: 'HOST-4',
    modes: ['hmac'],
    kinds: ['callback'],
    accepted: false,
    build: async (r, k) => ({
      signature: await correct({ ...r, payload: Buffer.from(respaced(r.payload.toString('utf8'))) }, k),
    }),
  },
  {
    id: 'sig.jws-reserialized-body',
    name: 'a body signed with other whitespace than the bytes sent is refused (step 6: byte for byte, not as JSON)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: ['callback'],
    accepted: false,
    build: async (r, k) => ({
      signature: await correct({ ...r, payload: Buffer.from(respaced(r.payload.toString('utf8'))) }, k),
    }),
  },
  {
    id: 'sig.request-line-changed',
    name: 'a request line other than the one signed is refused',
    clause: 'HOST-18',
    modes: BOTH,
    kinds: ['facts'],
    accepted: false,
    build: async (r, k) => {
      const other = (r.requestTarget ?? '').replace(/endUserHandle=([^&]*)/, (_m, v: string) => `endUserHandle=${v}x`);
      return { signature: await correct({ ...r, payload: Buffer.from(`GET ${other}`) }, k) };
    },
  },

  // The header (both modes): absent.
  {
    id: 'sig.header-absent',
    name: 'no X-Service-Signature header is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async () => ({ signature: null }),
  },
  {
    id: 'sig.jws-header-absent',
    name: 'no X-Service-Signature header is refused',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async () => ({ signature: null }),
  },

  // HMAC (5.2 "Split t and v1; recompute; compare"): the secret, then every malformed shape.
  {
    id: 'sig.hmac-wrong-secret',
    name: 'v1 computed with another secret is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r) => ({ signature: hmac(WRONG_SECRET, r.t, r.payload) }),
  },
  {
    id: 'sig.hmac-t-changed',
    name: 't in the header moved after signing (v1 computed with another t) is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: `t=${r.t},v1=${hex(must(k.secret, 'the secret'), Buffer.concat([Buffer.from(`${r.t - 60}.`), r.payload]))}`,
    }),
  },
  {
    id: 'sig.hmac-no-dot',
    name: 'v1 over t and the body without the dot between them is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: `t=${r.t},v1=${hex(must(k.secret, 'the secret'), Buffer.concat([Buffer.from(String(r.t)), r.payload]))}`,
    }),
  },
  {
    id: 'sig.hmac-v1-truncated',
    name: 'v1 cut to 63 hex digits (the correct value less its last digit) is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({ signature: hmac(must(k.secret, 'the secret'), r.t, r.payload).slice(0, -1) }),
  },
  {
    id: 'sig.hmac-v1-extended',
    name: 'v1 of 65 hex digits (the correct value and one more) is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({ signature: `${hmac(must(k.secret, 'the secret'), r.t, r.payload)}0` }),
  },
  {
    id: 'sig.hmac-v1-empty',
    name: 'an empty v1 is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r) => ({ signature: `t=${r.t},v1=` }),
  },
  {
    id: 'sig.hmac-v1-not-hex',
    name: 'a v1 of 64 characters that are not hex is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r) => ({ signature: `t=${r.t},v1=${'g'.repeat(64)}` }),
  },
  {
    id: 'sig.hmac-t-only',
    name: 'a header with t and no v1 is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r) => ({ signature: `t=${r.t}` }),
  },
  {
    id: 'sig.hmac-v1-only',
    name: 'a header with v1 and no t is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({ signature: `v1=${hmac(must(k.secret, 'the secret'), r.t, r.payload).split('v1=')[1]}` }),
  },
  {
    id: 'sig.hmac-t-not-digits',
    name: 'a t that is not unix seconds is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: `t=abc,v1=${hex(must(k.secret, 'the secret'), Buffer.concat([Buffer.from('abc.'), r.payload]))}`,
    }),
  },
  {
    id: 'sig.hmac-garbage',
    name: 'a header that is neither t nor v1 is refused',
    clause: 'HOST-10',
    modes: ['hmac'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async () => ({ signature: 'garbage' }),
  },

  // JWKS (5.2 verification steps 1 to 6).
  {
    id: 'sig.jws-wrong-key',
    name: 'a JWS under the published kid signed by another key is refused (step 3)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: await signJws({
        privateKey: must(k.stranger, 'a stranger key').privateKey,
        kid: must(k.key, 'the published key').kid,
        t: r.t,
        payload: r.payload,
      }),
    }),
  },
  {
    id: 'sig.jws-kid-of-other-key',
    name: 'a JWS signed by one published key under the kid of the other is refused (step 2: the key of its kid)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: await signJws({
        privateKey: must(k.decoy, 'a second published key').privateKey,
        kid: must(k.key, 'the published key').kid,
        t: r.t,
        payload: r.payload,
      }),
    }),
  },
  {
    id: 'sig.jws-no-kid',
    name: 'a JWS without kid, signed by the published key, is refused (step 1: read kid)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: await jws(must(k.key, 'the published key'), {}, jwsPayloadBytes(r.t, r.payload)),
    }),
  },
  {
    id: 'sig.jws-alg-none',
    name: 'a JWS with alg none and no signature is refused (ES256 only)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: rawJws(
        { alg: 'none', kid: must(k.key, 'the published key').kid },
        jwsPayloadBytes(r.t, r.payload),
        () => Buffer.alloc(0),
      ),
    }),
  },
  {
    id: 'sig.jws-alg-hs256',
    name: 'a JWS with alg HS256 keyed with the published public key is refused (ES256 only)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => {
      const key = must(k.key, 'the published key');
      return {
        signature: rawJws({ alg: 'HS256', kid: key.kid }, jwsPayloadBytes(r.t, r.payload), (input) =>
          createHmac('sha256', publicPem(key)).update(input).digest(),
        ),
      };
    },
  },
  {
    id: 'sig.jws-der-signature',
    name: 'an ES256 signature in DER form instead of the 64-byte r||s is refused',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => {
      const key = must(k.key, 'the published key');
      const priv = await nodePrivateKey(key);
      return {
        signature: rawJws({ alg: 'ES256', kid: key.kid }, jwsPayloadBytes(r.t, r.payload), (input) =>
          nodeSign('sha256', input, { key: priv, dsaEncoding: 'der' }),
        ),
      };
    },
  },
  {
    id: 'sig.jws-payload-without-t',
    name: 'a validly signed JWS whose payload is the body alone, without "<t>.", is refused (step 4)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: ['callback'],
    accepted: false,
    build: async (r, k) => ({ signature: await jws(must(k.key, 'the published key'), { kid: k.key!.kid }, r.payload) }),
  },
  {
    id: 'sig.jws-t-not-digits',
    name: 'a validly signed JWS whose payload starts "abc." instead of unix seconds is refused (step 4)',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: await jws(
        must(k.key, 'the published key'),
        { kid: k.key!.kid },
        Buffer.concat([Buffer.from('abc.'), r.payload]),
      ),
    }),
  },
  {
    id: 'sig.jws-not-compact',
    name: 'a header that is not a compact JWS is refused',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async () => ({ signature: 'not-a-jws' }),
  },
  {
    id: 'sig.jws-two-parts',
    name: 'a JWS of two parts is refused',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({ signature: (await correct(r, k)).split('.').slice(0, 2).join('.') }),
  },
  {
    id: 'sig.jws-empty-header',
    name: 'a JWS whose header is {} (no alg, no kid) is refused',
    clause: 'HOST-7',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async () => ({ signature: 'e30.e30.e30' }),
  },

  // JWKS key source (HOST-8): a kid the document does not hold stays refused after a refetch.
  {
    id: 'sig.kid-unknown',
    name: 'a JWS under a kid absent from the JWKS document, signed by that absent key, is refused',
    clause: 'HOST-8',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => {
      const s = must(k.stranger, 'a stranger key');
      return { signature: await signJws({ privateKey: s.privateKey, kid: s.kid, t: r.t, payload: r.payload }) };
    },
  },
  {
    id: 'sig.kid-unknown-published-key',
    name: 'a JWS under a kid absent from the JWKS document, signed by a published key, is refused',
    clause: 'HOST-8',
    modes: ['jwks'],
    kinds: EVERY_KIND,
    accepted: false,
    build: async (r, k) => ({
      signature: await signJws({
        privateKey: must(k.key, 'the published key').privateKey,
        kid: `${must(k.stranger, 'a stranger key').kid}-absent`,
        t: r.t,
        payload: r.payload,
      }),
    }),
  },
];

/** The cases of one mode and request kind. */
export function casesFor(mode: SigningMode, kind: SignedKind): SignatureCase[] {
  return SIGNATURE_CASES.filter((c) => c.modes.includes(mode) && c.kinds.includes(kind));
}

/** The callback's check id of a case (its own id). */
export function callbackCheckId(c: SignatureCase): HostCheckId {
  // A callback case's row exists: the fault-model self test fails a callback case no row names.
  return c.id as HostCheckId;
}

/** The facts GET's check id of a case: the same way, on the request line (HOST-18). */
export function factsCheckId(c: SignatureCase): Extract<HostCheckId, `facts-sig.${string}`> {
  // A facts case's row exists: the fault-model self test fails a facts case no row names.
  return c.id.replace(/^sig\./, 'facts-sig.') as Extract<HostCheckId, `facts-sig.${string}`>;
}
