/**
 * The HDR-1 reading of a Content-Type, asked of every callback twice (its parse result, analyze.ts,
 * and its header check, checks.ts): the answer is kept per value, since a service sends the same one
 * from request to request.
 */

/** answers kept: at most this many values, each at most MAX_KEPT_LENGTH characters */
const MAX_KEPT = 1024;
const MAX_KEPT_LENGTH = 128;
const answers = new Map<string, boolean>();

/** HDR-1 reading: application/json, a charset parameter accepted. */
export function isJsonContentType(ct: string | undefined): boolean {
  if (ct === undefined) return false;
  let json = answers.get(ct);
  if (json === undefined) {
    json = /^application\/json\s*(;.*)?$/i.test(ct.trim());
    if (answers.size < MAX_KEPT && ct.length <= MAX_KEPT_LENGTH) answers.set(ct, json);
  }
  return json;
}
