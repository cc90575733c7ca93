/**
 * SIGN-9 from the key source the mock host fetched: a document whose key carries a private member fails it,
 * and so does a JWS naming one kid while the key of another kid of the documents signs it; a JWS its own
 * kid's key verifies holds, whatever else is wrong with it (the body is SIGN-8's).
 */
import { test, expect } from '@playwright/test';
import type { JournalEntry } from '../../../mock-host/index.ts';
import { generateSigningKey, jwksSeen, signJws, type JwksDocumentSeen } from '../../../protocol/index.ts';
import { Verdicts } from '../../../judge/service/index.ts';
import { judgeJwksDocuments } from '../../../judge/service/jwks-documents.ts';

const T = 1_790_000_000;
const BODY = JSON.stringify({ event: 'onStart' });

/** A JWKS-mode callback the mock host found invalid under `kid` (the verdict it gives a key that does not verify). */
function invalid(jws: string, kid: string): JournalEntry {
  const e = {
    seq: 1,
    kind: 'lifecycle',
    headers: { 'x-service-signature': jws },
    bodyBase64: Buffer.from(BODY).toString('base64'),
    arrival: { monoNs: '0', wallMs: T * 1000, iso: '' },
    signature: { verdict: 'invalid', mode: 'jwks', reason: '', kid, t: T },
    checks: [],
  };
  return e as unknown as JournalEntry;
}

function document(keys: object[]): JwksDocumentSeen {
  return { url: 'http://127.0.0.1/.well-known/service/jwks.json', firstWallMs: 0, lastWallMs: 0, keys: jwksSeen(keys) };
}

function outcomes(docs: JwksDocumentSeen[], entries: JournalEntry[]): string[] {
  const v = new Verdicts();
  judgeJwksDocuments(docs, entries, v);
  return [...v.clauses()].flatMap(([clause, records]) => records.map((r) => `${clause} ${r.outcome} ${r.id}`)).sort();
}

test('a JWS naming the old kid, signed with the new key of the document, fails SIGN-9 (the judge of a JWKS rotation)', async () => {
  const [old, next] = await Promise.all([generateSigningKey('kid-old'), generateSigningKey('kid-new')]);
  const docs = [document([old.publicJwk, next.publicJwk])];
  const wrongKid = await signJws({ privateKey: next.privateKey, kid: 'kid-old', t: T, payload: BODY });
  expect(outcomes(docs, [invalid(wrongKid, 'kid-old')])).toContain('SIGN-9 failed sign.jwks-document');
  // its own kid's key verifies: the failure is not the kid's (a changed body is SIGN-8's)
  const own = await signJws({ privateKey: old.privateKey, kid: 'kid-old', t: T, payload: BODY });
  expect(outcomes(docs, [invalid(own, 'kid-old')])).not.toContain('SIGN-9 failed sign.jwks-document');
  // signed by a key no document holds: nothing to tell of the kid
  const stranger = await generateSigningKey('kid-x');
  const foreign = await signJws({ privateKey: stranger.privateKey, kid: 'kid-old', t: T, payload: BODY });
  expect(outcomes(docs, [invalid(foreign, 'kid-old')])).toEqual(['SIGN-9 passed sign.jwks-document']);
});

test('a JWKS document whose key carries the private d fails SIGN-9, and only its name is kept', async () => {
  const { publicJwk } = await generateSigningKey('kid-a');
  const leaked = { ...publicJwk, d: 'test-only-not-a-real-private-scalar' };
  const docs = [document([leaked])];
  expect(outcomes(docs, [])).toEqual(['SIGN-9 failed sign.jwks-document']);
  expect(JSON.stringify(docs)).not.toContain('test-only-not-a-real-private-scalar');
  expect(docs[0]!.keys[0]!.private).toEqual(['d']);
  expect(outcomes([document([publicJwk])], [])).toEqual(['SIGN-9 passed sign.jwks-document']);
});
