/**
 * The known-answer vectors catch a verifier that does not use the bytes as sent (5.2: "Verification
 * must use the raw body bytes; re-serialized JSON breaks the check"; item 6: the facts GET is signed
 * over the request line as sent). A verifier over JSON.stringify(JSON.parse(body)), or over a query
 * rebuilt from its parsed values, must fail many valid vectors, not one: their bytes are ones such a
 * verifier changes (whitespace, \u escapes, 1.0 and 1e2, integers past 2^53, %20 against +).
 */
import { test, expect } from '@playwright/test';
import { verifyHmac, verifyJws } from '../../../protocol/index.ts';
import { hmacVectors, jwsVectors, tags } from './vectors.ts';

/** What a re-serializing verifier computes over: the body parsed and written again (not JSON: as sent). */
function reserialized(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body));
  } catch {
    return body;
  }
}

/** What a verifier that rebuilds the query from parsed values signs over: "GET " + path + re-encoded query. */
function rebuiltRequestLine(line: string): string {
  const target = line.slice('GET '.length);
  const url = new URL(target, 'http://host.invalid');
  const query = new URLSearchParams([...url.searchParams]).toString();
  return `GET ${url.pathname}${query === '' ? '' : `?${query}`}`;
}

/** The verifier's view of a payload: a facts request line rebuilt, a body re-serialized. */
const broken = (payload: string): string =>
  payload.startsWith('GET ') ? rebuiltRequestLine(payload) : reserialized(payload);

test(
  'the exported verifier accepts every valid HMAC vector as sent (HOST-4, HOST-18)',
  tags('HOST-4', 'HOST-18'),
  () => {
    for (const v of hmacVectors.vectors) {
      const secret = hmacVectors.secrets[v.secret];
      const r = verifyHmac({ header: `t=${v.t},v1=${v.expectedV1}`, payload: v.payload, secrets: [secret], now: v.t });
      expect(r.verdict, `${v.name}: ${r.reason}`).toBe('valid');
    }
  },
);

test(
  'a verifier over re-serialized JSON or a rebuilt query fails most HMAC vectors (HOST-4, HOST-18)',
  tags('HOST-4', 'HOST-18'),
  () => {
    const failed = hmacVectors.vectors.filter((v) => {
      const secret = hmacVectors.secrets[v.secret];
      const r = verifyHmac({
        header: `t=${v.t},v1=${v.expectedV1}`,
        payload: broken(v.payload),
        secrets: [secret],
        now: v.t,
      });
      return r.verdict !== 'valid';
    });
    const facts = failed.filter((v) => v.payload.startsWith('GET '));
    expect(failed.length * 2, failed.map((v) => v.name).join('\n')).toBeGreaterThan(hmacVectors.vectors.length);
    expect(failed.length).toBeGreaterThanOrEqual(15);
    expect(facts.length, 'facts vectors a query rebuilt from parsed values fails').toBeGreaterThanOrEqual(2);
  },
);

test(
  'a JWS verifier that compares the re-serialized body or a rebuilt query fails most valid JWS vectors (HOST-7, HOST-18)',
  tags('HOST-7', 'HOST-18'),
  async () => {
    const valid = jwsVectors.vectors.filter((v) => v.verdict === 'valid');
    const failed: string[] = [];
    for (const v of valid) {
      const r = await verifyJws({ header: v.header, payload: broken(v.body), keys: jwsVectors.jwks, now: v.now });
      if (r.verdict !== 'valid') failed.push(v.name);
    }
    expect(failed.length * 2, failed.join('\n')).toBeGreaterThan(valid.length);
    expect(failed.length).toBeGreaterThanOrEqual(15);
  },
);
