/** Prints the gate's outcome (shared by `run` and `report --merge`). */
import { join, resolve } from 'node:path';
import type { ClauseRecord, ConformanceReport, GateOptions } from '../reports/index.ts';
import { applyGate, recipeLink, runOnlyHints } from '../reports/index.ts';

/** The recipe's file from where the command ran (node_modules/ccs-conformance/docs/recipes/... in a project), else its absolute path. */
function recipePath(recipe: string): string {
  const rel = recipeLink(recipe, process.cwd());
  return rel.startsWith('..') ? resolve(process.cwd(), rel) : rel;
}

export function printGate(report: ConformanceReport, reportDir: string, options: GateOptions): 0 | 1 {
  const gate = applyGate(report, options);
  for (const w of gate.warnings) process.stderr.write(`warning: ${w}\n`);
  for (const e of gate.errors) process.stderr.write(`error: ${e}\n`);
  // What a known library or mistake explains, whole, with the recipe's path from where the command ran;
  // then the run's other hints (a target field to check, from a stopped precondition), each once.
  for (const c of report.clauses) {
    if (c.status !== 'failed') continue;
    for (const h of c.hints ?? []) process.stderr.write(`hint: ${c.id}: ${h.hint}${h.recipe ? ` (see ${recipePath(h.recipe)})` : ''}\n`);
  }
  for (const h of runOnlyHints(report)) process.stderr.write(`hint: ${h.hint} (${h.clauses.join(', ')})\n`);
  const t = report.totals;
  process.stdout.write(
    `conformance ${gate.exitCode === 0 ? 'PASS' : 'FAIL'}: ${t.passed} passed, ${t.failed} failed, ${t.blocked ?? 0} blocked, ${t['not-exercised']} not exercised, ${t.unspecified} unspecified clauses\n`
    + `report: ${join(reportDir, 'summary.md')} · ${join(reportDir, 'clauses.html')} · ${join(reportDir, 'conformance.json')}\n`,
  );
  return gate.exitCode;
}

/** The --grep / --area selection as a clause predicate (for --require-all). */
export function selection(greps: string[], areas: string[]): ((c: ClauseRecord) => boolean) | undefined {
  if (greps.length === 0 && areas.length === 0) return undefined;
  return (c) => greps.includes(c.id) || areas.includes(c.area);
}
