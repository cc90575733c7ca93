/**
 * The recipes as a host team gets them: from the installed package, copied and installed exactly as
 * each page's "## Copy it" section says (suites/self/recipes/pages.ts reads it), started with the
 * page's own start line, and judged by `npx ccs-conformance host` run from the user's project.
 * The clone's recipe test (suites/self/recipes/) covers every mode and the bare variants; here each
 * page's copy instruction is run and its receiver passes a signing mode, so a page that names a file
 * or an import the copy does not bring fails the test command.
 */
import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { copyInstruction } from '../recipes/pages.ts';
import { pythonWithCryptography, recipeTitle, runRecipe } from '../recipes/run-recipe.ts';
import type { RecipeName, RecipeResult } from '../recipes/run-recipe.ts';
import { userProject } from './installed.ts';
import { exec } from './tarball.ts';

test.describe.configure({ mode: 'serial' });

/** One run per page, in the mode that page is about; both modes once each among them. */
const RUNS: Array<{ recipe: RecipeName; mode: 'hmac' | 'jwks' }> = [
  { recipe: 'node-crypto', mode: 'hmac' },
  { recipe: 'node-jose', mode: 'jwks' },
  { recipe: 'node-stripe', mode: 'hmac' },
  { recipe: 'python', mode: 'jwks' },
];

function failedOrBlocked(r: RecipeResult): string[] {
  return r.report.clauses
    .filter((c) => c.status === 'failed' || c.status === 'blocked')
    .map((c) => `${c.id} ${c.status}`);
}

for (const { recipe, mode } of RUNS) {
  test(`docs/recipes/${recipe}.md, copied as the page says, passes the packaged host run in ${mode} mode`, async () => {
    test.setTimeout(480_000);
    const user = await userProject();
    const docs = join(user.installed, 'docs', 'recipes');
    const page = copyInstruction(docs, recipe);
    const prepared = performance.now();
    for (const line of page.prepare) {
      const r = await exec('sh', ['-e', '-c', line], { cwd: user.project, env: user.env, deadlineMs: 120_000 });
      expect(r.code, `${recipe}.md: \`${line}\` exits 0\n${r.stdout}\n${r.stderr}`).toBe(0);
    }
    const [command, ...args] = page.start;
    // The page starts python3; where that one lacks cryptography, Debian's (what .ci/run installs) runs it.
    const start = command === 'python3' ? (pythonWithCryptography() ?? command) : command!;
    for (const file of args.filter((a) => !a.startsWith('-'))) {
      expect(existsSync(join(user.project, file)), `${recipe}.md starts ${file}, which its copy lines made`).toBe(true);
    }
    const prepareSeconds = (performance.now() - prepared) / 1000;
    const from = {
      receiver: { command: start, args, cwd: user.project },
      cli: { command: 'npx', args: ['ccs-conformance'], cwd: user.project },
      env: user.env,
    };
    const r = await runRecipe({ recipe, mode }, 2, from);
    test.info().annotations.push({
      type: 'recipe run',
      description:
        `${recipeTitle(r.run)}: copy ${prepareSeconds.toFixed(1)} s, ` +
        `host ${r.seconds.toFixed(1)} s, ${r.report.verdict}`,
    });
    const what =
      `${recipeTitle(r.run)} (${r.seconds.toFixed(0)} s)\n${r.output.slice(-3000)}` +
      `\nreceiver:\n${r.receiverLog.slice(-2000)}`;
    expect.soft(failedOrBlocked(r), `${what}\n: no clause failed or blocked`).toEqual([]);
    expect.soft(r.report.verdict, what).toBe('pass');
    expect.soft(r.code, what).toBe(0);
  });
}
