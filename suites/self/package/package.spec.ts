import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envWithNode, exec, filesUnder, installInto, nodeBinDir, packedOnce, TESTED_NODE_MAJORS } from './tarball.ts';
import type { Installed, Packed } from './tarball.ts';

/**
 * The published package, tested as a user gets it: packed once, installed from the tarball into an
 * empty project per supported Node major (22, 24 and 26, from the npm registry's `node` package),
 * with no engine warning, and run from that project with nothing else (no checkout, no tsx, no dev
 * dependencies): a service run and a host run on each. Its reports land in the project's
 * reports/out/, never in the package's folder.
 */
test.describe.configure({ mode: 'serial' });
// Pack (with its build), three offline installs, then short runs per Node: minutes, never unbounded.
test.describe.configure({ timeout: 300_000 });

let packed: Packed;
const projects = new Map<string, Installed & { env: NodeJS.ProcessEnv; version: string }>();

test.beforeAll(async () => {
  test.setTimeout(600_000);
  const [p, bins] = await Promise.all([packedOnce(), Promise.all(TESTED_NODE_MAJORS.map(nodeBinDir))]);
  packed = p;
  // One install at a time: npm's cache is shared, and the machine's cores are few.
  for (const [i, major] of TESTED_NODE_MAJORS.entries()) {
    const env = envWithNode(bins[i]!, { NODE_OPTIONS: '' });
    const version = (await exec('node', ['--version'], { cwd: packed.work, env, deadlineMs: 30_000 })).stdout.trim();
    projects.set(major, { ...(await installInto(packed, `user-project-node${major}`, env)), env, version });
  }
});

const PRIVATE_MATERIAL = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /"d"\s*:\s*"[A-Za-z0-9_-]{20,}"/,
  /test-only-hmac-secret/,
];
const TEST_ONLY_MARK = /TEST[ -]ONLY/i;

test('the tarball holds the compiled rooms and docs, no sources of our own tests, no results, and no secret but marked test-only fixtures', async () => {
  const files = packed.files;
  const installed = join(projects.get('22')!.project, 'node_modules', 'ccs-conformance');
  process.stdout.write(`package: ${packed.size} bytes packed, ${files.length} files\n`);
  test.info().annotations.push({ type: 'tarball', description: `${packed.size} bytes, ${files.length} files` });
  for (const needed of [
    'package.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'dist/cli/bin.mjs',
    'dist/cli/main.js',
    'dist/playwright.config.js',
    'dist/protocol/index.js',
    'dist/protocol/index.d.ts',
    'dist/cjs/protocol/index.js',
    'dist/mock-host/index.js',
    'dist/spec/clauses.yaml',
    'dist/spec/openapi.yaml',
    'dist/fixtures/workspaces/default.yaml',
    'docs/vectors.md',
    'docs/recipes/README.md',
    'docs/recipes/node-stripe.md',
    'docs/recipes/node/server.mjs',
    'docs/recipes/python/receiver.py',
    // The inspector page (/__admin/ui) serves these as they are: no build step makes them.
    ...['index.html', 'inspector.css', 'inspector.js'].map((f) => `dist/mock-host/ui/page/${f}`),
  ]) {
    expect(files, `the tarball holds ${needed}`).toContain(needed);
  }
  const forbidden = files.filter(
    (f) =>
      /(^|\/)(test-results|reports\/out|playwright-report|blob-report|self)\//.test(f) ||
      /\.(zip|tgz|log)$/.test(f) ||
      (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)) ||
      /^(suites|spec|protocol|cli|reports|fixtures|mock-host|reference-service|bench)\//.test(f),
  );
  expect(forbidden, `files a user does not need:\n${forbidden.join('\n')}`).toEqual([]);
  const unmarked = filesUnder(installed).filter((f) => {
    const text = readFileSync(join(installed, f), 'utf8');
    return PRIVATE_MATERIAL.some((re) => re.test(text)) && !TEST_ONLY_MARK.test(text) && !/test-only/.test(f);
  });
  expect(unmarked, `files with secret material and no test-only mark:\n${unmarked.join('\n')}`).toEqual([]);
});

test('package.json says what is tested: Node 22 or later', () => {
  const pkg = JSON.parse(
    readFileSync(join(projects.get('22')!.project, 'node_modules', 'ccs-conformance', 'package.json'), 'utf8'),
  ) as { engines?: { node?: string } };
  expect(pkg.engines?.node).toBe(`>=${TESTED_NODE_MAJORS[0]}`);
});

for (const major of TESTED_NODE_MAJORS) {
  test(`Node ${major}: the tarball installs with no engine warning; npx ccs-conformance run --grep EVT-1 and host --grep HOST-1 pass from the project, reports in its own folders (EVT-1, HOST-1)`, async () => {
    const p = projects.get(major)!;
    test.info().annotations.push({ type: 'node', description: p.version });
    expect(p.version, 'the project runs the Node of this major').toMatch(new RegExp(`^v${major}\\.`));
    expect(p.output, `npm install on Node ${p.version} prints no engine warning`).not.toMatch(
      /EBADENGINE|Unsupported engine/i,
    );
    const run = await exec('npx', ['ccs-conformance', 'run', '--grep', 'EVT-1', '--workers', '1'], {
      cwd: p.project,
      env: p.env,
      deadlineMs: 120_000,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const report = JSON.parse(readFileSync(join(p.project, 'reports', 'out', 'conformance.json'), 'utf8')) as {
      verdict: string;
      versions?: { harness: string; clauses: string };
    };
    expect(report.verdict).toBe('pass');
    const pkg = JSON.parse(
      readFileSync(join(p.project, 'node_modules', 'ccs-conformance', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(report.versions).toEqual({ harness: pkg.version, clauses: expect.any(String) });
    const host = await exec(
      'npx',
      ['ccs-conformance', 'host', '--grep', 'HOST-1', '--workers', '1', '--report-dir', 'host-reports'],
      { cwd: p.project, env: p.env, deadlineMs: 120_000 },
    );
    expect(host.code, `${host.stdout}\n${host.stderr}`).toBe(0);
    expect(existsSync(join(p.project, 'host-reports', 'conformance.json'))).toBe(true);
    for (const inside of ['reports', join('dist', 'reports', 'out'), 'test-results', join('dist', 'test-results')]) {
      expect(
        existsSync(join(p.project, 'node_modules', 'ccs-conformance', inside)),
        `nothing written into the package (${inside})`,
      ).toBe(false);
    }
  });
}

test('--version prints the package version and the clause catalogue version', async () => {
  const p = projects.get('22')!;
  const r = await exec('npx', ['ccs-conformance', '--version'], { cwd: p.project, env: p.env, deadlineMs: 30_000 });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\nclauses \S+\n$/);
});

test('the verifier imports in plain ESM and CommonJS, no loader, and verifies a known-answer vector, on every tested Node (HOST-3)', async () => {
  const body = (lang: 'esm' | 'cjs'): string =>
    [
      lang === 'esm'
        ? "import { verifyCallback, verifyFactsRequest, JwksCache, DeliveryDeduper } from 'ccs-conformance/protocol';"
        : "const { verifyCallback, verifyFactsRequest, JwksCache, DeliveryDeduper } = require('ccs-conformance/protocol');",
      lang === 'esm'
        ? "import { MockHost } from 'ccs-conformance/mock-host';"
        : "const { MockHost } = require('ccs-conformance/mock-host');",
      lang === 'esm' ? "import { readFileSync } from 'node:fs';" : "const { readFileSync } = require('node:fs');",
      "for (const f of [verifyFactsRequest, JwksCache, DeliveryDeduper, MockHost]) if (typeof f !== 'function') throw new Error('missing export');",
      lang === 'cjs'
        ? "JSON.parse(readFileSync(require.resolve('ccs-conformance/conformance.schema.json'), 'utf8'));"
        : '',
      "const file = JSON.parse(readFileSync('vectors/hmac.json', 'utf8'));",
      'const v = file.vectors[0];',
      "verifyCallback({ headers: { 'x-service-signature': v.header }, rawBody: Buffer.from(v.body, 'utf8'), config: { mode: 'hmac', secrets: v.secrets.map((n) => file.secrets[n]) }, now: v.now })",
      '  .then((got) => { if (got.verdict !== v.verdict) { console.error(got); process.exit(1); } console.log(got.verdict); });',
    ].join('\n');
  for (const major of TESTED_NODE_MAJORS) {
    const p = projects.get(major)!;
    const r = await exec('npx', ['ccs-conformance', 'vectors', '--out', 'vectors'], {
      cwd: p.project,
      env: p.env,
      deadlineMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    mkdirSync(join(p.project, 'scripts'), { recursive: true });
    writeFileSync(join(p.project, 'scripts', 'verify.mjs'), body('esm'));
    writeFileSync(join(p.project, 'scripts', 'verify.cjs'), body('cjs'));
    for (const script of ['scripts/verify.mjs', 'scripts/verify.cjs']) {
      const run = await exec('node', [script], { cwd: p.project, deadlineMs: 30_000, env: p.env });
      expect(run.code, `Node ${p.version} ${script}: ${run.stderr}`).toBe(0);
      expect(run.stdout.trim()).toBe('valid');
    }
    // No TypeScript loader and no dev dependency came with the package.
    for (const dev of ['tsx', 'typescript', 'nock', 'esbuild', 'stripe'])
      expect(existsSync(join(p.project, 'node_modules', dev)), `${dev} is not installed`).toBe(false);
  }
});
