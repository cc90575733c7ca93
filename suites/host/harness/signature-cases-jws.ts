/** Signature cases: JWKS mode's verification steps 1 to 6 (5.2) and the key source (HOST-8). */
import { createHmac, sign as nodeSign } from 'node:crypto';
import { jwsPayloadBytes, signJws } from '../../../protocol/index.ts';
import {
  must,
  jws,
  rawJws,
  nodePrivateKey,
  publicPem,
  EVERY_KIND,
  correct,
  type SignatureCase,
} from './signature-case-kit.ts';

export const JWS_CASES: readonly SignatureCase[] = [
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
