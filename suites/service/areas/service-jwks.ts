/**
 * The service's JWKS document as the signing tests (5.2) read it, and the words of a JWS verified against it.
 */
import type { JWK } from 'jose';
import type { ServiceClient } from '../fixtures.ts';
import { answered } from './errors.ts';
import { check, precondition } from '../../shared/index.ts';
import type { ClauseId } from '../../../spec/index.ts';

/**
 * The service's JWKS document. Its shape is SIGN-9's rule: a check of SIGN-9 in the SIGN-9 test,
 * elsewhere a precondition (the key source the test needs before it can look at its own rule).
 */
export async function serviceJwks(svc: ServiceClient, clause?: ClauseId): Promise<{ keys: JWK[] }> {
  const r = await svc.jwks();
  const doc = r.json as { keys?: JWK[] } | undefined;
  const served = r.status === 200;
  const hasKeys = Array.isArray(doc?.keys);
  if (clause !== undefined) {
    check(clause, 'GET /.well-known/service/jwks.json is answered 200', { id: 'sign.jwks-document' }).that(served, {
      expected: '200',
      seen: answered(r),
    });
    check(clause, 'the JWKS document has a keys array', { id: 'sign.jwks-document' }).that(hasKeys, {
      expected: 'a keys array',
      seen: r.text.slice(0, 200),
    });
  } else {
    precondition(served && hasKeys, 'the service serves its JWKS document with a keys array', {
      expected: '200 with a keys array',
      seen: answered(r),
    });
  }
  return { keys: doc!.keys! };
}

/** A JWS signature verified against the document (crypto only: which bytes it signs is SIGN-8's, SIGN-6's). */
export function verifiedWords(v: { verified?: boolean; kid?: string; reason: string }): {
  expected: string;
  seen: string;
} {
  return {
    expected: "an ES256 signature that verifies with the key of its kid in the service's JWKS document",
    seen: v.verified ? `verifies with kid ${v.kid}` : v.reason,
  };
}
