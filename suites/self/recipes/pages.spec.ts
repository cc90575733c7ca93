/**
 * Each recipe page's "## Copy it" lines, run against the clone's docs/ laid out as the installed
 * package's (node_modules/ccs-conformance/docs), copy every file the receiver imports: a relative
 * import of a copied file resolves among the copies, and the start line names a copied file (or one a
 * build line makes from the copies). The package tests (suites/self/package/recipes.spec.ts, and
 * stacks.spec.ts for the built stacks) run the same lines for real, with the installs and builds; this one
 * says in a second which page is wrong.
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tempDir } from '../cli/helpers.ts';
import { filesUnder, ROOT } from '../package/tarball.ts';
import { copyInstruction, RECIPE_PAGES } from './pages.ts';

/** A line that installs from a registry (the package test's) or builds (stacks.spec.ts runs it): not run here. */
const INSTALL_OR_BUILD = /^(npm|pip|pip3|python3 -m pip|javac|go) |^\(cd \S+ && go build /;

/** The folder a build line runs in: `(cd DIR && ...)`, a subshell, so the user's shell stays where it is. */
const cdOf = (line: string): string | undefined => /^\(cd (\S+) && /.exec(line)?.[1];

/** What a build line makes: the path after -o (relative to its `cd`) or -d. */
function builtBy(line: string): string | undefined {
  const cd = cdOf(line) ?? '.';
  const out = /\s-[od]\s+([^\s)]+)/.exec(line)?.[1];
  return out === undefined ? undefined : join(cd, out);
}

/** The files and folders a start line names: its words with a slash, classpaths split at ':', absolute ones aside. */
function startedPaths(start: string[]): string[] {
  return start
    .flatMap((w, i) => (i > 0 && w.startsWith('-') ? [] : w.split(':')))
    .filter((w) => w.includes('/') && !w.startsWith('/'));
}

for (const recipe of RECIPE_PAGES) {
  test(`docs/recipes/${recipe}.md: its copy lines bring every file its receiver imports and starts`, () => {
    const project = tempDir('ccs-recipe-copy-');
    mkdirSync(join(project, 'node_modules', 'ccs-conformance'), { recursive: true });
    symlinkSync(join(ROOT, 'docs'), join(project, 'node_modules', 'ccs-conformance', 'docs'));
    const page = copyInstruction(join(ROOT, 'docs', 'recipes'), recipe);
    const built: string[] = [];
    for (const line of page.prepare) {
      if (INSTALL_OR_BUILD.test(line)) {
        const out = builtBy(line);
        if (out !== undefined) built.push(out);
        continue;
      }
      execFileSync('sh', ['-e', '-c', line], { cwd: project, stdio: 'pipe' });
    }
    const started = startedPaths(page.start);
    expect(started.length, `${recipe}.md's start line names its file: ${page.start.join(' ')}`).toBeGreaterThan(0);
    for (const file of started) {
      const made = built.some((b) => file === b || file.startsWith(`${b}/`));
      expect(made || existsSync(join(project, file)), `${recipe}.md starts ${file}`).toBe(true);
    }
    // A build reads what the copies brought: the folder it builds in, the sources it names.
    for (const line of page.prepare.filter((l) => INSTALL_OR_BUILD.test(l) && builtBy(l) !== undefined)) {
      const cd = cdOf(line);
      const sources = line.split(/\s+/).filter((w) => /\.(java|go)$/.test(w));
      if (cd !== undefined) expect(existsSync(join(project, cd)), `${recipe}.md builds in ${cd}`).toBe(true);
      for (const glob of sources) {
        const dir = join(project, dirname(glob));
        const ext = glob.slice(glob.lastIndexOf('.'));
        const found = existsSync(dir) && readdirSync(dir).some((n) => n.endsWith(ext));
        expect(found, `${recipe}.md builds ${glob}`).toBe(true);
      }
    }
    const unresolved: string[] = [];
    const copied = readdirSync(project)
      .filter((n) => n !== 'node_modules')
      .flatMap((n) => (statSync(join(project, n)).isDirectory() ? filesUnder(join(project, n), project) : [n]));
    for (const file of copied.filter((f) => /\.m?js$/.test(f))) {
      const text = readFileSync(join(project, file), 'utf8');
      for (const m of text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = resolve(project, dirname(file), (m[1] ?? m[2])!);
        if (!existsSync(target)) unresolved.push(`${file} imports ${m[1] ?? m[2]}`);
      }
    }
    expect(unresolved, `${recipe}.md: imports the copy lines do not bring`).toEqual([]);
  });
}
