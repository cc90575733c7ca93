/**
 * junit.xml: one test case per clause of the run's sides (suite "clauses") and one per test (suite
 * "tests"), so CI test views show clauses. The clauses of a side the run did not
 * test are one skipped test case ("25 host clauses: not in this run"), not one each. A clause that passed
 * only partly passes, saying so in its system-out: "passed (partly): 3 of 4 exercised; not seen: ...".
 */
import type { ConformanceReport } from './model.ts';
import { notInRunLines } from './render-summary.ts';
import { hintWords } from '../spec/index.ts';
import { PARTLY, isPartly, partlyWords } from './exercised.ts';

export function xmlEscape(s: string): string {
  // Characters XML 1.0 forbids (control characters but tab, LF, CR) are dropped: error text may hold ANSI escapes.
  return s
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function renderJunit(report: ConformanceReport): string {
  const lines: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const clauses = report.clauses.filter((c) => c.status !== 'not-in-run');
  const other = notInRunLines(report);
  const clauseCases = clauses.length + other.length;
  const clauseFailures = report.clauses.filter((c) => c.status === 'failed').length;
  // A blocked clause is an <error> (not decided), never a second <failure>.
  const clauseErrors = report.clauses.filter((c) => c.status === 'blocked').length;
  const clauseSkipped =
    clauses.filter((c) => c.status === 'not-exercised' || c.status === 'unspecified').length + other.length;
  const testFailures = report.tests.filter((t) => !t.ok && t.status !== 'skipped' && t.status !== 'not-run').length;
  const testSkipped = report.tests.filter((t) => t.status === 'skipped' || t.status === 'not-run').length;
  lines.push(
    `<testsuites name="ccs-conformance" tests="${clauseCases + report.tests.length}" failures="${clauseFailures + testFailures}">`,
  );

  lines.push(
    `  <testsuite name="clauses" tests="${clauseCases}" failures="${clauseFailures}" errors="${clauseErrors}" skipped="${clauseSkipped}" timestamp="${xmlEscape(report.startedAt)}">`,
  );
  for (const c of clauses) {
    const name = xmlEscape(`${c.id} [${c.level}] ${c.text}`);
    const open = `    <testcase classname="clauses.${xmlEscape(c.area)}" name="${name}" time="0"`;
    if (c.status === 'failed') {
      // The hints first and whole: what a known library or mistake explains, and the recipe's file in the package.
      const hints = (c.hints ?? []).map((h) => `Hint: ${hintWords(h.hint, h.recipe)}`);
      const msg = [...hints, ...(c.failures ?? []).map((f) => `${f.test}: ${f.error}`)].join('\n\n');
      const repro = c.reproduction ? `\n\nreproduce: ${c.reproduction.command}` : '';
      const headline = `${c.level} clause ${c.id} failed${hints.length > 0 ? `. ${hints[0]}` : ''}`;
      // A failed SHOULD clause warns without failing the gate; it is still a failure in CI views.
      lines.push(
        `${open}>`,
        `      <failure message="${xmlEscape(headline)}" type="${c.level}">${xmlEscape(msg + repro)}</failure>`,
        '    </testcase>',
      );
    } else if (c.status === 'blocked') {
      const why = (c.blockedReasons ?? []).join('\n');
      lines.push(
        `${open}>`,
        `      <error message="${xmlEscape(`${c.level} clause ${c.id} not decided (blocked)`)}" type="blocked">${xmlEscape(why)}</error>`,
        '    </testcase>',
      );
    } else if (c.status === 'not-exercised' || c.status === 'unspecified') {
      const why =
        c.status === 'unspecified'
          ? 'the contract marks this "not shown": never asserted'
          : (c.notExercisedReasons ?? []).join('; ');
      lines.push(`${open}>`, `      <skipped message="${xmlEscape(`${c.status}: ${why}`)}"/>`, '    </testcase>');
    } else {
      const out = c.expectedFailure
        ? `expected failure: ${c.expectedFailure.reason}`
        : isPartly(c)
          ? `${PARTLY}: ${partlyWords(c)}`
          : undefined;
      const note = out !== undefined ? `\n      <system-out>${xmlEscape(out)}</system-out>\n    </testcase>` : '';
      lines.push(note ? `${open}>${note}` : `${open}/>`);
    }
  }
  for (const line of other) {
    lines.push(
      `    <testcase classname="clauses.not-in-run" name="${xmlEscape(line)}" time="0">`,
      `      <skipped message="${xmlEscape(line)}"/>`,
      '    </testcase>',
    );
  }
  lines.push('  </testsuite>');

  lines.push(
    `  <testsuite name="tests" tests="${report.tests.length}" failures="${testFailures}" skipped="${testSkipped}">`,
  );
  for (const t of report.tests) {
    const open = `    <testcase classname="${xmlEscape(`${t.project}.${t.file}`)}" name="${xmlEscape(t.title)}" time="${(t.durationMs / 1000).toFixed(3)}"`;
    if (t.status === 'skipped' || t.status === 'not-run') lines.push(`${open}>`, `      <skipped/>`, '    </testcase>');
    else if (!t.ok)
      lines.push(
        `${open}>`,
        `      <failure message="${xmlEscape(`test ${t.status}`)}">${xmlEscape(t.errors.join('\n\n'))}</failure>`,
        '    </testcase>',
      );
    else lines.push(`${open}/>`);
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
