/**
 * The exact HMAC header form of SIGN-11 and SIGN-12 (HMAC_HEADER_PATTERN: t=<digits>,v1=<64 lowercase
 * hex>, nothing else) read without a regex: every callback's signature is read this way by the mock
 * host and again by the traffic judge, and the regex's match (an array and its strings) cost more than
 * the walk over some 80 characters.
 */

const V1_HEX_DIGITS = 64;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isLowerHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66);
}

/**
 * Where the t digits of value end (the index of ",v1=") when value has the exact form, else -1:
 * the same answer as HMAC_HEADER_PATTERN.exec(value), whose first group is value.slice(2, end) and
 * second value.slice(end + 4).
 */
export function exactHmacFormEnd(value: string): number {
  if (value.charCodeAt(0) !== 0x74 /* t */ || value.charCodeAt(1) !== 0x3d /* = */) return -1;
  let end = 2;
  while (isDigit(value.charCodeAt(end))) end++;
  if (end === 2 || value.length !== end + 4 + V1_HEX_DIGITS || !value.startsWith(',v1=', end)) return -1;
  for (let i = end + 4; i < value.length; i++) if (!isLowerHex(value.charCodeAt(i))) return -1;
  return end;
}

/** Whether value has the exact form: HMAC_HEADER_PATTERN.test(value). */
export function isExactHmacForm(value: string): boolean {
  return exactHmacFormEnd(value) > 0;
}
