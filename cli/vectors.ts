/**
 * Known-answer vectors for host teams whose verifier is not in Node: HMAC, JWS with its JWKS, and
 * the facts request line, each with the verdict the contract gives it. First the fixture known
 * answers (fixtures/vectors/: HMAC values computed with openssl, JWS made with the test-only
 * fixture key), then one vector per signature row of the host fault model in each mode and request
 * kind it applies to (cli/fault-vectors.ts), at fixed timestamps. Format: docs/vectors.md.
 */
import { readFileSync } from 'node:fs';
import { ccsError, clauseCatalogueVersion, harnessVersion } from '../spec/index.ts';
import { FAULT_VECTOR_JWKS, faultModelVectors } from './fault-vectors.ts';
import { testHmacSecrets } from '../fixtures/keys/index.ts';
import type { Vector, Verdict } from './vector-types.ts';

export const VECTOR_FORMAT = 'ccs-conformance-vectors/1';

export type { Vector, Verdict } from './vector-types.ts';

export interface VectorFile {
  _warning: string;
  format: typeof VECTOR_FORMAT;
  mode: 'hmac' | 'jwks';
  harnessVersion: string;
  clausesVersion: string;
  description: string;
  secrets?: Record<string, string>;
  jwks?: { keys: unknown[] };
  vectors: Vector[];
}

const WARNING =
  "TEST ONLY, never use: the secrets and the key behind these vectors are the harness's published test-only fixtures.";

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/vectors/${name}`, import.meta.url), 'utf8')) as T;
}

interface HmacKnownAnswer {
  name: string;
  secret: 'current' | 'previous';
  t: number;
  payload: string;
  expectedV1: string;
}

async function hmacVectors(): Promise<VectorFile> {
  const file = fixture<{ secrets: Record<string, string>; vectors: HmacKnownAnswer[] }>('hmac-sha256.json');
  const byName = (n: string): HmacKnownAnswer => {
    const v = file.vectors.find((x) => x.name.startsWith(n));
    if (!v)
      throw ccsError('CLI_VECTORS_SOURCE_INVALID', {
        file: 'fixtures/vectors/hmac-sha256.json',
        problem: `no vector '${n}'`,
      });
    return v;
  };
  // The fault-model vectors sign with the fixture workspace's current secret: the file's "current".
  if (file.secrets.current !== testHmacSecrets('production').current)
    throw ccsError('CLI_VECTORS_SOURCE_INVALID', {
      file: 'fixtures/vectors/hmac-sha256.json',
      problem: "its current secret is not the fixture workspace's (fixtures/keys/)",
    });
  const current = byName('onComplete body, current');
  const previous = byName('onComplete body, previous');
  const facts = byName('facts GET');
  const header = (v: HmacKnownAnswer): string => `t=${v.t},v1=${v.expectedV1}`;
  const t = current.t;
  const both = ['current', 'previous'];
  const cb = (name: string, o: Partial<Vector> & Pick<Vector, 'header' | 'verdict' | 'clauses'>): Vector => ({
    name,
    kind: 'callback',
    body: current.payload,
    now: t + 10,
    secrets: both,
    ...o,
  });
  // One changed byte: the first digit of conversationId (an ASCII byte, so the body stays UTF-8).
  const tampered = current.payload.replace('"conversationId":42', '"conversationId":43');
  // The same JSON value, serialized again with spaces: other bytes, so the MAC does not match (HOST-4).
  const reserialized = JSON.stringify(JSON.parse(current.payload), null, 1);
  const vectors: Vector[] = [
    cb('valid: current secret', { header: header(current), verdict: 'valid', clauses: ['SIGN-11'] }),
    cb('valid: previous secret during the rotation overlap', {
      header: header(previous),
      body: previous.payload,
      verdict: 'valid',
      clauses: ['HOST-9'],
    }),
    cb('invalid: previous secret once the overlap is over', {
      header: header(previous),
      body: previous.payload,
      secrets: ['current'],
      verdict: 'invalid',
      clauses: ['HOST-10'],
    }),
    cb('invalid: one byte of the body changed', {
      header: header(current),
      body: tampered,
      verdict: 'invalid',
      clauses: ['HOST-3'],
    }),
    cb('invalid: body re-serialized (same JSON, other bytes)', {
      header: header(current),
      body: reserialized,
      verdict: 'invalid',
      clauses: ['HOST-4', 'HOST-3'],
    }),
    cb('valid: exactly 300 s after t (window edge)', {
      header: header(current),
      now: t + 300,
      verdict: 'valid',
      clauses: ['HOST-5'],
    }),
    cb('stale: 301 s after t', { header: header(current), now: t + 301, verdict: 'stale', clauses: ['HOST-5'] }),
    cb('future: 301 s before t', { header: header(current), now: t - 301, verdict: 'future', clauses: ['HOST-6'] }),
    cb('absent: no X-Service-Signature header', { header: null, verdict: 'absent', clauses: ['HOST-10'] }),
    cb('malformed: t is not an integer', {
      header: `t=17e8,v1=${current.expectedV1}`,
      verdict: 'malformed',
      clauses: ['HOST-10'],
    }),
    cb('malformed: no v1', { header: `t=${t}`, verdict: 'malformed', clauses: ['HOST-10'] }),
    cb('malformed: v1 is not 64 hex digits', {
      header: `t=${t},v1=${current.expectedV1.slice(0, 63)}`,
      verdict: 'malformed',
      clauses: ['HOST-10'],
    }),
    {
      name: 'valid: facts GET signed over "GET " + request target',
      kind: 'facts',
      header: header(facts),
      requestTarget: facts.payload.replace(/^GET /, ''),
      now: facts.t + 10,
      secrets: both,
      verdict: 'valid',
      clauses: ['SIGN-6', 'HOST-18'],
    },
    {
      name: 'invalid: facts GET with another request target',
      kind: 'facts',
      header: header(facts),
      requestTarget: `${facts.payload.replace(/^GET /, '')}&x=1`,
      now: facts.t + 10,
      secrets: both,
      verdict: 'invalid',
      clauses: ['SIGN-6', 'HOST-18'],
    },
  ];
  // Bytes a re-serializing verifier or a query rebuilt from parsed values would change (HOST-4, HOST-18).
  for (const v of file.vectors.filter((x) => /^(re-serialization changes|facts GET request line as sent)/.test(x.name)))
    vectors.push(
      v.payload.startsWith('GET ')
        ? {
            name: `valid: ${v.name}`,
            kind: 'facts',
            header: header(v),
            requestTarget: v.payload.slice('GET '.length),
            now: v.t + 10,
            secrets: both,
            verdict: 'valid',
            clauses: ['SIGN-6', 'HOST-18'],
          }
        : cb(`valid: ${v.name}`, { header: header(v), body: v.payload, verdict: 'valid', clauses: ['HOST-4'] }),
    );
  return {
    _warning: WARNING,
    format: VECTOR_FORMAT,
    mode: 'hmac',
    harnessVersion: harnessVersion(),
    clausesVersion: clauseCatalogueVersion(),
    description:
      'HMAC-SHA256 mode. header is X-Service-Signature ("t=<t>,v1=<hex>"), signed over "<t>." + the raw body bytes, or "<t>." + "GET " + requestTarget for a facts GET.',
    secrets: file.secrets,
    vectors: [...vectors, ...(await faultModelVectors('hmac'))],
  };
}

interface JwsFixture {
  name: string;
  header: string;
  body: string;
  now: number;
  verdict: Verdict;
  clauses: string[];
}

async function jwsVectors(): Promise<VectorFile> {
  const file = fixture<{ jwks: { keys: unknown[] }; vectors: JwsFixture[] }>('jws-es256.json');
  const vectors: Vector[] = file.vectors.map((v) =>
    v.body.startsWith('GET ') && v.clauses.includes('SIGN-6')
      ? {
          name: v.name,
          kind: 'facts',
          header: v.header,
          requestTarget: v.body.slice(4),
          now: v.now,
          verdict: v.verdict,
          clauses: v.clauses,
        }
      : {
          name: v.name,
          kind: 'callback',
          header: v.header,
          body: v.body,
          now: v.now,
          verdict: v.verdict,
          clauses: v.clauses,
        },
  );
  const first = file.vectors[0]!;
  vectors.push({
    name: 'absent: no X-Service-Signature header',
    kind: 'callback',
    header: null,
    body: first.body,
    now: first.now,
    verdict: 'absent',
    clauses: ['HOST-3'],
  });
  return {
    _warning: WARNING,
    format: VECTOR_FORMAT,
    mode: 'jwks',
    harnessVersion: harnessVersion(),
    clausesVersion: clauseCatalogueVersion(),
    description:
      'JWKS mode. header is X-Service-Signature, a compact ES256 JWS whose payload is "<t>." + the raw body bytes (or "GET " + requestTarget for a facts GET); jwks is the JWKS document the verifier fetched.',
    // The document publishes a second key under another kid: a verifier must pick the key of the JWS's kid (HOST-7 step
    // 2).
    jwks: FAULT_VECTOR_JWKS(),
    vectors: [...vectors, ...(await faultModelVectors('jwks'))],
  };
}

export async function buildVectors(): Promise<Record<string, VectorFile>> {
  return { 'hmac.json': await hmacVectors(), 'jws.json': await jwsVectors() };
}
