import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exec, filesUnder, packAndInstall, userEnv, type Packed } from './tarball.ts';

/**
 * The published package, tested as a user gets it: packed once, installed from the tarball into an
 * empty project, and run from that project with nothing else (no checkout, no tsx, no dev
 * dependencies). Its reports land in the project's reports/out/, never in the package's folder.
 */
test.describe.configure({ mode: 'serial' });
// Pack (with its build) and an offline install, then two short runs: minutes, never unbounded.
test.describe.configure({ timeout: 300_000 });

let packed: Packed;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  packed = await packAndInstall();
});

test.afterAll(() => {
  if (packed) rmSync(packed.work, { recursive: true, force: true });
});

const PRIVATE_MATERIAL = [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, /"d"\s*:\s*"[A-Za-z0-9_-]{20,}"/, /test-only-hmac-secret/];
const TEST_ONLY_MARK = /TEST[ -]ONLY/i;

test('the tarball holds the compiled rooms and docs, no sources of our own tests, no results, and no secret but marked test-only fixtures', async () => {
  const files = packed.files;
  const installed = join(packed.project, 'node_modules', 'ccs-conformance');
  process.stdout.write(`package: ${packed.size} bytes packed, ${files.length} files\n`);
  test.info().annotations.push({ type: 'tarball', description: `${packed.size} bytes, ${files.length} files` });
  for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/cli/bin.mjs', 'dist/cli/main.js', 'dist/playwright.config.js', 'dist/protocol/index.js', 'dist/protocol/index.d.ts',
    'dist/cjs/protocol/index.js', 'dist/mock-host/index.js', 'dist/spec/clauses.yaml', 'dist/spec/openapi.yaml', 'dist/fixtures/workspaces/default.yaml', 'docs/vectors.md']) {
    expect(files, `the tarball holds ${needed}`).toContain(needed);
  }
  const forbidden = files.filter((f) => /(^|\/)(test-results|reports\/out|playwright-report|blob-report|self)\//.test(f) || /\.(zip|tgz|log)$/.test(f)
    || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)) || /^(suites|spec|protocol|cli|reports|fixtures|mock-host|reference-service|bench)\//.test(f));
  expect(forbidden, `files a user does not need:\n${forbidden.join('\n')}`).toEqual([]);
  const unmarked = filesUnder(installed).filter((f) => {
    const text = readFileSync(join(installed, f), 'utf8');
    return PRIVATE_MATERIAL.some((re) => re.test(text)) && !TEST_ONLY_MARK.test(text) && !/test-only/.test(f);
  });
  expect(unmarked, `files with secret material and no test-only mark:\n${unmarked.join('\n')}`).toEqual([]);
});

test('npx ccs-conformance run --grep EVT-1 passes against the embedded reference, with reports in the user\'s reports/out (EVT-1)', async () => {
  const r = await exec('npx', ['ccs-conformance', 'run', '--grep', 'EVT-1', '--workers', '1'], { cwd: packed.project, deadlineMs: 120_000 });
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  const report = JSON.parse(readFileSync(join(packed.project, 'reports', 'out', 'conformance.json'), 'utf8')) as { verdict: string; versions?: { harness: string; clauses: string } };
  expect(report.verdict).toBe('pass');
  const pkg = JSON.parse(readFileSync(join(packed.project, 'node_modules', 'ccs-conformance', 'package.json'), 'utf8')) as { version: string };
  expect(report.versions).toEqual({ harness: pkg.version, clauses: expect.any(String) });
  for (const inside of ['reports', join('dist', 'reports', 'out'), 'test-results']) {
    expect(existsSync(join(packed.project, 'node_modules', 'ccs-conformance', inside)), `nothing written into the package (${inside})`).toBe(false);
  }
  expect(existsSync(join(packed.project, 'node_modules', 'ccs-conformance', 'dist', 'test-results')), 'no test results in the package').toBe(false);
});

test('npx ccs-conformance host --grep HOST-1 passes against the reference receiver (HOST-1)', async () => {
  const r = await exec('npx', ['ccs-conformance', 'host', '--grep', 'HOST-1', '--workers', '1', '--report-dir', 'host-reports'], { cwd: packed.project, deadlineMs: 120_000 });
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(existsSync(join(packed.project, 'host-reports', 'conformance.json'))).toBe(true);
});

test('--version prints the package version and the clause catalogue version', async () => {
  const r = await exec('npx', ['ccs-conformance', '--version'], { cwd: packed.project, deadlineMs: 30_000 });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\nclauses \S+\n$/);
});

test('the verifier imports in plain ESM and CommonJS, no loader, and verifies a known-answer vector (HOST-3)', async () => {
  const r = await exec('npx', ['ccs-conformance', 'vectors', '--out', 'vectors'], { cwd: packed.project, deadlineMs: 30_000 });
  expect(r.code, r.stderr).toBe(0);
  const body = (lang: 'esm' | 'cjs'): string => [
    lang === 'esm' ? "import { verifyCallback, verifyFactsRequest, JwksCache, DeliveryDeduper } from 'ccs-conformance/protocol';" : "const { verifyCallback, verifyFactsRequest, JwksCache, DeliveryDeduper } = require('ccs-conformance/protocol');",
    lang === 'esm' ? "import { MockHost } from 'ccs-conformance/mock-host';" : "const { MockHost } = require('ccs-conformance/mock-host');",
    lang === 'esm' ? "import { readFileSync } from 'node:fs';" : "const { readFileSync } = require('node:fs');",
    "for (const f of [verifyFactsRequest, JwksCache, DeliveryDeduper, MockHost]) if (typeof f !== 'function') throw new Error('missing export');",
    lang === 'cjs' ? "JSON.parse(readFileSync(require.resolve('ccs-conformance/conformance.schema.json'), 'utf8'));" : '',
    "const file = JSON.parse(readFileSync('vectors/hmac.json', 'utf8'));",
    "const v = file.vectors[0];",
    "verifyCallback({ headers: { 'x-service-signature': v.header }, rawBody: Buffer.from(v.body, 'utf8'), config: { mode: 'hmac', secrets: v.secrets.map((n) => file.secrets[n]) }, now: v.now })",
    "  .then((got) => { if (got.verdict !== v.verdict) { console.error(got); process.exit(1); } console.log(got.verdict); });",
  ].join('\n');
  mkdirSync(join(packed.project, 'scripts'), { recursive: true });
  writeFileSync(join(packed.project, 'scripts', 'verify.mjs'), body('esm'));
  writeFileSync(join(packed.project, 'scripts', 'verify.cjs'), body('cjs'));
  for (const script of ['scripts/verify.mjs', 'scripts/verify.cjs']) {
    const run = await exec(process.execPath, [script], { cwd: packed.project, deadlineMs: 30_000, env: userEnv({ NODE_OPTIONS: '' }) });
    expect(run.code, `${script}: ${run.stderr}`).toBe(0);
    expect(run.stdout.trim()).toBe('valid');
  }
  // No TypeScript loader and no dev dependency came with the package.
  for (const dev of ['tsx', 'typescript', 'nock', 'esbuild']) expect(existsSync(join(packed.project, 'node_modules', dev)), `${dev} is not installed`).toBe(false);
});
