/**
 * SIGN-9 from the key source itself: the JWKS documents the mock host fetched to verify with. The document
 * is a standard JWKS of public keys, and the kid a JWS names is the kid of the key that signs it: a JWS that
 * the named kid's key does not verify, and another key of the documents does, names the wrong kid.
 */
import { SIGNATURE_HEADER, jwsSignedBy, type JwkSeen, type JwksDocumentSeen } from '../../protocol/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { header } from './journal.ts';
import { at } from './words.ts';
import type { Verdicts } from './verdicts.ts';

const DOCUMENT = { id: 'sign.jwks-document' } as const;

export function judgeJwksDocuments(docs: readonly JwksDocumentSeen[], entries: JournalEntry[], v: Verdicts): void {
  for (const d of docs) {
    const leaked = d.keys.filter((k) => k.private.length > 0);
    v.that(
      'SIGN-9',
      'the JWKS document is a standard JWKS of public keys: no key carries private members',
      leaked.length === 0,
      DOCUMENT,
      () => ({
        expected: 'public members only (kty, crv, x, y, kid, alg)',
        seen: leaked.map((k) => `kid ${JSON.stringify(k.kid)} carries ${k.private.join(', ')}`).join('; '),
      }),
    );
  }
  const keys = docs.flatMap((d) => d.keys);
  if (keys.length === 0) return;
  for (const e of entries) {
    if (e.signature.mode !== 'jwks' || e.signature.verdict !== 'invalid' || e.signature.kid === undefined) continue;
    const jws = header(e, SIGNATURE_HEADER);
    if (jws === undefined) continue;
    const kid = e.signature.kid;
    const signedBy = (k: JwkSeen) => jwsSignedBy(jws, k);
    // the named kid's own key verifies: what fails is the body or the header's members (SIGN-7, SIGN-8)
    if (keys.some((k) => k.kid === kid && signedBy(k))) continue;
    const signer = keys.find((k) => k.kid !== kid && signedBy(k));
    if (signer === undefined) continue;
    v.that('SIGN-9', 'a JWS names the kid of the key that signs it', false, DOCUMENT, () => ({
      expected: `the key of kid ${JSON.stringify(kid)} verifies the JWS`,
      seen: `signed with the key of kid ${JSON.stringify(signer.kid)} of the document, naming ${JSON.stringify(kid)} (${at(e)})`,
    }));
  }
}
