/**
 * The clause matrix page (reports/out/clauses.html): the verdict and the counts per level and per
 * area as bars, filters by side, area, level and status (the run's own side selected), then one row
 * per clause, failed MUST clauses first, each linking to its contract section and its tests, its
 * evidence (with a timeline for timing clauses) rendered when expanded. One self-contained file:
 * opens from the file system with no server and makes no request.
 */
import type { ClauseStatus, ConformanceReport } from './model.ts';
import { htmlEscape } from './html-escape.ts';
import { STYLE, SCRIPT } from './html-assets.ts';
import { overview } from './html-overview.ts';
import { STATUS_LABEL, clauseRow, matrixOrder, testIndex, testsSection } from './html-rows.ts';
import { contractAreaTitles } from './load-clauses.ts';

export { htmlEscape } from './html-escape.ts';

const STATUSES: ClauseStatus[] = ['failed', 'blocked', 'passed', 'not-exercised', 'unspecified', 'not-in-run'];

function options(values: Array<[string, string]>, selected: string): string {
  return values
    .map(
      ([v, label]) =>
        `<option value="${htmlEscape(v)}"${v === selected ? ' selected' : ''}>${htmlEscape(label)}</option>`,
    )
    .join('');
}

export interface RenderHtmlOptions {
  /** Area titles for the area filter and bars; default the areas of spec/clauses.yaml. */
  areaTitles?: Record<string, string>;
  /** The folder the page is written to: links to the package's recipes are relative to it. */
  dir?: string;
}

export function renderHtml(report: ConformanceReport, opts: RenderHtmlOptions = {}): string {
  const areaTitles = opts.areaTitles ?? contractAreaTitles();
  const sides = [...new Set(report.clauses.map((c) => c.side))];
  // The run's own side by default; a run of several sides shows them all.
  const defaultSide = report.sides.length === 1 ? report.sides[0]! : 'all';
  const areas = [...new Set(report.clauses.map((c) => c.area))];
  const levels = [...new Set(report.clauses.map((c) => c.level))];
  const count = (s: ClauseStatus) => report.clauses.filter((c) => c.status === s).length;
  const tests = testIndex(report);
  const filters = `<div class="filters" role="search">
<label>Side<select id="side-filter">${options([['all', 'all sides'], ...sides.map((s): [string, string] => [s, `${s}${report.sides.includes(s) ? '' : ' (not in this run)'}`])], defaultSide)}</select></label>
<label>Area<select id="area-filter">${options([['all', 'all areas'], ...areas.map((a): [string, string] => [a, areaTitles[a] ? `${a}: ${areaTitles[a]}` : a])], 'all')}</select></label>
<label>Level<select id="level-filter">${options([['all', 'all levels'], ...levels.map((l): [string, string] => [l, l])], 'all')}</select></label>
<label>Status<select id="status-filter">${options([['all', 'all statuses'], ...STATUSES.filter((s) => count(s) > 0).map((s): [string, string] => [s, `${STATUS_LABEL[s]} (${count(s)})`])], 'all')}</select></label>
<label>Search<input id="q" type="search" placeholder="id or words"></label>
<span class="shown"><b id="shown"></b> of ${report.clauses.length} clauses shown</span></div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ccs-conformance: clause matrix (${report.verdict.toUpperCase()})</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<style>${STYLE}</style></head><body>
${overview(report, areaTitles)}
${filters}
<table id="matrix"><colgroup><col class="c-id"><col class="c-lv"><col class="c-st"><col class="c-rule"><col class="c-tests"></colgroup>
<thead><tr><th>clause</th><th>level</th><th>status</th><th>rule</th><th>tests</th></tr></thead>
<tbody>
${matrixOrder(report.clauses)
  .map((c) => clauseRow(c, tests, opts.dir))
  .join('\n')}
</tbody></table>
${testsSection(report)}
<script>${SCRIPT}</script>
</body></html>
`;
}
