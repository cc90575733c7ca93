/**
 * The verdict of a signature check. Never a boolean: a report reader needs to know why
 * (a stale but authentic signature is a different finding from a forged one).
 *
 * Order of checks, first failure wins: absent -> malformed -> unknown-kid -> signature
 * ('invalid') -> window ('stale' / 'future'). So 'stale' and 'future' always mean
 * "authentic, but outside the 300 s window" (5.2.4).
 */
export type SignatureVerdictKind = 'valid' | 'invalid' | 'stale' | 'future' | 'unknown-kid' | 'malformed' | 'absent';

export const SIGNATURE_VERDICT_KINDS: readonly SignatureVerdictKind[] = [
  'valid',
  'invalid',
  'stale',
  'future',
  'unknown-kid',
  'malformed',
  'absent',
];

export type SignatureMode = 'hmac' | 'jwks' | 'none';

export interface SignatureVerdict {
  verdict: SignatureVerdictKind;
  mode: SignatureMode;
  /** A sentence for a human; never contains a secret or a key. */
  reason: string;
  /** The signature's t (unix seconds), once it could be read. */
  t?: number;
  /** now - t in seconds (positive: signed in the past). */
  skewSeconds?: number;
  /** JWKS mode: the kid of the JWS header. */
  kid?: string;
  /** HMAC mode: index in the given secrets of the one that matched (rotation, HOST-9). */
  secretIndex?: number;
}

/** Current unix time in whole seconds: t is "unix seconds" (5.2.4), so now is compared in the same unit. */
export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * 5.2.4: reject when abs(now - t) > 300. Returns the window verdict for an authentic signature;
 * exactly 300 s either side is accepted.
 */
export function windowVerdict(
  base: Omit<SignatureVerdict, 'verdict' | 'reason' | 'skewSeconds'> & { t: number },
  now: number,
  windowSeconds: number,
): SignatureVerdict {
  const skewSeconds = now - base.t;
  // Object.assign, not `{ ...base, verdict }`: same keys in the same order, and node 20's spread
  // with extra keys costs microseconds per call on this per-request path.
  const out = Object.assign({}, base) as SignatureVerdict;
  if (skewSeconds > windowSeconds) {
    out.verdict = 'stale';
    out.skewSeconds = skewSeconds;
    out.reason = `authentic signature, but t is ${skewSeconds} s in the past (window ${windowSeconds} s, 5.2.4)`;
  } else if (-skewSeconds > windowSeconds) {
    out.verdict = 'future';
    out.skewSeconds = skewSeconds;
    out.reason = `authentic signature, but t is ${-skewSeconds} s in the future (window ${windowSeconds} s, 5.2.4)`;
  } else {
    out.verdict = 'valid';
    out.skewSeconds = skewSeconds;
    out.reason = 'signature valid and inside the replay window';
  }
  return out;
}

/** t as written in a signature: a non-negative integer in decimal digits, a safe integer. */
export function parseUnixSeconds(text: string): number | undefined {
  if (!/^[0-9]{1,15}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

const utf8Encoder = new TextEncoder();

export function toBytes(payload: Uint8Array | string): Uint8Array {
  return typeof payload === 'string' ? utf8Encoder.encode(payload) : payload;
}
