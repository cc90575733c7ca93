/**
 * The JWS forms of HOST-27 and the shapes HOST-7 refuses, as signature cases (signature-case-kit.ts):
 * tried on every event and the facts GET (every-signed-request.spec.ts), written into the known-answer
 * vectors from their fault-model rows. Accepted: what RFC 7515 and RFC 7518 leave to the signer. Refused:
 * what is not a compact JWS of ES256 (RFC 7515 2: base64url is without padding, in its own alphabet, and
 * 5.2 steps 2 and 7 allow no other characters; 7.1: three parts; RFC 7518 3.4: the signature is 64 bytes).
 */
import { sign as nodeSign, type KeyObject } from 'node:crypto';
import { base64url } from 'jose';
import { jwsPayloadBytes } from '../../../../protocol/index.ts';
import {
  EVERY_KIND,
  correct,
  must,
  nodePrivateKey,
  type CaseKey,
  type Keyring,
  type SignatureCase,
  type SignedRequest,
} from '../signature-case-kit.ts';

const nodeKeys = new WeakMap<CaseKey, Promise<KeyObject>>();

function nodeKeyOf(key: CaseKey): Promise<KeyObject> {
  let k = nodeKeys.get(key);
  if (k === undefined) nodeKeys.set(key, (k = nodePrivateKey(key)));
  return k;
}

/**
 * A compact JWS of ES256 with the given protected header, signed again (ECDSA draws a fresh nonce) until
 * its raw 64-byte r||s meets `until`: RFC 7518 3.4 writes r and s as 32 bytes each, leading zeros kept.
 */
export async function es256Jws(
  key: CaseKey,
  header: Record<string, unknown>,
  payload: Uint8Array,
  until: (sig: Buffer) => boolean = () => true,
): Promise<{ input: string; signature: Buffer }> {
  const priv = await nodeKeyOf(key);
  const input = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(payload)}`;
  // A leading zero byte in r or s comes once in 512 signatures: the loop ends after about that many
  // (microseconds each).
  for (;;) {
    const signature = nodeSign('sha256', Buffer.from(input, 'ascii'), { key: priv, dsaEncoding: 'ieee-p1363' });
    if (until(signature)) return { input, signature };
  }
}

/**
 * r (at 0) or s (at 32) starting with a zero byte followed by one below 0x80: the shortest DER INTEGER
 * drops that zero, so a verifier that writes r and s into DER whole (or trims the zero and loses the
 * 64-byte length) refuses it.
 */
export const leadingZeroAt =
  (at: 0 | 32) =>
  (sig: Buffer): boolean =>
    sig[at] === 0 && sig[at + 1]! < 0x80;

const published = (k: Keyring): CaseKey => must(k.key, 'the published key');
const compact = (x: { input: string; signature: Buffer }, sig = base64url.encode(x.signature)): string =>
  `${x.input}.${sig}`;
const es256 = (k: Keyring) => ({ alg: 'ES256', kid: published(k).kid });
const bytesOf = (r: SignedRequest) => jwsPayloadBytes(r.t, r.payload);

/** The correct JWS with its signature replaced by `n` bytes: cut short, or zero bytes put before r||s. */
export async function signatureOfLength(r: SignedRequest, k: Keyring, n: number): Promise<string> {
  const [h, p, s] = (await correct(r, k)).split('.') as [string, string, string];
  const sig = Buffer.from(base64url.decode(s));
  const out = n <= 64 ? sig.subarray(0, n) : Buffer.concat([Buffer.alloc(n - 64), sig]);
  return `${h}.${p}.${base64url.encode(out)}`;
}

const jwks = { modes: ['jwks'] as const, kinds: EVERY_KIND };

/** A JWS whose r (at 0) or s (at 32) starts with a zero byte: still 64 bytes r||s, so accepted. */
const leadingZero = (part: 'r' | 's'): SignatureCase => ({
  id: `sig.jws-${part}-leading-zero`,
  name: `an ES256 JWS whose ${part} starts with a zero byte (still 64 bytes r||s, RFC 7518 3.4) is accepted`,
  clause: 'HOST-7',
  ...jwks,
  accepted: true,
  build: async (r, k) => ({
    signature: compact(await es256Jws(published(k), es256(k), bytesOf(r), leadingZeroAt(part === 'r' ? 0 : 32))),
  }),
});

export const JWS_WIRE_CASES: readonly SignatureCase[] = [
  leadingZero('r'),
  leadingZero('s'),
  {
    id: 'sig.jws-header-reordered',
    name: 'a JWS whose protected header lists kid before alg is accepted (RFC 7515 4: members in any order)',
    clause: 'HOST-7',
    ...jwks,
    accepted: true,
    build: async (r, k) => ({
      signature: compact(await es256Jws(published(k), { kid: published(k).kid, alg: 'ES256' }, bytesOf(r))),
    }),
  },
  {
    id: 'sig.jws-header-typ',
    name: 'a JWS whose protected header also carries typ JOSE is accepted (RFC 7515 4.1.9: optional)',
    clause: 'HOST-7',
    ...jwks,
    accepted: true,
    build: async (r, k) => ({
      signature: compact(await es256Jws(published(k), { ...es256(k), typ: 'JOSE' }, bytesOf(r))),
    }),
  },
  {
    id: 'sig.jws-signature-63-bytes',
    name: 'an ES256 JWS whose signature is cut to 63 bytes is refused (RFC 7518 3.4: 64 bytes)',
    clause: 'HOST-7',
    ...jwks,
    accepted: false,
    build: async (r, k) => ({ signature: await signatureOfLength(r, k, 63) }),
  },
  {
    id: 'sig.jws-signature-65-bytes',
    name: 'an ES256 JWS whose signature is a zero byte and the 64 bytes r||s is refused (RFC 7518 3.4: 64 bytes)',
    clause: 'HOST-7',
    ...jwks,
    accepted: false,
    build: async (r, k) => ({ signature: await signatureOfLength(r, k, 65) }),
  },
  {
    id: 'sig.jws-padded',
    name: 'a JWS whose signature part carries base64 padding (=) is refused (RFC 7515 2: base64url without =)',
    clause: 'HOST-7',
    ...jwks,
    accepted: false,
    build: async (r, k) => ({ signature: `${compact(await es256Jws(published(k), es256(k), bytesOf(r)))}==` }),
  },
  {
    id: 'sig.jws-standard-alphabet',
    name: 'a JWS whose signature part is in the standard base64 alphabet (+ /) is refused (RFC 7515 2)',
    clause: 'HOST-7',
    ...jwks,
    accepted: false,
    build: async (r, k) => {
      const x = await es256Jws(published(k), es256(k), bytesOf(r), (s) => /[-_]/.test(base64url.encode(s)));
      return { signature: compact(x, x.signature.toString('base64').replace(/=+$/, '')) };
    },
  },
  {
    id: 'sig.jws-extra-dot',
    name: 'a correct JWS with a fourth, empty part after one more dot is refused (RFC 7515 7.1: three parts)',
    clause: 'HOST-7',
    ...jwks,
    accepted: false,
    build: async (r, k) => ({ signature: `${await correct(r, k)}.` }),
  },
];
