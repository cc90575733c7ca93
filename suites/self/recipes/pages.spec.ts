/**
 * Each recipe page's "## Copy it" lines, run against the clone's docs/ laid out as the installed
 * package's (node_modules/ccs-conformance/docs), copy every file the receiver imports: a relative
 * import of a copied file resolves among the copies, and the start line names a copied file. The
 * package test (suites/self/package/recipes.spec.ts) runs the same lines for real, with the installs;
 * this one says in a second which page is wrong.
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tempDir } from '../cli/helpers.ts';
import { filesUnder, ROOT } from '../package/tarball.ts';
import { copyInstruction, RECIPE_PAGES } from './pages.ts';

for (const recipe of RECIPE_PAGES) {
  test(`docs/recipes/${recipe}.md: its copy lines bring every file its receiver imports and starts`, () => {
    const project = tempDir('ccs-recipe-copy-');
    mkdirSync(join(project, 'node_modules', 'ccs-conformance'), { recursive: true });
    symlinkSync(join(ROOT, 'docs'), join(project, 'node_modules', 'ccs-conformance', 'docs'));
    const page = copyInstruction(join(ROOT, 'docs', 'recipes'), recipe);
    for (const line of page.prepare) {
      // Installs from a registry are the package test's; here only the copies are looked at.
      if (/^(npm|pip|pip3|python3 -m pip) /.test(line)) continue;
      execFileSync('sh', ['-e', '-c', line], { cwd: project, stdio: 'pipe' });
    }
    const started = page.start.filter((w, i) => i > 0 && !w.startsWith('-'));
    expect(started.length, `${recipe}.md's start line names its file: ${page.start.join(' ')}`).toBeGreaterThan(0);
    for (const file of started) expect(existsSync(join(project, file)), `${recipe}.md starts ${file}`).toBe(true);
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
