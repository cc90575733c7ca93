/**
 * The hints of a failed clause (a known library or a common mistake, from the fault models) as the
 * human reports show them: the sentence whole, never cut, and a link to the recipe that gives the
 * remedy, a file the package ships (docs/recipes/...), relative to the folder the report is in.
 */
import { relative, sep } from 'node:path';
import { hintWords, packageDocPath } from '../spec/index.ts';
import type { ClauseRecord, ConformanceReport } from './model.ts';

export type Hint = NonNullable<ClauseRecord['hints']>[number];

/** The recipe's path from `fromDir` (where a report or a shell is), or as the package names it when not found. */
export function recipeLink(recipe: string, fromDir?: string): string {
  const file = packageDocPath(recipe);
  if (file === undefined || fromDir === undefined) return recipe;
  return relative(fromDir, file).split(sep).join('/');
}

/** The words of a failure without its hints (each is shown once, whole, beside it). */
export function withoutHints(error: string, hints: readonly Hint[] = []): string {
  let out = error;
  for (const h of hints) out = out.split(`. Hint: ${hintWords(h.hint, h.recipe)}`).join('');
  return out;
}

/**
 * The run's hints that no failed clause shows on its own line (a field of the target to check,
 * from a stopped precondition): each said once, after the failures.
 */
export function runOnlyHints(report: ConformanceReport): NonNullable<ConformanceReport['hints']> {
  const onLines = new Set(
    report.clauses.filter((c) => c.status === 'failed').flatMap((c) => (c.hints ?? []).map((h) => h.hint)),
  );
  return (report.hints ?? []).filter((h) => !onLines.has(h.hint));
}
