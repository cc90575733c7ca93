/** Prints the gate's outcome (shared by `run` and `report --merge`). */
import { join, resolve } from 'node:path';
import type { ClauseRecord, ConformanceReport, GateOptions } from '../reports/index.ts';
import { applyGate, clauseCheckLines, isPartly, recipeLink, runOnlyHints } from '../reports/index.ts';

/**
 * The recipe's file from where the command ran (node_modules/ccs-conformance/docs/recipes/... in a project), else its
 * absolute path.
 */
function recipePath(recipe: string): string {
  const rel = recipeLink(recipe, process.cwd());
  return rel.startsWith('..') ? resolve(process.cwd(), rel) : rel;
}

/** Under a gate line of a failed clause, its failed checks: what was seen first, where second (failure-lines.ts). */
function seenLines(line: string, report: ConformanceReport): string {
  const id = /^(?:MUST|SHOULD|MAY) (\S+) failed: /.exec(line)?.[1];
  const c = id === undefined ? undefined : report.clauses.find((r) => r.id === id && r.status === 'failed');
  return c === undefined
    ? ''
    : clauseCheckLines(c)
        .map((l) => `  ${l}\n`)
        .join('');
}

export function printGate(report: ConformanceReport, reportDir: string, options: GateOptions): 0 | 1 | 2 {
  const gate = applyGate(report, options);
  for (const e of gate.harnessErrors) process.stderr.write(`error: harness defect (no verdict on the target): ${e}\n`);
  for (const w of gate.warnings) process.stderr.write(`warning: ${w}\n${seenLines(w, report)}`);
  // Passed, but a part not exercised (what and why): a note, or an error with --require-full on a MUST clause.
  for (const n of gate.notes) process.stderr.write(`note: ${n}\n`);
  for (const e of gate.errors) process.stderr.write(`error: ${e}\n${seenLines(e, report)}`);
  // What a known library or mistake explains, whole, with the recipe's path from where the command ran;
  // then the run's other hints (a target field to check, from a stopped precondition), each once.
  for (const c of report.clauses) {
    if (c.status !== 'failed') continue;
    for (const h of c.hints ?? [])
      process.stderr.write(`hint: ${c.id}: ${h.hint}${h.recipe ? ` (see ${recipePath(h.recipe)})` : ''}\n`);
  }
  for (const h of runOnlyHints(report)) process.stderr.write(`hint: ${h.hint} (${h.clauses.join(', ')})\n`);
  const t = report.totals;
  // A defect of the harness's own tests is never a PASS, nor the target's failure: FAIL with no verdict, exit 2.
  const verdict =
    gate.exitCode === 0 ? 'PASS' : gate.exitCode === 2 ? 'FAIL (harness defect, no verdict on the target)' : 'FAIL';
  const partly = report.clauses.filter(isPartly).length;
  const counts =
    `${t.passed} passed${partly > 0 ? ` (${partly} partly)` : ''}, ${t.failed} failed, ${t.blocked ?? 0} blocked, ` +
    `${t['not-exercised']} not exercised, ${t.unspecified} unspecified clauses`;
  process.stdout.write(
    `conformance ${verdict}: ${counts}\n` +
      `report: ${join(reportDir, 'summary.md')} · ${join(reportDir, 'clauses.html')} · ${join(reportDir, 'conformance.json')}\n`,
  );
  return gate.exitCode;
}

/** The --grep / --area selection as a clause predicate (for --require-all and --require-full). */
export function selection(greps: string[], areas: string[]): ((c: ClauseRecord) => boolean) | undefined {
  if (greps.length === 0 && areas.length === 0) return undefined;
  return (c) => greps.includes(c.id) || areas.includes(c.area);
}
