import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCallback, verifyFactsRequest, type VerifierConfig } from '../../../protocol/index.ts';
import { loadFaultModel, loadSpec } from '../../../spec/index.ts';
import { exec, ROOT, userEnv } from './tarball.ts';

/**
 * `ccs-conformance vectors --out DIR` (docs/vectors.md): every vector's expected verdict is the one
 * the exported verifier (protocol/) gives, with the vector's own clock; every signature row of the
 * host fault model marked `vector: true` has its vectors, in each signing mode it applies to; and
 * the files are the same bytes on every run but for the ES256 signatures, which are randomized
 * (fixed timestamps, fixture keys).
 */
interface Vector {
  name: string;
  kind: 'callback' | 'facts';
  header: string | null;
  body?: string;
  requestTarget?: string;
  now: number;
  secrets?: string[];
  verdict: string;
  clauses: string[];
  row?: string;
  check?: string;
}
interface VectorFile {
  format: string;
  mode: 'hmac' | 'jwks';
  _warning: string;
  secrets?: Record<string, string>;
  jwks?: { keys: [] };
  vectors: Vector[];
}

async function writeVectors(): Promise<{ dir: string; files: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-vectors-'));
  const r = await exec(process.execPath, [join(ROOT, 'cli', 'bin.mjs'), 'vectors', '--out', dir], {
    cwd: ROOT,
    env: userEnv(),
    deadlineMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return {
    dir,
    files: {
      'hmac.json': readFileSync(join(dir, 'hmac.json'), 'utf8'),
      'jws.json': readFileSync(join(dir, 'jws.json'), 'utf8'),
    },
  };
}

function configFor(file: VectorFile, v: Vector): VerifierConfig {
  if (file.mode === 'jwks') return { mode: 'jwks', keys: file.jwks as { keys: [] } };
  return { mode: 'hmac', secrets: (v.secrets ?? []).map((n) => file.secrets![n]!) };
}

test('every known-answer vector gets the verdict the exported verifier gives, HMAC and JWS (HOST-3, HOST-4, HOST-5, HOST-6, HOST-7, HOST-8, HOST-9, HOST-10, HOST-16, HOST-18)', async () => {
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
      const got =
        v.kind === 'facts'
          ? await verifyFactsRequest({
              requestTarget: v.requestTarget!,
              headers,
              config: configFor(file, v),
              now: v.now,
            })
          : await verifyCallback({
              headers,
              rawBody: Buffer.from(v.body!, 'utf8'),
              config: configFor(file, v),
              now: v.now,
            });
      if (got.verdict !== v.verdict)
        wrong.push(`${name} "${v.name}": expected ${v.verdict}, verifier says ${got.verdict} (${got.reason})`);
      for (const c of v.clauses)
        if (!clauseIds.has(c)) wrong.push(`${name} "${v.name}": ${c} is not a clause of spec/clauses.yaml`);
      kinds.add(`${file.mode}:${v.kind}:${v.verdict}`);
    }
  }
  expect(wrong, wrong.join('\n')).toEqual([]);
  // The coverage: valid, tampered, stale, future, unknown kid, missing and malformed header, facts, both modes.
  for (const k of [
    'hmac:callback:valid',
    'hmac:callback:invalid',
    'hmac:callback:stale',
    'hmac:callback:future',
    'hmac:callback:absent',
    'hmac:callback:malformed',
    'hmac:facts:valid',
    'jwks:callback:valid',
    'jwks:callback:invalid',
    'jwks:callback:stale',
    'jwks:callback:future',
    'jwks:callback:unknown-kid',
    'jwks:callback:absent',
    'jwks:callback:malformed',
    'jwks:facts:valid',
  ]) {
    expect(kinds, `a vector of kind ${k}`).toContain(k);
  }
});

test('every signature row of the host fault model marked vector has its vectors, in each mode it applies to, naming the row and its clause', async () => {
  const { dir, files } = await writeVectors();
  rmSync(dir, { recursive: true, force: true });
  const vectors = Object.values(files).flatMap((text) => {
    const f = JSON.parse(text) as VectorFile;
    return f.vectors.map((v) => ({ mode: f.mode, v }));
  });
  const rows = loadFaultModel('host').rows;
  const wrong: string[] = [];
  for (const { mode, v } of vectors.filter((x) => x.v.row !== undefined)) {
    const row = rows.find((r) => r.row === v.row);
    if (row === undefined || !row.vector)
      wrong.push(`${mode} "${v.name}": ${v.row} is not a vector row of spec/faults/host.yaml`);
    else if (v.clauses.join() !== row.clause || v.check !== row.check)
      wrong.push(
        `${mode} "${v.name}": clauses ${v.clauses.join()} and check ${v.check}, the row says ${row.clause} and ${row.check}`,
      );
  }
  for (const row of rows.filter((r) => r.vector)) {
    const modes = new Set(vectors.filter((x) => x.v.row === row.row).map((x) => x.mode));
    // A row names its modes in its applies ("hmac, jwks"), or its check's case decides them (the facts rows).
    const named = (row.applies ?? []).find((a) => /^(hmac|jwks)(, (hmac|jwks))*$/.test(a))?.split(', ');
    if (modes.size === 0) wrong.push(`${row.row}: no vector`);
    for (const m of named ?? []) if (!modes.has(m as 'hmac' | 'jwks')) wrong.push(`${row.row}: no ${m} vector`);
  }
  expect(wrong, wrong.join('\n')).toEqual([]);
  // The window's edges on both sides, in both modes, for callbacks and facts GETs alike.
  for (const row of [
    'HOST-5/t-past-301s',
    'HOST-5/t-past-300s-refused',
    'HOST-6/t-future-301s',
    'HOST-6/t-future-300s-refused',
    'HOST-18/t-past-301s',
    'HOST-18/t-future-301s',
    'HOST-16/t-past-300s-refused',
    'HOST-16/t-future-300s-refused',
  ]) {
    expect(
      vectors
        .filter((x) => x.v.row === row)
        .map((x) => x.mode)
        .sort(),
      row,
    ).toEqual(['hmac', 'jwks']);
  }
});

/**
 * An ES256 signature is randomized: the third part of a compact JWS is left out of the comparison (of a
 * JWS of four parts too: a shape HOST-7 refuses).
 */
function withoutSignatures(text: string): unknown {
  const file = JSON.parse(text) as VectorFile;
  const masked = (parts: string[]) => [...parts.slice(0, 2), '(signature)', ...parts.slice(3)].join('.');
  return {
    ...file,
    vectors: file.vectors.map((v) => ({
      ...v,
      header: (v.header?.split('.').length ?? 0) >= 3 ? masked(v.header!.split('.')) : v.header,
    })),
  };
}

test('the vectors are the same on every run: fixed timestamps and fixture keys; HMAC byte for byte, JWS but for the ES256 signatures (HOST-5)', async () => {
  const [a, b] = await Promise.all([writeVectors(), writeVectors()]);
  for (const d of [a.dir, b.dir]) rmSync(d, { recursive: true, force: true });
  expect(a.files['hmac.json']).toBe(b.files['hmac.json']);
  expect(withoutSignatures(a.files['jws.json']!)).toEqual(withoutSignatures(b.files['jws.json']!));
});

test('a verifier over re-serialized JSON fails every valid callback vector of the files the CLI writes (HOST-4)', async () => {
  const { dir, files } = await writeVectors();
  rmSync(dir, { recursive: true, force: true });
  const valid: string[] = [];
  const unchanged: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const file = JSON.parse(text) as VectorFile;
    for (const v of file.vectors.filter((x) => x.kind === 'callback' && x.verdict === 'valid')) {
      valid.push(v.name);
      // 5.2: "re-serialized JSON breaks the check": every such vector's bytes are ones a re-serialization changes.
      let again: string | undefined;
      try {
        again = JSON.stringify(JSON.parse(v.body!));
      } catch {
        again = undefined;
      }
      if (again === v.body) unchanged.push(`${name} "${v.name}"${v.row === undefined ? '' : ` (row ${v.row})`}`);
    }
  }
  // The known answers computed outside (fixtures/vectors/) keep a few canonical bodies (a sorting re-serializer's
  // order, the window edges); every vector built here (the fault model's) has bytes a re-serialization changes.
  expect(valid.length, 'valid callback vectors').toBeGreaterThan(4);
  expect(
    unchanged.length,
    `valid vectors a re-serialization leaves as they are:\n${unchanged.join('\n')}`,
  ).toBeLessThan(valid.length / 4);
  expect(
    unchanged.filter((n) => n.includes('/')),
    'fault-model vectors (named by their row) left as they are',
  ).toEqual([]);
});
