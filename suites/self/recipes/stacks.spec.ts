/**
 * The recipes for PHP, Go and Java pass `ccs-conformance host` of the packed package in every signing mode
 * they support, copied and built as their page says (stacks.ts), and each one's bare variant
 * (RECIPE_BARE=1: its stack's pitfall left in) fails exactly the clauses its page explains, naming the
 * pitfall with the fault model's hint and the page (expect-recipe.ts). One test per page; its runs go at once.
 */
import { test, expect } from '@playwright/test';
import { expectFailsOnlyItsPitfall, expectPasses, failedOrBlocked, type Bare } from './expect-recipe.ts';
import { recipeTitle, runRecipe, type RecipeRun } from './run-recipe.ts';
import { copiedAsThePageSays, missingToolchain, type Stack } from './stacks.ts';

test.describe.configure({ mode: 'parallel' });

const PAGES: Array<{ recipe: Stack; modes: Array<'hmac' | 'jwks'>; bare: Bare }> = [
  // The JWS's raw r||s handed to openssl_verify, which reads DER and answers -1 (an error) for it, taken as a
  // boolean: -1 is true, so a JWS signed by another key passes, on callbacks (HOST-7) and facts GETs (HOST-18).
  {
    recipe: 'php',
    modes: ['hmac', 'jwks'],
    bare: {
      mode: 'jwks',
      fails: ['HOST-7', 'HOST-18'],
      rows: [
        'HOST-7/openssl-error-as-match',
        'HOST-7/openssl-error-as-match-kid',
        'HOST-18/openssl-error-as-match',
        'HOST-18/openssl-error-as-match-kid',
      ],
    },
  },
  // A struct without json tags: encoding/json answers the facts under the Go field names (HOST-15).
  {
    recipe: 'go',
    modes: ['hmac', 'jwks'],
    bare: { mode: 'hmac', fails: ['HOST-15'], rows: ['HOST-15/untagged-fields'] },
  },
  // conversationId bound to an int: Gson refuses a payload whose conversationId is past 2^31 - 1 (HOST-26).
  {
    recipe: 'java',
    modes: ['hmac', 'jwks'],
    bare: {
      mode: 'jwks',
      fails: ['HOST-26'],
      rows: ['HOST-26/int32-conversation-id', 'HOST-26/value-classes'],
      mayBlock: {
        clauses: ['HOST-2'],
        why: 'values.spec.ts cites HOST-2 without timing its acknowledgements, and stops on the failed HOST-26',
      },
    },
  },
];

for (const page of PAGES) {
  const title =
    `docs/recipes/${page.recipe}.md, copied and built as the page says, passes the packaged ccs-conformance host in ` +
    `${page.modes.join(' and ')} mode, and its bare variant fails only ${page.bare.fails.join(' and ')}, naming the pitfall`;
  test(title, async () => {
    test.setTimeout(480_000);
    const missing = missingToolchain(page.recipe);
    expect(missing, missing).toBeUndefined();
    const { from, installSeconds, seconds } = await copiedAsThePageSays(page.recipe);
    const runs: RecipeRun[] = [
      ...page.modes.map((mode) => ({ recipe: page.recipe, mode })),
      { recipe: page.recipe, mode: page.bare.mode, bare: true },
    ];
    const results = await Promise.all(runs.map((run) => runRecipe(run, 2, from)));
    test.info().annotations.push({
      type: 'recipe copy',
      description: `${page.recipe}: package packed and installed in ${installSeconds.toFixed(1)} s, copied and built in ${seconds.toFixed(1)} s`,
    });
    for (const r of results) {
      test.info().annotations.push({
        type: 'recipe run',
        description: `${recipeTitle(r.run)}: ${r.report.verdict}, failed ${failedOrBlocked(r).join(', ') || 'nothing'}, ${r.seconds.toFixed(1)} s`,
      });
      if (r.run.bare) expectFailsOnlyItsPitfall(r, page.bare, from.cli.cwd);
      else expectPasses(r);
    }
  });
}
