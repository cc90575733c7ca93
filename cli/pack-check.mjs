#!/usr/bin/env node
// `npm run pack:check`: what `npm pack` would publish, without writing a tarball: size and file
// count, the paths that must never ship (run outputs, the harness's own tests, TypeScript sources), and
// once dist/ is built, the files that must (the inspector page's own files).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
const [info] = JSON.parse(out.slice(out.indexOf('[')));
const files = info.files.map((f) => f.path);
const forbidden = files.filter(
  (f) =>
    /(^|\/)(test-results|reports\/out|playwright-report|blob-report|self)\//.test(f) ||
    (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)),
);
process.stdout.write(
  `${info.filename}: ${info.size} bytes packed, ${info.unpackedSize} bytes unpacked, ${files.length} files\n`,
);
if (!files.includes('dist/cli/main.js'))
  process.stdout.write('note: dist/ is not built; run `npm run build` first (npm pack builds it itself)\n');
for (const f of forbidden) process.stderr.write(`must not ship: ${f}\n`);
// Files read or served as they are, that no compiler makes: the inspector page (/__admin/ui) and the recipes.
const built = files.includes('dist/cli/main.js');
const asIs = [
  ...readdirSync(join(root, 'mock-host', 'ui', 'page')).map((f) => `dist/mock-host/ui/page/${f}`),
  'docs/recipes/README.md',
];
const missing = built ? asIs.filter((f) => !files.includes(f)) : [];
for (const f of missing) process.stderr.write(`must ship: ${f}\n`);
process.exitCode = forbidden.length + missing.length > 0 ? 1 : 0;
