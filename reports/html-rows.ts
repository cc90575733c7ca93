/**
 * The clause matrix's rows and its test list. A clause's evidence is rendered into a <template>
 * inside its <details>: inert until expanded (the page script clones it on toggle), so a report of
 * thousands of evidence entries opens without laying them all out.
 */
import type { ClauseRecord, ConformanceReport, Evidence, TimelineSpec } from './model.ts';
import { sectionLink } from './contract-sections.ts';
import { htmlEscape, textEscape } from './html-escape.ts';
import { renderTimeline } from './render-timeline.ts';
import { recipeLink } from './hints.ts';
import { PARTLY, fractionWords, isPartly, notSeenGroups } from './exercised.ts';

export const STATUS_LABEL: Record<string, string> = {
  passed: 'passed',
  failed: 'failed',
  blocked: 'blocked (not decided)',
  'not-exercised': 'not exercised',
  unspecified: 'unspecified',
  'not-in-run': 'not in this run',
};

function pre(value: unknown): string {
  return `<pre>${textEscape(typeof value === 'string' ? value : JSON.stringify(value, null, 2))}</pre>`;
}

/** The evidence's entries, once each (the service suites' evidence repeats an entry every time a wait saw it). */
function uniqueEntries(entries: unknown[] | undefined): unknown[] {
  const seen = new Set<unknown>();
  return (entries ?? []).filter((e) => {
    const seq = e && typeof e === 'object' ? (e as { seq?: unknown }).seq : undefined;
    if (seq === undefined) return true;
    if (seen.has(seq)) return false;
    seen.add(seq);
    return true;
  });
}

/**
 * Timeline parts of one evidence: its own (entries + timeline) and those of its items. An item that
 * states the expected windows before the attempts arrive has no entries: it is drawn against the
 * evidence's entries, so a missing attempt still shows as a window with nothing in it.
 */
export function timelinesOf(e: Evidence): Array<{ entries: unknown[]; timeline: TimelineSpec }> {
  const parts: Array<{ entries: unknown[]; timeline: TimelineSpec }> = [];
  if (e.timeline && Array.isArray(e.timeline.windows))
    parts.push({ entries: uniqueEntries(e.entries), timeline: e.timeline });
  for (const item of Array.isArray(e.items) ? e.items : []) {
    if (!item || typeof item !== 'object' || !item.timeline || !Array.isArray(item.timeline.windows)) continue;
    parts.push({
      entries: uniqueEntries(item.entries && item.entries.length > 0 ? item.entries : e.entries),
      timeline: item.timeline,
    });
  }
  return parts;
}

function evidenceHtml(e: Evidence): string {
  const parts: string[] = [`<p class="sentence">${htmlEscape(e.sentence)}</p>`];
  for (const tl of timelinesOf(e)) parts.push(renderTimeline(tl.entries, tl.timeline));
  const requests = e.requests ?? [];
  if (requests.length > 0) {
    parts.push(
      `<details class="sub"><summary>requests (${requests.length})</summary>${requests.map((r) => pre(r.curl ?? `${r.method ?? ''} ${r.url ?? ''} -> ${r.status ?? ''}`)).join('')}</details>`,
    );
  }
  // One line per entry: compact for thousands of entries, and one entry reads as one line.
  if (e.entries && e.entries.length > 0)
    parts.push(
      `<details class="sub"><summary>journal entries (${e.entries.length})</summary>${pre(e.entries.map((x) => JSON.stringify(x)).join('\n'))}</details>`,
    );
  return parts.join('');
}

function evidenceBody(c: ClauseRecord): string {
  const parts: string[] = [];
  for (const f of c.failures ?? [])
    parts.push(`<div class="failure"><h4>${htmlEscape(f.test)}</h4>${pre(f.error)}</div>`);
  if (c.staleExpectation)
    parts.push(`<p class="stale">stale expected failure: ${htmlEscape(c.staleExpectation.reason)}</p>`);
  if (c.expectedFailure)
    parts.push(`<p class="expected">expected failure: ${htmlEscape(c.expectedFailure.reason)}</p>`);
  for (const e of c.evidence) parts.push(evidenceHtml(e));
  if (c.reproduction) {
    const r = c.reproduction;
    parts.push(`<h4>reproduce</h4>${pre(r.command)}`);
    if (r.seed !== undefined)
      parts.push(
        `<p>fast-check seed ${htmlEscape(r.seed)}${r.path !== undefined ? `, path ${htmlEscape(r.path)}` : ''}</p>`,
      );
  }
  return parts.join('');
}

function evidenceCell(c: ClauseRecord): string {
  const body = evidenceBody(c);
  if (body === '') return '';
  const timelines = c.evidence.reduce((n, e) => n + timelinesOf(e).length, 0);
  const label = c.status === 'failed' ? 'evidence of the failure' : 'evidence';
  const badge = timelines > 0 ? ` <span class="badge tl-badge">timeline</span>` : '';
  return `<details class="evidence"><summary>${label}${badge}</summary><template>${body}</template></details>`;
}

/** Index of each test in report.tests, to link a clause to its tests (title, project and file identify one). */
export function testIndex(report: ConformanceReport): Map<string, number> {
  return new Map(report.tests.map((t, i) => [`${t.project}\u0000${t.file}\u0000${t.title}`, i]));
}

/** A failed clause's hints, whole, each linking its recipe (relative to the page's folder `dir`). */
function hintLines(c: ClauseRecord, dir: string | undefined): string {
  return (c.hints ?? [])
    .map(
      (h) =>
        `<div class="why hint-line">hint: ${htmlEscape(h.hint)}${
          h.recipe
            ? ` (see <a class="recipe" href="${htmlEscape(recipeLink(h.recipe, dir))}">${htmlEscape(h.recipe)}</a>)`
            : ''
        }</div>`,
    )
    .join('');
}

/** "contract §5.2", a link to the section only where CCS_CONTRACT_URL says where the contract is. */
function sectionRef(section: string): string {
  const href = sectionLink(section);
  const words = `contract §${htmlEscape(section)}`;
  if (href === undefined) return `<span class="section">${words}</span>`;
  return `<a class="section" href="${htmlEscape(href)}">${words}</a>`;
}

export function clauseRow(c: ClauseRecord, tests: Map<string, number>, dir?: string): string {
  const testItems = c.tests
    .map((t) => {
      const i = tests.get(`${t.project}\u0000${t.file}\u0000${t.title}`);
      const title = htmlEscape(t.title);
      return `<li class="t-${htmlEscape(t.status)}">${i !== undefined ? `<a href="#test-${i}">${title}</a>` : title} <small>(${htmlEscape(t.project)})</small></li>`;
    })
    .join('');
  const mark = c.expectedFailure ? ' <small>(expected failure)</small>' : '';
  const partly = isPartly(c) && c.exercised !== undefined ? c.exercised : undefined;
  // A clause that passed only partly reads so, with what was not seen and why; its status (the filter's) stays passed.
  const status = partly
    ? `<span class="st s-passed s-partly" title="${htmlEscape(fractionWords(partly))}">${PARTLY}</span>`
    : `<span class="st s-${c.status}">${STATUS_LABEL[c.status] ?? c.status}</span>`;
  const reading = c.reading
    ? `<details class="reading"><summary>reading</summary><p>${htmlEscape(c.reading)}</p></details>`
    : '';
  const evidence = evidenceCell(c);
  // Why a clause was not exercised is short and wanted at a glance: in the row, not behind a click.
  const why =
    hintLines(c, dir) +
    [
      ...(partly ? [`<div class="why partly">${PARTLY}: ${htmlEscape(fractionWords(partly))}</div>`] : []),
      ...(partly ? notSeenGroups(partly) : []).map((n) => `<div class="why">not seen: ${htmlEscape(n)}</div>`),
      ...(c.notExercisedReasons ?? []).map((n) => `<div class="why">not exercised: ${htmlEscape(n)}</div>`),
      ...(c.blockedReasons ?? []).map((n) => `<div class="why">${htmlEscape(n)}</div>`),
      ...(c.warnings ?? []).map((n) => `<div class="why">warning: ${htmlEscape(n)}</div>`),
    ].join('');
  const meta = `${sectionRef(c.section)} · ${htmlEscape(c.side)}`;
  // The evidence gets a row of its own under the clause, the table's full width (timelines need it).
  return `<tr class="clause${evidence ? ' has-ev' : ''}" id="${htmlEscape(c.id)}" data-status="${c.status}"${partly ? ' data-partly="1"' : ''} data-level="${c.level}" data-area="${htmlEscape(c.area)}" data-side="${htmlEscape(c.side)}">
<td class="id"><a href="#${htmlEscape(c.id)}">${htmlEscape(c.id)}</a></td><td><span class="lv lv-${c.level}">${c.level}</span></td><td>${status}${mark}</td>
<td class="text">${htmlEscape(c.text)}<div class="meta">${meta}</div>${why}${reading}</td>
<td class="tests"><ul>${testItems}</ul></td></tr>${evidence ? `\n<tr class="ev-row" data-for="${htmlEscape(c.id)}"><td></td><td colspan="4" class="ev">${evidence}</td></tr>` : ''}`;
}

/** Failed MUST clauses first, then the other failed ones, then the blocked ones, then the contract's order. */
export function matrixOrder(clauses: ClauseRecord[]): ClauseRecord[] {
  const rank = (c: ClauseRecord) =>
    c.status === 'failed' ? (c.level === 'MUST' ? 0 : 1) : c.status === 'blocked' ? 2 : 3;
  return clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map((x) => x.c);
}

export function testsSection(report: ConformanceReport): string {
  if (report.tests.length === 0) return '';
  const rows = report.tests
    .map(
      (t, i) =>
        `<tr id="test-${i}"><td><span class="st s-${t.ok ? (t.status === 'passed' ? 'passed' : 'not-exercised') : 'failed'}">${htmlEscape(t.status)}</span></td>` +
        `<td>${htmlEscape(t.title)}</td><td>${htmlEscape(t.project)}</td><td><code>${htmlEscape(t.file)}:${t.line}</code></td>` +
        `<td class="num">${(t.durationMs / 1000).toFixed(1)} s</td><td>${t.clauses.map((id) => `<a href="#${htmlEscape(id)}">${htmlEscape(id)}</a>`).join(' ')}</td></tr>`,
    )
    .join('\n');
  return `<h2 id="tests">Tests (${report.tests.length})</h2><table class="tests-table"><thead><tr><th>status</th><th>test</th><th>project</th><th>file</th><th>time</th><th>clauses</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}
