import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCallback, verifyFactsRequest, type VerifierConfig } from '../../../protocol/index.ts';
import { loadSpec } from '../../../spec/index.ts';
import { exec, ROOT, userEnv } from './tarball.ts';

/**
 * `ccs-conformance vectors --out DIR` (docs/vectors.md): every vector's expected verdict is the one
 * the exported verifier (protocol/) gives, with the vector's own clock, and the files are the same
 * bytes on every run (fixed timestamps, fixture keys).
 */
interface Vector {
  name: string; kind: 'callback' | 'facts'; header: string | null; body?: string; requestTarget?: string;
  now: number; secrets?: string[]; verdict: string; clauses: string[];
}
interface VectorFile { format: string; mode: 'hmac' | 'jwks'; _warning: string; secrets?: Record<string, string>; jwks?: { keys: [] }; vectors: Vector[] }

async function writeVectors(): Promise<{ dir: string; files: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-vectors-'));
  const r = await exec(process.execPath, [join(ROOT, 'cli', 'bin.mjs'), 'vectors', '--out', dir], { cwd: ROOT, env: userEnv(), deadlineMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
  return { dir, files: { 'hmac.json': readFileSync(join(dir, 'hmac.json'), 'utf8'), 'jws.json': readFileSync(join(dir, 'jws.json'), 'utf8') } };
}

function configFor(file: VectorFile, v: Vector): VerifierConfig {
  if (file.mode === 'jwks') return { mode: 'jwks', keys: file.jwks as { keys: [] } };
  return { mode: 'hmac', secrets: (v.secrets ?? []).map((n) => file.secrets![n]!) };
}

test('every known-answer vector gets the verdict the exported verifier gives, HMAC and JWS (HOST-3, HOST-4, HOST-5, HOST-6, HOST-8, HOST-9, HOST-10)', async () => {
  const { dir, files } = await writeVectors();
  rmSync(dir, { recursive: true, force: true });
  const clauseIds = new Set(loadSpec().clauses.map((c) => c.id));
  const kinds = new Set<string>();
  const wrong: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const file = JSON.parse(text) as VectorFile;
    expect(file.format).toBe('ccs-conformance-vectors/1');
    expect(file._warning, `${name} says its material is test-only`).toMatch(/TEST ONLY/);
    for (const v of file.vectors) {
      const headers = v.header === null ? {} : { 'x-service-signature': v.header };
      const got = v.kind === 'facts'
        ? await verifyFactsRequest({ requestTarget: v.requestTarget!, headers, config: configFor(file, v), now: v.now })
        : await verifyCallback({ headers, rawBody: Buffer.from(v.body!, 'utf8'), config: configFor(file, v), now: v.now });
      if (got.verdict !== v.verdict) wrong.push(`${name} "${v.name}": expected ${v.verdict}, verifier says ${got.verdict} (${got.reason})`);
      for (const c of v.clauses) if (!clauseIds.has(c)) wrong.push(`${name} "${v.name}": ${c} is not a clause of spec/clauses.yaml`);
      kinds.add(`${file.mode}:${v.kind}:${v.verdict}`);
    }
  }
  expect(wrong, wrong.join('\n')).toEqual([]);
  // The coverage: valid, tampered, stale, future, unknown kid, missing and malformed header, facts, both modes.
  for (const k of ['hmac:callback:valid', 'hmac:callback:invalid', 'hmac:callback:stale', 'hmac:callback:future', 'hmac:callback:absent', 'hmac:callback:malformed', 'hmac:facts:valid',
    'jwks:callback:valid', 'jwks:callback:invalid', 'jwks:callback:stale', 'jwks:callback:future', 'jwks:callback:unknown-kid', 'jwks:callback:absent', 'jwks:callback:malformed', 'jwks:facts:valid']) {
    expect(kinds, `a vector of kind ${k}`).toContain(k);
  }
});

test('the vectors are the same bytes on every run: fixed timestamps and fixture keys (HOST-5)', async () => {
  const [a, b] = await Promise.all([writeVectors(), writeVectors()]);
  for (const d of [a.dir, b.dir]) rmSync(d, { recursive: true, force: true });
  expect(a.files).toEqual(b.files);
});
