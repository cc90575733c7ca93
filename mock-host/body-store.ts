/**
 * Keeps the bytes of request bodies until their entries are settled. A body as node hands it over
 * is a view on the buffer of one socket read: two heap objects and a backing store of its own
 * per request, which a journal of many thousand unread entries makes every garbage collection
 * walk. Small bodies are copied into shared slabs instead, and an entry keeps where its bytes are
 * (the slab, an offset, a length: no object of its own); a view on them is made when they are
 * read. The bytes are the same (PITFALLS: raw bytes, never re-serialized).
 */
const SLAB_BYTES = 1024 * 1024;
/** bodies larger than this keep their own buffer: a slab holds many small ones */
const SLAB_MAX_BODY = 16 * 1024;

let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let used = 0;

/** Where the kept bytes of one body are: bodyLength bytes of bodySlab from bodyOffset. */
export interface KeptBody {
  /** a shared slab, or the body itself when large; undefined while no body is kept */
  bodySlab: Buffer | undefined;
  bodyOffset: number;
  bodyLength: number;
}

/** Keeps the bytes of body in k: copied into a shared slab when small, else body itself. */
export function keepBody(k: KeptBody, body: Buffer): void {
  const n = body.length;
  k.bodyLength = n;
  if (n === 0 || n > SLAB_MAX_BODY) {
    k.bodySlab = body;
    k.bodyOffset = 0;
    return;
  }
  if (used + n > SLAB_BYTES) {
    // a slab is freed once no kept body points into it
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  body.copy(slab, used);
  k.bodySlab = slab;
  k.bodyOffset = used;
  // 8-byte steps: bodies never share a word
  used += (n + 7) & ~7;
}

/** The kept bytes of k (a view, not a copy), or undefined when none are kept. */
export function keptBody(k: KeptBody): Buffer | undefined {
  const s = k.bodySlab;
  if (s === undefined) return undefined;
  return k.bodyOffset === 0 && k.bodyLength === s.length ? s : s.subarray(k.bodyOffset, k.bodyOffset + k.bodyLength);
}

/** Lets the kept bytes of k go. */
export function releaseBody(k: KeptBody): void {
  k.bodySlab = undefined;
}
