/**
 * summary.md: short enough for a pull-request comment or a CI step summary:
 * verdict, counts by level and status, failed MUST clauses first, then failed SHOULD clauses as
 * warnings, each with one line per failed check (what was seen first, the request second, a check
 * that failed 12 times once with its count: failure-lines.ts), then the clauses that passed only partly
 * (a part not exercised, with what and why: exercised.ts), then the clauses not exercised with their
 * reasons. Only the clauses of the run's sides are counted; the other side's clauses get one line
 * ("25 host clauses: not in this run").
 */
import type { ClauseLevel, ClauseRecord, ClauseStatus, ConformanceReport } from './model.ts';
import { describeDataApiForms } from '../spec/index.ts';
import { recipeLink, runOnlyHints } from './hints.ts';
import { clauseCheckLines, seenFirst } from './failure-lines.ts';
import { PARTLY, partlyClauses, partlyWords } from './exercised.ts';

/** Where the summary is written: recipe links are relative to it. */
export interface SummaryOptions {
  dir?: string;
}

const LEVELS: ClauseLevel[] = ['MUST', 'SHOULD', 'MAY', 'UNSPECIFIED'];
const STATUSES: ClauseStatus[] = ['passed', 'failed', 'blocked', 'not-exercised', 'unspecified'];

/** "25 host clauses: not in this run", one line per side the run did not test. */
export function notInRunLines(report: ConformanceReport): string[] {
  const bySide = new Map<string, number>();
  for (const c of report.clauses) if (c.status === 'not-in-run') bySide.set(c.side, (bySide.get(c.side) ?? 0) + 1);
  return [...bySide].map(([side, n]) => `${n} ${side} clause${n === 1 ? '' : 's'}: not in this run`);
}

function oneLine(s: string, max = 160): string {
  const flat = s
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function md(s: string): string {
  return s.replace(/\|/g, '\\|');
}

/** The hints whole (never cut), each with a link to its recipe. */
function hintLines(c: ClauseRecord, o: SummaryOptions): string[] {
  return (c.hints ?? []).map((h) => {
    const see = h.recipe ? ` (see [${h.recipe}](${recipeLink(h.recipe, o.dir)}))` : '';
    return `  - Hint: ${md(oneLine(h.hint, Infinity))}${see}`;
  });
}

/**
 * A failed clause: its line, then one line per failed check (the rule, what was seen, where; a check
 * failed many times once with its count), then its hints.
 */
function failedLines(
  c: ClauseRecord,
  faults: Array<{ name: string; clause: string }> = [],
  o: SummaryOptions = {},
): string[] {
  const fault = faults.filter((f) => f.clause === c.id).map((f) => f.name);
  const repro = c.reproduction ? ` — rerun: \`${c.reproduction.command}\`` : '';
  const mark = fault.length > 0 ? ` _(broken by seeded fault ${fault.join(', ')})_` : '';
  const head = `- **${c.id}**${mark} (§${c.section}) ${md(c.text)}`;
  const stale = c.staleExpectation;
  if (stale) return [`${head} — stale expected failure (${md(stale.reason)}): it passes now`];
  return [`${head}${repro}`, ...clauseCheckLines(c).map((l) => `  - ${md(l)}`), ...hintLines(c, o)];
}

/** "- HOST-5, HOST-6: no test citing this clause ran": the clauses not exercised, grouped by their reason. */
export function notExercisedLines(report: ConformanceReport): string[] {
  const byReason = new Map<string, string[]>();
  for (const c of report.clauses) {
    if (c.status !== 'not-exercised') continue;
    const reason = (c.notExercisedReasons ?? []).join('; ') || 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), c.id]);
  }
  return [...byReason].map(([reason, ids]) => `- ${ids.join(', ')}: ${md(oneLine(reason, Infinity))}`);
}

/**
 * '- **SIGN-9** [MUST] (§5.3) <rule> — passed (partly), 3 of 4 exercised; not seen: <reason>, in "<test>"': the
 * clauses that passed without every part of them exercised, what was not seen and why, whole.
 */
export function partlyLines(report: ConformanceReport): string[] {
  return partlyClauses(report.clauses).map(
    (c) =>
      `- **${c.id}** [${c.level}] (§${c.section}) ${md(c.text)} — ${PARTLY}, ${md(oneLine(partlyWords(c), Infinity))}`,
  );
}

export function renderSummary(report: ConformanceReport, o: SummaryOptions = {}): string {
  // With seeded faults on, the clauses they break lead (the point of the run); then the contract's order.
  const faultClauses = new Set((report.seededFaults ?? []).map((f) => f.clause));
  const failedMust = report.clauses
    .filter((c) => c.level === 'MUST' && c.status === 'failed')
    .sort((a, b) => Number(faultClauses.has(b.id)) - Number(faultClauses.has(a.id)));
  const staleOther = report.clauses.filter((c) => c.level !== 'MUST' && c.staleExpectation);
  const failedShould = report.clauses.filter(
    (c) => c.level === 'SHOULD' && c.status === 'failed' && !c.staleExpectation,
  );
  const expected = report.clauses.filter((c) => c.expectedFailure);
  const blocked = report.clauses.filter((c) => c.status === 'blocked' && c.level !== 'UNSPECIFIED');
  const out: string[] = [];
  const harness = report.harnessErrors ?? [];
  const failed = harness.length > 0 ? 'FAIL (harness defect, no verdict)' : 'FAIL';
  const verdict = report.verdict === 'pass' ? 'PASS' : failed;
  out.push(`# Conformance: ${verdict}`, '');
  if (harness.length > 0) {
    // Said first: the clause verdicts below may rest on tests that cite clauses wrongly.
    out.push("## Harness defect: the run's own tests cite clauses wrongly", '');
    for (const e of harness) out.push(`- ${md(oneLine(e, Infinity))}`);
    out.push('');
  }
  if (failedMust.length > 0 || staleOther.length > 0) {
    out.push('## Failed MUST clauses', '');
    for (const c of [...failedMust, ...staleOther]) out.push(...failedLines(c, report.seededFaults, o));
    out.push('');
  }
  // The run's other hints (a field of the target to check, from a stopped precondition), said once: a
  // failed clause's own hints are shown whole on its line above.
  const runHints = runOnlyHints(report);
  if (runHints.length > 0) {
    out.push('## Hints', '');
    for (const h of runHints) out.push(`- ${md(h.hint)} (${h.clauses.join(', ')})`);
    out.push('');
  }
  for (const c of report.coverage ?? []) {
    out.push(`## Coverage: ${md(c.test.replace(/\s*\([^)]*\)$/, ''))}`, '', ...c.lines.map((l) => `- ${md(l)}`), '');
  }
  out.push(
    `Target: ${md(report.target.description)} · ${report.sides.join(' and ')} run ${report.runId} · ${report.startedAt} → ${report.endedAt}`,
    '',
  );
  if (report.target.dataApi)
    out.push(
      `Data API forms (target \`dataApi\`; the contract leaves them open, UNSPEC-8, UNSPEC-9): ${md(describeDataApiForms(report.target.dataApi))}`,
      '',
    );
  if (report.versions)
    out.push(
      `Harness ccs-conformance ${md(report.versions.harness)} · clause catalogue version ${md(report.versions.clauses)}`,
      '',
    );
  out.push(`| level | ${STATUSES.join(' | ')} |`, `|---|${STATUSES.map(() => '---:').join('|')}|`);
  for (const l of LEVELS) out.push(`| ${l} | ${STATUSES.map((s) => report.totals.byLevel[l][s]).join(' | ')} |`);
  out.push(`| **all** | ${STATUSES.map((s) => `**${report.totals[s]}**`).join(' | ')} |`, '');
  const other = notInRunLines(report);
  if (other.length > 0) out.push(other.join(' · '), '');
  const partly = partlyLines(report);
  if (partly.length > 0) {
    const n = partly.length;
    const which = n === 1 ? '1 passed clause passed' : `${n} passed clauses passed`;
    out.push(`${which} only partly: a part not exercised (see "Passed partly").`, '');
  }
  if (blocked.length > 0) {
    // Not failures: the tests that would decide them stopped first. A blocked MUST clause still keeps the run from
    // passing.
    out.push('## Not decided (blocked)', '');
    for (const c of blocked) {
      // What stopped the test, the observation before the request (never cut to fit a URL).
      const why = (c.blockedReasons ?? []).map((r) => oneLine(seenFirst(r), 600)).join('; ') || 'blocked';
      out.push(`- **${c.id}** [${c.level}] (§${c.section}) ${md(c.text)} — ${md(why)}`);
    }
    out.push('');
  }
  if (failedShould.length > 0) {
    out.push('## Warnings: failed SHOULD clauses', '');
    for (const c of failedShould) out.push(...failedLines(c, [], o));
    out.push('');
  }
  if (partly.length > 0) {
    // Still passed (the verdict keeps its meaning), but a part of each was not seen: what, and why.
    out.push('## Passed partly (a part not exercised)', '', ...partly, '');
  }
  const notExercised = notExercisedLines(report);
  if (notExercised.length > 0) {
    out.push('## Not exercised', '');
    out.push(...notExercised, '');
  }
  if (expected.length > 0) {
    out.push('## Expected failures (from the expected-outcomes file)', '');
    for (const c of expected) out.push(`- ${c.id}: ${md(c.expectedFailure?.reason ?? '')}`);
    out.push('');
  }
  return out.join('\n');
}
