/**
 * The recipes of docs/recipes/ pass `ccs-conformance host` in every signing mode they support:
 * verdict pass, no MUST clause failed or blocked, and no SHOULD clause failed either. The same
 * recipe with its library used bare (RECIPE_BARE=1, what the recipe's page says not to do) fails
 * exactly the clauses the recipe explains, and its failure words, the summary and the command's
 * output carry the fault model's hint for it (spec/faults/host.yaml), whole, with the recipe's
 * file. One test per recipe page; its runs go at once (they mostly wait the harness's windows).
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { faultModelRow } from '../../../spec/index.ts';
import { ROOT } from '../package/tarball.ts';
import {
  pythonWithCryptography,
  recipeTitle,
  runRecipe,
  type RecipeName,
  type RecipeResult,
  type RecipeRun,
} from './run-recipe.ts';

test.describe.configure({ mode: 'parallel' });

interface Bare {
  mode: 'hmac' | 'jwks';
  /** Every clause the bare run fails (any level), and the fault-model rows whose hint explains them. */
  fails: string[];
  rows: string[];
}

const PAGES: Array<{ recipe: RecipeName; modes: Array<'hmac' | 'jwks'>; bare?: Bare }> = [
  { recipe: 'node-crypto', modes: ['hmac', 'jwks'] },
  // jose's createRemoteJWKSet with its defaults: a 30 s refetch cooldown (HOST-8).
  {
    recipe: 'node-jose',
    modes: ['jwks'],
    bare: { mode: 'jwks', fails: ['HOST-8'], rows: ['HOST-8/refetch-cooldown'] },
  },
  // stripe-node's verifyHeader alone: the window checked on the past side only, callbacks (HOST-6) and facts GETs
  // (HOST-18).
  {
    recipe: 'node-stripe',
    modes: ['hmac'],
    bare: { mode: 'hmac', fails: ['HOST-18', 'HOST-6'], rows: ['HOST-6/t-future-301s', 'HOST-18/t-future-301s'] },
  },
  { recipe: 'python', modes: ['hmac', 'jwks'] },
];

const failedOrBlocked = (r: RecipeResult, level?: string) =>
  r.report.clauses
    .filter((c) => (c.status === 'failed' || c.status === 'blocked') && (level === undefined || c.level === level))
    .map((c) => `${c.id} ${c.status}`);

function expectPasses(r: RecipeResult): void {
  const what = `${recipeTitle(r.run)} (${r.seconds.toFixed(0)} s)\n${r.output.slice(-3000)}\nreceiver:\n${r.receiverLog.slice(-2000)}`;
  expect.soft(failedOrBlocked(r), `${what}\n: no clause failed or blocked`).toEqual([]);
  expect.soft(r.report.verdict, what).toBe('pass');
  expect.soft(r.code, what).toBe(0);
}

function expectFailsOnlyItsPitfall(r: RecipeResult, bare: Bare): void {
  const what = `${recipeTitle(r.run)} (${r.seconds.toFixed(0)} s)\n${r.output.slice(-3000)}`;
  const failed = r.report.clauses
    .filter((c) => c.status === 'failed')
    .map((c) => c.id)
    .sort();
  expect.soft(failed, `${what}\n: the clauses the recipe explains, and no other`).toEqual([...bare.fails].sort());
  expect
    .soft(
      failedOrBlocked(r).filter((c) => c.endsWith('blocked')),
      what,
    )
    .toEqual([]);
  expect.soft(r.code, `${what}\n: a failed MUST clause fails the run`).toBe(1);
  const page = readFileSync(join(ROOT, 'docs', 'recipes', `${r.run.recipe}.md`), 'utf8');
  for (const id of bare.rows) {
    const row = faultModelRow('host', id);
    const clause = r.report.clauses.find((c) => c.id === row.clause);
    expect.soft(row.recipe, `${id} names this recipe`).toBe(`docs/recipes/${r.run.recipe}.md`);
    expect
      .soft(clause?.hints, `${row.clause} carries the hint of ${id}`)
      .toContainEqual({ hint: row.hint, recipe: row.recipe });
    expect
      .soft(
        clause?.failures?.every((f) => f.error.includes(`Hint: ${row.hint} (see ${row.recipe})`)),
        `every failure of ${row.clause} names the pitfall`,
      )
      .toBe(true);
    expect
      .soft(r.summary, `summary.md shows the hint of ${id} whole, with its recipe`)
      .toContain(`Hint: ${row.hint} (see [${row.recipe}](`);
    expect
      .soft(r.output, `the command prints the hint of ${id} and where its recipe is`)
      .toContain(`hint: ${row.clause}: ${row.hint} (see ${join(ROOT, row.recipe!)})`);
  }
  // The page quotes what the report prints for its clause of a callback.
  const first = faultModelRow('host', bare.rows[0]!);
  expect
    .soft(page.replace(/\s+/g, ' '), `${r.run.recipe}.md quotes the hint`)
    .toContain(`Hint: ${first.hint} (see ${first.recipe})`);
}

for (const page of PAGES) {
  const modes = page.modes.join(' and ');
  const title = page.bare
    ? `docs/recipes/${page.recipe}.md passes ccs-conformance host in ${modes} mode, and the library used bare fails only ${page.bare.fails.join(' and ')}, naming the pitfall`
    : `docs/recipes/${page.recipe}.md passes ccs-conformance host in ${modes} mode`;
  test(title, async () => {
    test.setTimeout(420_000);
    if (page.recipe === 'python')
      expect(
        pythonWithCryptography(),
        'the python recipe needs python3 with cryptography (Debian: python3-cryptography; .ci/run installs it)',
      ).toBeDefined();
    const runs: RecipeRun[] = [
      ...page.modes.map((mode) => ({ recipe: page.recipe, mode })),
      ...(page.bare ? [{ recipe: page.recipe, mode: page.bare.mode, bare: true }] : []),
    ];
    const results = await Promise.all(runs.map((run) => runRecipe(run)));
    for (const r of results) {
      test.info().annotations.push({
        type: 'recipe run',
        description: `${recipeTitle(r.run)}: ${r.report.verdict}, failed ${failedOrBlocked(r).join(', ') || 'nothing'}, ${r.seconds.toFixed(1)} s`,
      });
      if (r.run.bare) expectFailsOnlyItsPitfall(r, page.bare!);
      else expectPasses(r);
    }
  });
}
