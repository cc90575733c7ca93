/**
 * HMAC-SHA256 (RFC 2104) as two one-shot SHA-256 hashes over key pads made once per secret:
 * H((K ^ opad) || H((K ^ ipad) || message)). The same bytes createHmac gives; verifying 100,000
 * callbacks with createHmac spent more time building a Hmac object per request than hashing.
 * Undefined where a caller must use createHmac instead: no one-shot hash (node < 20.12), or a
 * message longer than the scratch buffer.
 */
import * as nodeCrypto from 'node:crypto';

type OneShot = (algorithm: string, data: Uint8Array, encoding: 'latin1') => string;
// crypto.hash (node >= 20.12): a digest without a Hash object. Asked for as a latin1 string (one
// character a byte): a string costs less to make than the Buffer each digest would otherwise be
const oneShot = (nodeCrypto as unknown as { hash?: OneShot }).hash;

const BLOCK = 64;
const DIGEST = 32;
/** the message (t, a dot, the body) that fits the scratch buffer after the inner pad */
const SCRATCH_BYTES = 16 * 1024;

interface Pads {
  inner: Buffer;
  outer: Buffer;
}

/** The pads of the last few text secrets: a verifier checks the same one or two per request. */
const padsCache = new Map<string, Pads>();
const PADS_CACHE_MAX = 16;

function padsOf(secret: string): Pads {
  let pads = padsCache.get(secret);
  if (pads !== undefined) return pads;
  let key = Buffer.from(secret, 'utf8');
  // RFC 2104: a key longer than the block is hashed first; a shorter one is padded with zeros
  if (key.length > BLOCK) key = nodeCrypto.createHash('sha256').update(key).digest();
  const inner = Buffer.alloc(BLOCK);
  const outer = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i++) {
    const k = i < key.length ? key[i]! : 0;
    inner[i] = k ^ 0x36;
    outer[i] = k ^ 0x5c;
  }
  if (padsCache.size >= PADS_CACHE_MAX) padsCache.clear();
  pads = { inner, outer };
  padsCache.set(secret, pads);
  return pads;
}

// one request is verified at a time (synchronously): one scratch buffer for each hash's input
const innerInput = Buffer.allocUnsafeSlow(BLOCK + SCRATCH_BYTES);
const outerInput = Buffer.allocUnsafeSlow(BLOCK + DIGEST);

/** The first n bytes of innerInput: one view per length, made when first needed (bodies repeat their sizes). */
const innerViews = new Array<Buffer | undefined>(BLOCK + SCRATCH_BYTES + 1);
function innerView(n: number): Buffer {
  return (innerViews[n] ??= innerInput.subarray(0, n));
}

/** Writes the HMAC-SHA256 of prefix + payload with a text secret (its UTF-8 bytes) into out; false: see above. */
export function hmacSha256Into(secret: string, prefix: Uint8Array, payload: Uint8Array, out: Buffer): boolean {
  if (oneShot === undefined || prefix.length + payload.length > SCRATCH_BYTES) return false;
  const pads = padsOf(secret);
  pads.inner.copy(innerInput, 0);
  innerInput.set(prefix, BLOCK);
  innerInput.set(payload, BLOCK + prefix.length);
  const inner = oneShot('sha256', innerView(BLOCK + prefix.length + payload.length), 'latin1');
  pads.outer.copy(outerInput, 0);
  outerInput.write(inner, BLOCK, 'latin1');
  out.write(oneShot('sha256', outerInput, 'latin1'), 0, 'latin1');
  return true;
}
