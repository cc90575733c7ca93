/**
 * What a recipe's run must show: a recipe passes (verdict pass, no clause failed or blocked, exit 0), and
 * its bare variant (RECIPE_BARE=1) fails exactly the clauses its page explains, each failure naming the
 * pitfall: the fault model's hint (spec/faults/host.yaml) whole, with the recipe's page, in the failure's
 * words, the summary and the command's output, and quoted by the page itself.
 */
import { expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { faultModelRow } from '../../../spec/index.ts';
import { ROOT } from '../package/tarball.ts';
import { recipeTitle, type RecipeResult } from './run-recipe.ts';

export interface Bare {
  mode: 'hmac' | 'jwks';
  /** Every clause the bare run fails (any level), and the fault-model rows whose hint explains them. */
  fails: string[];
  rows: string[];
  /**
   * Clauses the bare run may leave blocked, and why: a test that cites one without a check of it and stops
   * on the failure leaves it undecided (the harness's attribution, not the receiver's doing).
   */
  mayBlock?: { clauses: string[]; why: string };
}

export const failedOrBlocked = (r: RecipeResult, level?: string): string[] =>
  r.report.clauses
    .filter((c) => (c.status === 'failed' || c.status === 'blocked') && (level === undefined || c.level === level))
    .map((c) => `${c.id} ${c.status}`);

/** The failed checks of a run, each with what it saw: a flake under load reads here as the check and its timing. */
const failedChecks = (r: RecipeResult): string =>
  r.report.clauses
    .flatMap((c) => (c.failedChecks ?? []).map((f) => `${c.id} ${f.id ?? ''}: ${f.rule}: ${f.seen.slice(0, 300)}`))
    .join('\n');

export function expectPasses(r: RecipeResult): void {
  const what =
    `${recipeTitle(r.run)} (${r.seconds.toFixed(0)} s)\n${failedChecks(r)}\n${r.output.slice(-3000)}\n` +
    `receiver:\n${r.receiverLog.slice(-2000)}`;
  expect.soft(failedOrBlocked(r), `${what}\n: no clause failed or blocked`).toEqual([]);
  expect.soft(r.report.verdict, what).toBe('pass');
  expect.soft(r.code, what).toBe(0);
}

/** The text as written, a regular expression of it. */
const literally = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `cliCwd`: where the command ran, which a relative recipe path it prints is relative to (an installed package's
 * command prints node_modules/ccs-conformance/docs/recipes/...; the clone's, the absolute path).
 */
export function expectFailsOnlyItsPitfall(r: RecipeResult, bare: Bare, cliCwd = ROOT): void {
  const what = `${recipeTitle(r.run)} (${r.seconds.toFixed(0)} s)\n${r.output.slice(-3000)}`;
  const failed = r.report.clauses
    .filter((c) => c.status === 'failed')
    .map((c) => c.id)
    .sort();
  expect.soft(failed, `${what}\n: the clauses the recipe explains, and no other`).toEqual([...bare.fails].sort());
  const mayBlock = new Set(bare.mayBlock?.clauses ?? []);
  expect
    .soft(
      r.report.clauses.filter((c) => c.status === 'blocked' && !mayBlock.has(c.id)).map((c) => c.id),
      `${what}\n: no clause blocked${bare.mayBlock ? ` but ${bare.mayBlock.clauses.join(', ')} (${bare.mayBlock.why})` : ''}`,
    )
    .toEqual([]);
  expect.soft(r.code, `${what}\n: a failed MUST clause fails the run`).toBe(1);
  const page = readFileSync(join(ROOT, 'docs', 'recipes', `${r.run.recipe}.md`), 'utf8');
  const rows = bare.rows.map((id) => ({ id, row: faultModelRow('host', id) }));
  for (const { id, row } of rows) {
    const clause = r.report.clauses.find((c) => c.id === row.clause);
    expect.soft(row.recipe, `${id} names this recipe`).toBe(`docs/recipes/${r.run.recipe}.md`);
    expect
      .soft(clause?.hints, `${row.clause} carries the hint of ${id}`)
      .toContainEqual({ hint: row.hint, recipe: row.recipe });
    // Markdown escapes a | of the hint (r||s) as \|.
    expect
      .soft(r.summary.replace(/\\\|/g, '|'), `summary.md shows the hint of ${id} whole, with its recipe`)
      .toContain(`Hint: ${row.hint} (see [${row.recipe}](`);
    const printed = new RegExp(
      `hint: ${literally(`${row.clause}: ${row.hint}`)} \\(see (\\S*${literally(row.recipe!)})\\)`,
    );
    const path = printed.exec(r.output)?.[1];
    expect.soft(path, `the command prints the hint of ${id} and where its recipe is`).toBeDefined();
    if (path !== undefined) expect.soft(existsSync(resolve(cliCwd, path)), `${path} is the recipe's file`).toBe(true);
  }
  // Every failure of a clause the bare run fails names the pitfall: the hint of one of its rows on that clause.
  for (const id of bare.fails) {
    const hints = rows.filter((x) => x.row.clause === id).map((x) => `Hint: ${x.row.hint} (see ${x.row.recipe})`);
    const unexplained = (r.report.clauses.find((c) => c.id === id)?.failures ?? []).filter(
      (f) => !hints.some((h) => f.error.includes(h)),
    );
    expect
      .soft(
        unexplained.map((f) => f.error.slice(0, 300)),
        `every failure of ${id} names the pitfall`,
      )
      .toEqual([]);
  }
  // The page quotes what the report prints for its clause of a callback.
  const first = rows[0]!.row;
  expect
    .soft(page.replace(/\s+/g, ' '), `${r.run.recipe}.md quotes the hint`)
    .toContain(`Hint: ${first.hint} (see ${first.recipe})`);
}
