/**
 * The clause matrix page (reports/out/clauses.html, issue 7 item 1): one row per clause with
 * level, status, tests, evidence and a link to the contract section. One self-contained file:
 * opens from the file system with no server; a status filter; a clause's evidence in
 * <details> so a failed clause's evidence opens with a click.
 */
import type { ClauseRecord, ClauseStatus, ConformanceReport } from './model.ts';
import { sectionLink } from './contract-sections.ts';

const STATUSES: ClauseStatus[] = ['failed', 'passed', 'not-exercised', 'unspecified'];

export function htmlEscape(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function pre(value: unknown): string {
  return `<pre>${htmlEscape(typeof value === 'string' ? value : JSON.stringify(value, null, 2))}</pre>`;
}

function evidenceCell(c: ClauseRecord): string {
  const parts: string[] = [];
  for (const f of c.failures ?? []) parts.push(`<h4>${htmlEscape(f.test)}</h4>${pre(f.error)}`);
  if (c.staleExpectation) parts.push(`<p class="stale">stale expected failure: ${htmlEscape(c.staleExpectation.reason)}</p>`);
  if (c.expectedFailure) parts.push(`<p class="expected">expected failure: ${htmlEscape(c.expectedFailure.reason)}</p>`);
  for (const e of c.evidence) {
    parts.push(`<p class="sentence">${htmlEscape(e.sentence)}</p>`);
    for (const r of e.requests ?? []) parts.push(pre(r.curl ?? `${r.method ?? ''} ${r.url ?? ''} -> ${r.status ?? ''}`));
    if (e.entries && e.entries.length > 0) parts.push(`<h4>journal entries</h4>${pre(e.entries)}`);
  }
  if (c.reproduction) {
    const r = c.reproduction;
    parts.push(`<h4>reproduce</h4>${pre(r.command)}`);
    if (r.seed !== undefined) parts.push(`<p>fast-check seed ${htmlEscape(r.seed)}${r.path !== undefined ? `, path ${htmlEscape(r.path)}` : ''}</p>`);
  }
  for (const n of c.notExercisedReasons ?? []) parts.push(`<p class="reason">${htmlEscape(n)}</p>`);
  if (parts.length === 0) return '';
  const label = c.status === 'failed' ? 'evidence of the failure' : 'evidence';
  return `<details class="evidence"><summary>${label}</summary>${parts.join('')}</details>`;
}

function row(c: ClauseRecord): string {
  const tests = c.tests.map((t) => `<li class="t-${htmlEscape(t.status)}">${htmlEscape(t.title)} <small>(${htmlEscape(t.project)})</small></li>`).join('');
  const mark = c.expectedFailure ? ' <small>(expected failure)</small>' : '';
  return `<tr class="clause" id="${htmlEscape(c.id)}" data-status="${c.status}" data-level="${c.level}">
<td class="id">${htmlEscape(c.id)}</td><td class="level">${c.level}</td><td class="status s-${c.status}">${c.status}${mark}</td>
<td class="text">${htmlEscape(c.text)}<br><a class="section" href="${htmlEscape(sectionLink(c.section))}">§${htmlEscape(c.section)}</a> <small>${htmlEscape(c.side)}</small></td>
<td class="tests"><ul>${tests}</ul></td><td class="ev">${evidenceCell(c)}</td></tr>`;
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
.s-passed{color:#176f2c}.s-failed{color:#b00020;font-weight:bold}.s-not-exercised{color:#8a6d00}.s-unspecified{color:#666}
pre{white-space:pre-wrap;background:#f6f6f6;padding:4px;max-width:60em}ul{margin:0;padding-left:1.1em}
.verdict-pass{color:#176f2c}.verdict-fail{color:#b00020}tr[hidden]{display:none}`;

// Plain DOM script: no framework, no network (the page opens from file://).
const SCRIPT = `(function(){var sel=document.getElementById('status-filter');
function apply(){var v=sel.value,n=0;document.querySelectorAll('tr.clause').forEach(function(r){var show=v==='all'||r.getAttribute('data-status')===v;r.hidden=!show;if(show)n++;});
document.getElementById('shown').textContent=String(n);}
sel.addEventListener('change',apply);apply();})();`;

export function renderHtml(report: ConformanceReport): string {
  const options = ['all', ...STATUSES].map((s) => `<option value="${s}">${s === 'all' ? 'all statuses' : `${s} (${report.totals[s as ClauseStatus]})`}</option>`).join('');
  // Failed clauses first, then the contract's order.
  const order = [...report.clauses].sort((a, b) => Number(b.status === 'failed') - Number(a.status === 'failed'));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ccs-conformance: clause matrix</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<style>${STYLE}</style></head><body>
<h1>Clause matrix: <span id="verdict" class="verdict-${report.verdict}">${report.verdict.toUpperCase()}</span></h1>
<p>Target: ${htmlEscape(report.target.description)} · run ${htmlEscape(report.runId)} · ${htmlEscape(report.startedAt)} → ${htmlEscape(report.endedAt)}</p>
<p><label>Status <select id="status-filter">${options}</select></label> · <span id="shown"></span> clauses shown</p>
<table id="matrix"><thead><tr><th>clause</th><th>level</th><th>status</th><th>rule</th><th>tests</th><th>evidence</th></tr></thead>
<tbody>
${order.map(row).join('\n')}
</tbody></table>
<script>${SCRIPT}</script>
</body></html>
`;
}
