/**
 * The recipes of docs/recipes/ pass `ccs-conformance host` in every signing mode they support:
 * verdict pass, no MUST clause failed or blocked, and no SHOULD clause failed either. The same
 * recipe with its library used bare (RECIPE_BARE=1, what the recipe's page says not to do) fails
 * exactly the clauses the recipe explains, and its failure words, the summary and the command's
 * output carry the fault model's hint for it (spec/faults/host.yaml), whole, with the recipe's
 * file. One test per recipe page; its runs go at once (they mostly wait the harness's windows).
 */
import { test, expect } from '@playwright/test';
import { expectFailsOnlyItsPitfall, expectPasses, failedOrBlocked, type Bare } from './expect-recipe.ts';
import { pythonWithCryptography, recipeTitle, runRecipe, type RecipeName, type RecipeRun } from './run-recipe.ts';

test.describe.configure({ mode: 'parallel' });

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
