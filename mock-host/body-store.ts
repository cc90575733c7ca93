/**
 * Keeps the bytes of request bodies until their entries are settled. A body as node hands it over
 * is a view on the buffer of one socket read: two heap objects and a backing store of its own
 * per request, which a journal of many thousand unread entries makes every garbage collection
 * walk. Small bodies are copied into shared slabs instead, so an entry keeps one view on a slab;
 * the bytes are the same (PITFALLS: raw bytes, never re-serialized).
 */
const SLAB_BYTES = 1024 * 1024;
/** bodies larger than this keep their own buffer: a slab holds many small ones */
const SLAB_MAX_BODY = 16 * 1024;

let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let used = 0;

/** The bytes of body, to be kept: a view on a shared slab for a small body, else body itself. */
export function keepBody(body: Buffer): Buffer {
  const n = body.length;
  if (n === 0 || n > SLAB_MAX_BODY) return body;
  if (used + n > SLAB_BYTES) {
    // a slab is freed once no kept body points into it
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  body.copy(slab, used);
  const kept = slab.subarray(used, used + n);
  // 8-byte steps: views never share a word
  used += (n + 7) & ~7;
  return kept;
}
