/**
 * A failed check that a known library or a common mistake explains carries the fault model's hint
 * (spec/faults/*.yaml `hint`, `recipe`): the report keeps it per clause, and every human report
 * shows the sentence whole, never cut with the failure's words, with the recipe's file linked
 * from where the report is.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  assertValidReport,
  buildReport,
  renderHtml,
  renderJunit,
  renderSummary,
  writeReports,
} from '../../../reports/index.ts';
import { checkWords, type CheckRecord } from '../../../spec/index.ts';
import { CLAUSES, checkXml, t } from './helpers.ts';

const HINT =
  'The replay window has two sides (abs(now - t) > 300 is refused) and a popular verifier checks only the past one: add the future-side check.';
const RECIPE = 'docs/recipes/node-stripe.md';
const LONG_SEEN = `POST http://127.0.0.1:3000/hooks/ccs: 200 after 18 ms ${'x'.repeat(200)}`;

function failed(n: number): CheckRecord {
  return {
    clauses: ['FOO-1'],
    id: 'sig.t-future-301s',
    rule: `event ${n}: t at now + 301 s is refused`,
    outcome: 'failed',
    expected: 'refused (401)',
    seen: LONG_SEEN,
    hint: HINT,
    recipe: RECIPE,
  };
}

function report() {
  return buildReport({
    runId: 'r',
    startedAt: new Date().toISOString(),
    endedAt: new Date().toISOString(),
    targetDescription: 'synthetic',
    projects: ['service'],
    clauses: CLAUSES,
    tests: [
      t({ title: 'a', clauses: ['FOO-1'], status: 'failed', ok: false, checks: [failed(1), failed(2)] }),
      t({ title: 'b', clauses: ['FOO-2'] }),
    ],
  });
}

test('the words of a failed check end with its hint and the recipe that gives the remedy', () => {
  expect(checkWords(failed(1))).toMatch(
    new RegExp(`\\. Hint: ${HINT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(see docs/recipes/node-stripe\\.md\\)$`),
  );
});

test('a failed clause keeps each hint of its failed checks once, in a valid report', () => {
  const r = report();
  assertValidReport(r);
  expect(r.clauses.find((c) => c.id === 'FOO-1')?.hints).toEqual([{ hint: HINT, recipe: RECIPE }]);
  expect(r.clauses.find((c) => c.id === 'FOO-2')?.hints).toBeUndefined();
});

test("summary.md, junit.xml and clauses.html show the hint whole, and link the recipe from the report's folder", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-hints-'));
  try {
    const r = report();
    const lines = renderSummary(r, { dir }).split('\n');
    const at = lines.findIndex((l) => l.startsWith('- **FOO-1**'));
    // Under the clause: its check once with its count (what was seen, then where), then the hint, whole.
    expect(lines[at + 1]).toMatch(/^ {2}- FOO-1 event 1: t at now \+ 301 s is refused: failed 2 times, e\.g\. got /);
    expect(lines[at + 1]).toContain(`got 200 after 18 ms ${'x'.repeat(200)} (expected refused (401))`);
    expect(lines[at + 1]).toMatch(/ — at POST http:\/\/127\.0\.0\.1:3000\/hooks\/ccs$/);
    const line = lines[at + 2] ?? '';
    const link = /Hint: (.*) \(see \[docs\/recipes\/node-stripe\.md\]\(([^)]+)\)\)/.exec(line);
    expect(link?.[1]).toBe(HINT);
    expect(existsSync(resolve(dir, link?.[2] ?? 'missing')), `the link ${link?.[2]} reaches the recipe`).toBe(true);

    const junit = renderJunit(r);
    expect(checkXml(junit)).toEqual([]);
    expect(junit).toContain(`message="MUST clause FOO-1 failed. Hint: ${HINT.replace(/>/g, '&gt;')} (see ${RECIPE})"`);

    const html = renderHtml(r, { dir, areaTitles: {} });
    expect(html).toContain(`hint: ${HINT.replace(/>/g, '&gt;')}`);
    const href = /<a class="recipe" href="([^"]+)">docs\/recipes\/node-stripe\.md<\/a>/.exec(html)?.[1];
    expect(existsSync(resolve(dir, href ?? 'missing')), `the link ${href} reaches the recipe`).toBe(true);

    writeReports(r, dir);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(HINT);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
