#!/usr/bin/env node
/**
 * Builds the publishable tree in dist/ (run by `npm run build` and `prepack`):
 *   1. tsc (tsconfig.build.json): every room the CLI runs, as ES modules with declaration files;
 *   2. the data files those modules read at run time (spec/*.yaml, fixtures, schemas), beside them,
 *      and the inspector page's own files (html, css and its browser scripts, served as they are);
 *   3. a CommonJS build of the two library entries (protocol, mock-host) for `require`, bundled
 *      with esbuild so that ESM-only dependencies (jose) load on every supported Node (22.0 to
 *      22.11 cannot require an ES module).
 * Own files are found from each module's location (import.meta.url), so dist/ keeps the layout of
 * the source tree.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
// the rooms tsc compiles (tsconfig.build.json's include, its folders): one list for both steps
const ROOMS = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')).include.filter(
  (p) => !p.includes('.'),
);
/** Never shipped: the harness's own tests, run outputs, this script. */
const SKIP = [join('suites', 'self'), join('reports', 'out'), join('cli', 'build.mjs')];
const DATA = /\.(ya?ml|json|md)$/;
/** Folders shipped whole, whatever their files' types: the inspector page (`/__admin/ui`) serves them as they are. */
const AS_IS = [join('mock-host', 'ui', 'page')];

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (SKIP.includes(relative(ROOT, path))) continue;
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out;
}

rmSync(DIST, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
  stdio: 'inherit',
});

let copied = 0;
for (const room of ROOMS) {
  for (const file of walk(join(ROOT, room))) {
    const asIs = AS_IS.some((dir) => relative(ROOT, file).startsWith(dir + sep));
    if (!asIs && !DATA.test(file) && !file.endsWith('bin.mjs')) continue;
    const to = join(DIST, relative(ROOT, file));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(file, to);
    copied++;
  }
}

// CommonJS entries. The bundle's only import.meta.url is spec/paths (where spec/*.yaml lives):
// point it at the ES build's spec folder so both builds read the same files.
const esbuild = require('esbuild');
const CJS = join(DIST, 'cjs');
for (const entry of ['protocol', 'mock-host']) {
  const outfile = join(CJS, entry, 'index.js');
  esbuild.buildSync({
    entryPoints: [join(DIST, entry, 'index.js')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    // Bundle only what Node 22 before 22.12 cannot require (jose is ESM-only); the rest stay dependencies.
    external: ['ajv', 'ajv/*', 'ajv-formats', 'fastify', '@fastify/*', 'yaml', 'openapi-types'],
    define: { 'import.meta.url': '__ccsSpecModuleUrl' },
    banner: {
      js: `const __ccsSpecModuleUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', '..', 'spec', 'paths.js')).href;`,
    },
  });
}
// Types for `require`: the same declarations, read as CommonJS (dist/cjs is a CommonJS scope).
for (const room of ['spec', 'protocol', 'mock-host']) {
  for (const file of walk(join(DIST, room))) {
    if (file.endsWith('.d.ts')) {
      const to = join(CJS, relative(DIST, file));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(file, to);
    }
  }
}
// Declarations are for the library entries only; the rest of the tree is run, never imported.
for (const room of ROOMS.filter((r) => !['spec', 'protocol', 'mock-host'].includes(r))) {
  for (const file of walk(join(DIST, room))) if (file.endsWith('.d.ts')) rmSync(file);
}
rmSync(join(DIST, 'playwright.config.d.ts'), { force: true });
writeFileSync(join(CJS, 'package.json'), JSON.stringify({ type: 'commonjs' }, null, 2) + '\n');
process.stdout.write(`build: dist/ compiled, ${copied} data files copied, CommonJS entries protocol and mock-host\n`);
