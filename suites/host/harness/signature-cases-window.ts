/** Signature cases: the correct control, the replay window of 5.2 item 4 on both sides, what is signed (raw bytes). */
import { BOTH, EVERY_KIND, correct, oneByteChanged, respaced, type SignatureCase } from './signature-case-kit.ts';

export const WINDOW_AND_BODY_CASES: readonly SignatureCase[] = [
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
    // HOST-5 reading: the next whole second, so a receiver on a fractional or a whole-second clock
    // both see at most 300 s.
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
];
