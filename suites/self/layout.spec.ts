import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dynamicImports, importCycles, loadedImports, staticImports, type ImportGraph } from './import-cycles.ts';
import { ROOMS, ROOT, sourceFiles } from './source-files.ts';

/**
 * Imports flow one way: cli -> suites -> judge -> target -> {mock-host, reference-service} -> protocol -> spec
 * (DESIGN.md, CONTRIBUTING.md). This check keeps the rooms honest: each room may import only the
 * rooms listed here, and only through their index.ts.
 */
const ALLOWED: Record<string, string[]> = {
  spec: [],
  protocol: ['spec'],
  'mock-host': ['protocol', 'spec'],
  'reference-service': ['protocol', 'spec'],
  fixtures: ['protocol', 'spec'],
  reports: ['spec'],
  target: ['spec', 'protocol', 'reference-service'],
  judge: ['spec', 'protocol', 'mock-host', 'target', 'reports'],
  suites: ['spec', 'protocol', 'mock-host', 'reference-service', 'fixtures', 'reports', 'target', 'judge'],
  bench: ['spec', 'protocol', 'mock-host', 'reference-service', 'fixtures', 'suites', 'reports', 'target', 'judge'],
  cli: ['spec', 'protocol', 'mock-host', 'reference-service', 'fixtures', 'suites', 'reports', 'target', 'judge'],
};
/** Rooms whose public face is one index.ts; other rooms must not reach past it. */
const INDEXED = new Set(['spec', 'protocol', 'mock-host', 'reference-service']);
/**
 * Second entries kept apart from index.ts on purpose: spec/chromium.ts loads Playwright's browser
 * driver, which the library entries (`ccs-conformance/protocol`) must never pull in.
 */
const OTHER_ENTRIES = new Set([join('spec', 'chromium.ts')]);

function imports(source: string): string[] {
  const found: string[] = [];
  const re = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
  for (let m = re.exec(source); m; m = re.exec(source)) found.push(m[1]!);
  return found;
}

function roomOf(file: string): string | undefined {
  return relative(ROOT, file).split(sep)[0];
}

test('every room imports only the rooms below it, through their index.ts (layout)', () => {
  expect(Object.keys(ALLOWED).sort()).toEqual([...ROOMS].sort());
  const problems: string[] = [];
  for (const room of Object.keys(ALLOWED)) {
    let files: string[];
    try {
      files = sourceFiles(join(ROOT, room));
    } catch {
      continue;
    }
    for (const file of files) {
      // The harness's own tests may look inside the room they test.
      const selfTest = relative(ROOT, file).startsWith(join('suites', 'self'));
      for (const spec of imports(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec);
        const targetRoom = roomOf(target);
        if (!targetRoom || targetRoom === room) continue;
        const where = `${relative(ROOT, file)} imports ${spec}`;
        if (!(targetRoom in ALLOWED)) continue; // e.g. playwright.config.ts, package.json
        if (!ALLOWED[room]!.includes(targetRoom)) problems.push(`${where}: ${room} may not import ${targetRoom}`);
        else if (
          !selfTest &&
          INDEXED.has(targetRoom) &&
          relative(join(ROOT, targetRoom), target) !== 'index.ts' &&
          !OTHER_ENTRIES.has(relative(ROOT, target))
        )
          problems.push(`${where}: import ${targetRoom}/index.ts instead`);
      }
    }
  }
  expect(problems, problems.join('\n')).toEqual([]);
});

/**
 * Rooms the CLI and the library entries load without a test runner: no file they reach, through any
 * number of our own files, may import Playwright (spec/chromium.ts, the browser driver's own entry, aside).
 */
const NO_PLAYWRIGHT = ['spec', 'protocol', 'mock-host', 'reference-service', 'target', 'judge'];

function isPlaywright(spec: string): boolean {
  return spec.startsWith('@playwright/') || spec === 'playwright';
}

test('the judges, the target clients and the rooms below them reach no Playwright through any file (layout)', () => {
  // what runs: `import type` is erased, `import('...')` loads too
  const graph = importGraph(loadedImports);
  const runner = new Set<string>();
  for (const file of sourceFiles(ROOT)) {
    if (loadedImports(readFileSync(file, 'utf8')).some(isPlaywright)) runner.add(relative(ROOT, file));
  }
  const problems: string[] = [];
  for (const room of NO_PLAYWRIGHT) {
    for (const file of sourceFiles(join(ROOT, room))) {
      const from = relative(ROOT, file);
      if (OTHER_ENTRIES.has(from)) continue;
      const path = pathTo(graph, from, (f) => runner.has(f) && !OTHER_ENTRIES.has(f));
      if (path) problems.push(`${path.join(' -> ')} -> @playwright/test`);
    }
  }
  expect(problems, problems.join('\n')).toEqual([]);
});

test('the reach check follows imports through other files (layout)', () => {
  const graph = new Map([
    ['judge/a.ts', ['target/b.ts']],
    ['target/b.ts', ['target/c.ts']],
    ['target/c.ts', []],
  ]);
  expect(pathTo(graph, 'judge/a.ts', (f) => f === 'target/c.ts')).toEqual(['judge/a.ts', 'target/b.ts', 'target/c.ts']);
  expect(pathTo(graph, 'target/c.ts', (f) => f === 'judge/a.ts')).toBeUndefined();
});

/** The shortest chain of static imports from `from` to a file `hit` accepts, or undefined. */
function pathTo(graph: ImportGraph, from: string, hit: (file: string) => boolean): string[] | undefined {
  const previous = new Map<string, string | undefined>([[from, undefined]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    if (hit(file)) {
      const path: string[] = [];
      for (let f: string | undefined = file; f !== undefined; f = previous.get(f)) path.unshift(f);
      return path;
    }
    for (const next of graph.get(file) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

/** Our files and the files each imports (relative specifiers, resolved from the importing file). */
function importGraph(importsOf: (source: string) => string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT)) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(ROOT, resolve(dirname(file), spec)));
    graph.set(relative(ROOT, file), targets);
  }
  return graph;
}

test('no import cycle among our files, `import type`, re-exports and `import()` included (layout)', () => {
  const graph = importGraph((source) => [...staticImports(source), ...dynamicImports(source)]);
  expect(graph.size).toBeGreaterThan(300);
  const cycles = importCycles(graph).map((c) => c.join(' <-> '));
  expect(cycles, cycles.join('\n')).toEqual([]);
});

test('the cycle finder finds a seeded cycle, a self-import and a type-only loop, and passes a tree (layout)', () => {
  const a = `import { b } from './b.ts';\nexport const a = 1;\n`;
  const b = [
    `import type {\n  C,\n} from './c.ts';`,
    `export { x } from './x.ts';`,
    `const later = () => import('./a.ts');`,
  ].join('\n');
  const c = `export type { A } from './a.ts';\n`;
  expect(staticImports(a)).toEqual(['./b.ts']);
  // A run-time import() does not tie two files at load: it is no edge.
  expect(staticImports(b)).toEqual(['./c.ts', './x.ts']);
  expect(staticImports(c)).toEqual(['./a.ts']);
  // what a file loads when it runs: not the erased type imports, but import() too
  expect(loadedImports(b)).toEqual(['./x.ts', './a.ts']);
  expect(dynamicImports(b)).toEqual(['./a.ts']);
  const seeded = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts', 'x.ts']],
    ['c.ts', ['a.ts']],
    ['x.ts', []],
    ['self.ts', ['self.ts']],
  ]);
  expect(importCycles(seeded)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['self.ts']]);
  const tree = new Map([
    ['a.ts', ['b.ts', 'c.ts']],
    ['b.ts', ['c.ts', 'outside.ts']],
    ['c.ts', []],
  ]);
  expect(importCycles(tree)).toEqual([]);
});
