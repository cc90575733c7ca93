/** Loads the protocol known-answer vectors of fixtures/vectors (TEST ONLY material). */
import { readFileSync } from 'node:fs';
import type { JWK, SignatureVerdictKind } from '../../../protocol/index.ts';
import { clauseTags, type ClauseId } from '../../../spec/index.ts';

function readVector<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/vectors/${name}`, import.meta.url), 'utf8')) as T;
}

export interface HmacVectorFile {
  secrets: { current: string; previous: string };
  vectors: { name: string; secret: 'current' | 'previous'; t: number; payload: string; expectedV1: string }[];
}

export interface JwsVectorFile {
  jwks: { keys: JWK[] };
  vectors: {
    name: string;
    header: string;
    body: string;
    now: number;
    verdict: SignatureVerdictKind;
    clauses: string[];
  }[];
}

export const hmacVectors = readVector<HmacVectorFile>('hmac-sha256.json');
export const jwsVectors = readVector<JwsVectorFile>('jws-es256.json');

/** The vector by name; a missing vector is a broken fixture, said in words. */
export function hmacVector(name: string): HmacVectorFile['vectors'][number] {
  const v = hmacVectors.vectors.find((x) => x.name === name);
  if (!v) throw new Error(`HMAC vector "${name}" missing from fixtures/vectors/hmac-sha256.json`);
  return v;
}

export const tags = (...ids: ClauseId[]): { tag: ReturnType<typeof clauseTags> } => ({ tag: clauseTags(...ids) });
