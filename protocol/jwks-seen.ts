/**
 * What a JWKS document held when a verifier fetched it, as a journal may keep it (SIGN-9): each key's
 * public members and the names of any private ones, never their values, and which key signs a compact JWS.
 */
import { createPublicKey, verify } from 'node:crypto';
import type { JWK } from 'jose';

/** A key of a fetched document: its public members, and the names of the private members it carried. */
export interface JwkSeen {
  kid?: string;
  kty?: string;
  crv?: string;
  alg?: string;
  x?: string;
  y?: string;
  /** RFC 7518's private members present (d, p, q, dp, dq, qi, oth, k): their names only. */
  private: string[];
}

/** One document as fetched from a URL: the first and last wall-clock times it was served unchanged. */
export interface JwksDocumentSeen {
  url: string;
  firstWallMs: number;
  lastWallMs: number;
  keys: JwkSeen[];
}

/** RFC 7518 6.2.2, 6.3.2 and 6.4: the members of a private or symmetric key. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const PUBLIC_MEMBERS = ['kid', 'kty', 'crv', 'alg', 'x', 'y'] as const;

/** A document's keys as kept: public members as served, private ones by name. */
export function jwksSeen(keys: readonly JWK[]): JwkSeen[] {
  return keys.map((k) => {
    const seen: JwkSeen = { private: PRIVATE_MEMBERS.filter((m) => (k as Record<string, unknown>)[m] !== undefined) };
    for (const m of PUBLIC_MEMBERS) {
      const value = (k as Record<string, unknown>)[m];
      if (typeof value === 'string') seen[m] = value;
    }
    return seen;
  });
}

/**
 * Whether a compact JWS's ES256 signature verifies with a key's public part (a synchronous check: a judge
 * reads a whole journal at once). False for a key that is no EC P-256 key, or a JWS that is not compact.
 */
export function jwsSignedBy(compact: string, key: JwkSeen): boolean {
  const parts = compact.trim().split('.');
  if (parts.length !== 3 || key.kty !== 'EC' || key.crv !== 'P-256' || !key.x || !key.y) return false;
  try {
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: key.x, y: key.y }, format: 'jwk' });
    const input = Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii');
    const signature = Buffer.from(parts[2]!, 'base64url');
    return verify('sha256', input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}
