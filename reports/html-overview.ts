/**
 * The top of the clause matrix: the verdict, then the counts per level and per area as stacked
 * bars (clauses of the run's sides only; the other side is one line). A bar's label filters the table.
 */
import type { ClauseRecord, ClauseStatus, ConformanceReport } from './model.ts';
import { htmlEscape } from './html-escape.ts';
import { describeDataApiForms } from '../spec/index.ts';
import { notInRunLines } from './render-summary.ts';
import { STATUS_LABEL } from './html-rows.ts';
import { runOnlyHints } from './hints.ts';
import { PARTLY, partlyClauses } from './exercised.ts';

export const BAR_STATUSES: ClauseStatus[] = ['failed', 'blocked', 'passed', 'not-exercised', 'unspecified'];

type Counts = Record<string, number> & { total: number };

function count(clauses: ClauseRecord[]): Counts {
  const c = { total: clauses.length } as Counts;
  for (const s of BAR_STATUSES) c[s] = clauses.filter((x) => x.status === s).length;
  return c;
}

function bar(filter: string, value: string, label: string, title: string, c: Counts, max: number): string {
  const segs = BAR_STATUSES.filter((s) => c[s]! > 0)
    .map(
      (s) =>
        `<span class="seg b-${s}" style="width:${((c[s]! / max) * 100).toFixed(2)}%" title="${c[s]} ${STATUS_LABEL[s]}"></span>`,
    )
    .join('');
  const failed = c.failed! > 0 ? ` <b class="s-failed">${c.failed} failed</b>` : '';
  const num = c.unspecified === c.total ? `${c.total} not shown` : `${c.passed}/${c.total} passed${failed}`;
  return (
    `<div class="bar-row"><button type="button" class="bar-label" data-filter="${filter}" data-value="${htmlEscape(value)}" title="${htmlEscape(title)}">${htmlEscape(label)}</button>` +
    `<div class="bar">${segs}</div><span class="bar-num">${num}</span></div>`
  );
}

export function overview(report: ConformanceReport, areaTitles: Record<string, string> = {}): string {
  const inRun = report.clauses.filter((c) => c.status !== 'not-in-run');
  const failedMust = inRun.filter((c) => c.level === 'MUST' && c.status === 'failed').length;
  const blockedMust = inRun.filter((c) => c.level === 'MUST' && c.status === 'blocked').length;
  const stale = report.staleExpectations.length;
  const why =
    report.verdict === 'pass'
      ? 'no MUST clause failed'
      : [
          failedMust > 0 ? `${failedMust} MUST clause${failedMust === 1 ? '' : 's'} failed` : '',
          blockedMust > 0 ? `${blockedMust} not decided (blocked)` : '',
          stale > 0 ? `${stale} stale expected failure${stale === 1 ? '' : 's'}` : '',
        ]
          .filter(Boolean)
          .join(', ');
  const levels = (['MUST', 'SHOULD', 'MAY', 'UNSPECIFIED'] as const)
    .map((l) => ({ l, c: count(inRun.filter((x) => x.level === l)) }))
    .filter((x) => x.c.total > 0);
  const areas = [...new Set(inRun.map((c) => c.area))].map((a) => ({ a, c: count(inRun.filter((x) => x.area === a)) }));
  const levelMax = Math.max(1, ...levels.map((x) => x.c.total));
  const areaMax = Math.max(1, ...areas.map((x) => x.c.total));
  const totals = BAR_STATUSES.map(
    (s) =>
      `<button type="button" class="total" data-filter="status" data-value="${s}"><span class="dot b-${s}"></span><b>${inRun.filter((c) => c.status === s).length}</b> ${STATUS_LABEL[s]}</button>`,
  ).join('');
  const partly = partlyClauses(inRun);
  // Passed, but a part of each was not exercised: said beside the counts, each row says what and why.
  const partlyNote =
    partly.length > 0
      ? `<p class="other-side partly-note">${partly.length} of the passed clauses ${PARTLY}: ${partly
          .map((c) => `<a href="#${htmlEscape(c.id)}">${htmlEscape(c.id)}</a>`)
          .join(', ')}</p>`
      : '';
  const other = notInRunLines(report)
    .map(
      (l) =>
        `<p class="other-side">${htmlEscape(l)} <button type="button" class="linkish" data-filter="side" data-value="all">show</button></p>`,
    )
    .join('');
  return `<header class="top">
<div class="verdict v-${report.verdict}"><span id="verdict">${report.verdict.toUpperCase()}</span><small>${htmlEscape(why)}</small></div>
<div class="run"><h1>Clause matrix <small>${htmlEscape(report.sides.join(' + '))} run</small></h1>
<p>Target: ${htmlEscape(report.target.description)} · run <code>${htmlEscape(report.runId)}</code> · ${htmlEscape(report.startedAt)} → ${htmlEscape(report.endedAt)}</p>
${
  runOnlyHints(report).length > 0
    ? `<ul class="hints">${runOnlyHints(report)
        .map((h) => `<li>Hint: ${htmlEscape(h.hint)} <small>(${htmlEscape(h.clauses.join(', '))})</small></li>`)
        .join('')}</ul>`
    : ''
}
${report.target.dataApi ? `<p class="forms">Data API forms (target <code>dataApi</code>; UNSPEC-8, UNSPEC-9): ${htmlEscape(describeDataApiForms(report.target.dataApi))}</p>` : ''}
<div class="totals">${totals}</div>${partlyNote}${other}</div>
</header>
<section class="charts">
<div class="chart"><h2>By level</h2><div class="rows">${levels.map((x) => bar('level', x.l, x.l, `${x.l} clauses`, x.c, levelMax)).join('')}</div>
<p class="legend">${BAR_STATUSES.map((st) => `<span><span class="dot b-${st}"></span>${STATUS_LABEL[st]}</span>`).join('')}</p>
<p class="hint">A label or a count filters the table.</p></div>
<div class="chart areas"><h2>By area</h2><div class="rows">${areas.map((x) => bar('area', x.a, x.a, areaTitles[x.a] ?? x.a, x.c, areaMax)).join('')}</div></div>
</section>`;
}
