/**
 * The clause matrix's inline style and script: the page opens from file:// with no server and makes
 * no request (its Content-Security-Policy forbids any), so both live in the page itself.
 */
export const STYLE = `
:root{--pass:#1a7f37;--fail:#cf222e;--nx:#d4a72c;--blk:#8250df;--un:#afb8c1;--nir:#eaeef2;--ink:#1f2328;--mute:#656d76;--line:#d0d7de;--bg:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);margin:0;padding:20px 24px;background:#fff}
h1{font-size:22px;margin:0 0 4px}h1 small{font-size:14px;color:var(--mute);font-weight:500;margin-left:6px}h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--mute);margin:0 0 8px}
p{margin:4px 0}code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.top{display:flex;gap:20px;align-items:stretch;margin-bottom:16px}
.verdict{min-width:150px;border-radius:10px;color:#fff;display:flex;flex-direction:column;justify-content:center;align-items:center;padding:12px 18px;text-align:center}
.verdict span{font-size:34px;font-weight:800;letter-spacing:.06em}.verdict small{font-size:12px;opacity:.95}.v-pass{background:var(--pass)}.v-fail{background:var(--fail)}
.run{flex:1}.totals{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}
button{font:inherit;color:inherit;cursor:pointer}
.total{border:1px solid var(--line);background:#fff;border-radius:999px;padding:3px 12px}.total:hover,.bar-label:hover{border-color:var(--accent)}
.dot{display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:6px}
.other-side{color:var(--mute);margin-top:8px}.linkish{border:0;background:none;color:var(--accent);padding:0}
.charts{display:grid;grid-template-columns:minmax(260px,1fr) minmax(360px,2fr);gap:16px;margin-bottom:16px}
.chart{border:1px solid var(--line);border-radius:8px;padding:12px 14px;background:#fff}
.areas .rows{display:grid;grid-template-columns:1fr 1fr;column-gap:20px}
.bar-row{display:grid;grid-template-columns:100px 1fr 150px;align-items:center;gap:8px;margin:3px 0}
.bar-label{border:1px solid transparent;background:none;text-align:left;padding:1px 4px;border-radius:4px;font-weight:600;font-size:12px}
.bar{display:flex;height:14px;background:var(--bg);border-radius:3px;overflow:hidden}.seg{height:100%}
.bar-num{font-size:12px;color:var(--mute);white-space:nowrap}
.legend{display:flex;flex-wrap:wrap;gap:14px;margin-top:14px;font-size:12px;color:var(--mute)}.hint{font-size:12px;color:var(--mute)}
.b-passed{background:var(--pass)}.b-failed{background:var(--fail)}.b-blocked{background:var(--blk)}.b-not-exercised{background:var(--nx)}.b-unspecified{background:var(--un)}.b-not-in-run{background:var(--nir)}
.filters{position:sticky;top:0;z-index:2;background:#fff;display:flex;flex-wrap:wrap;gap:10px;align-items:center;padding:10px 0;border-bottom:1px solid var(--line)}
.filters label{font-size:12px;color:var(--mute);display:flex;flex-direction:column;gap:2px}
select,input[type=search]{font:inherit;font-size:13px;padding:4px 6px;border:1px solid var(--line);border-radius:6px;background:#fff;color:var(--ink)}
.shown{margin-left:auto;color:var(--mute)}
table{border-collapse:collapse;width:100%}#matrix{table-layout:fixed}.c-id{width:96px}.c-lv{width:104px}.c-st{width:128px}.c-rule{width:52%}
tr.clause.has-ev td{border-bottom:0;padding-bottom:2px}tr.ev-row td{padding-top:0}th{position:sticky;top:52px;background:var(--bg);font-size:12px;color:var(--mute);font-weight:600}
td,th{border-bottom:1px solid var(--line);padding:7px 8px;vertical-align:top;text-align:left}
tr.clause:target{background:#fff8c5}tr[hidden]{display:none}
td.id{white-space:nowrap;font-weight:600}.meta{font-size:12px;color:var(--mute);margin-top:2px}
.st,.lv,.badge{display:inline-block;border-radius:999px;padding:0 8px;font-size:12px;font-weight:600;white-space:nowrap}
.s-passed{background:#dafbe1;color:var(--pass)}.s-failed{background:#ffebe9;color:var(--fail)}.s-blocked{background:#fbefff;color:var(--blk)}.s-not-exercised{background:#fff8c5;color:#7d4e00}
.s-partly{background:#f0f9ed;border:1px dashed var(--pass)}.why.partly{color:var(--pass)}
.s-unspecified{background:var(--bg);color:var(--mute)}.s-not-in-run{background:var(--bg);color:var(--mute)}
b.s-failed{background:none}.lv{background:var(--bg);color:var(--ink);font-weight:500}.lv-MUST{background:#ddf4ff;color:#0550ae}
.tl-badge{background:#ddf4ff;color:#0550ae;margin-left:4px}
ul{margin:0;padding-left:1.1em}td.tests{font-size:12px}.t-failed a,.t-failed,.t-timedOut{color:var(--fail)}.t-skipped{color:var(--mute)}
details.evidence>summary{cursor:pointer;color:var(--accent);white-space:nowrap;font-size:13px}details.evidence[open]{padding-bottom:6px}
details.sub>summary,details.reading>summary{cursor:pointer;color:var(--mute);font-size:12px}
pre{white-space:pre-wrap;word-break:break-word;background:var(--bg);border-radius:6px;padding:6px 8px;max-width:70em;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;margin:4px 0}
.failure h4,h4{margin:8px 0 2px;font-size:13px}.sentence{font-weight:500}.why{color:#7d4e00;font-size:12px;margin-top:2px}.hint-line{color:var(--ink);background:#fff6d6;padding:2px 4px;border-radius:3px}.stale{color:var(--fail)}.expected{color:var(--mute)}
figure.tl{margin:8px 0;padding:8px;border:1px solid var(--line);border-radius:8px;background:#fff;max-width:920px}
svg.timeline{display:block;max-width:100%;height:auto;font:11px system-ui,sans-serif}
.tl-grid{stroke:#eaeef2}.tl-tick{fill:var(--mute);text-anchor:middle}.tl-lane{fill:#f6f8fa}.tl-label{fill:var(--ink);font-weight:600}
.tl-band{fill:rgba(9,105,218,.13);stroke:rgba(9,105,218,.55);stroke-dasharray:3 2}.tl-fail .tl-band{fill:rgba(207,34,46,.10);stroke:rgba(207,34,46,.6)}
.tl-expected{stroke:var(--accent);stroke-width:1.5}.tl-gap{stroke:var(--mute);stroke-dasharray:2 3}.tl-about{fill:#0550ae;text-anchor:middle;font-size:10px}
.tl-attempt rect{fill:#8c959f}.tl-ok rect{fill:var(--pass)}.tl-err rect{fill:#e5534b}.tl-status{fill:var(--ink);font-size:11px}
path.tl-mark.tl-pass{fill:var(--pass)}path.tl-mark.tl-fail{fill:var(--fail)}
.tl-verdicts{list-style:none;padding:0;margin:6px 0 0;font-size:12px}li.tl-pass{color:var(--pass)}li.tl-fail{color:var(--fail);font-weight:600}.tl-scale{font-size:11px;color:var(--mute)}
.tests-table td{font-size:13px}.num{text-align:right;white-space:nowrap}tr:target{background:#fff8c5}
@media (max-width:900px){.charts{grid-template-columns:1fr}.top{flex-direction:column}}
`;

/**
 * Plain DOM script: filters (side, area, level, status, text) on data attributes, the URL hash
 * keeping them, and lazy evidence: a <details>' <template> is cloned in the first time it opens.
 */
export const SCRIPT = `(function(){
var ids=['side','area','level','status'],sel={};ids.forEach(function(k){sel[k]=document.getElementById(k+'-filter');});
var q=document.getElementById('q'),rows=[].slice.call(document.querySelectorAll('tr.clause')),shown=document.getElementById('shown');
function apply(){var n=0,text=q.value.trim().toLowerCase();rows.forEach(function(r){var ok=ids.every(function(k){var v=sel[k].value;return v==='all'||r.getAttribute('data-'+k)===v;});
if(ok&&text){ok=r.textContent.toLowerCase().indexOf(text)>=0;}r.hidden=!ok;var ev=r.nextElementSibling;if(ev&&ev.classList.contains('ev-row'))ev.hidden=!ok;if(ok)n++;});shown.textContent=String(n);}
ids.forEach(function(k){sel[k].addEventListener('change',apply);});q.addEventListener('input',apply);
document.querySelectorAll('[data-filter]').forEach(function(b){b.addEventListener('click',function(){var k=b.getAttribute('data-filter'),v=b.getAttribute('data-value'),s=sel[k];
if(!s)return;s.value=(s.value===v&&k!=='side')?'all':v;apply();document.getElementById('matrix').scrollIntoView({block:'start'});});});
function open(d){var t=d.querySelector(':scope>template');if(t){d.appendChild(t.content.cloneNode(true));t.remove();}}
document.addEventListener('toggle',function(e){var d=e.target;if(d&&d.tagName==='DETAILS'&&d.open)open(d);},true);
function reveal(){var id=decodeURIComponent(location.hash.slice(1));var r=id&&document.getElementById(id);if(r&&r.classList.contains('clause')&&r.hidden){ids.forEach(function(k){sel[k].value='all';});q.value='';apply();r.scrollIntoView();}}
var fh=document.querySelector('.filters').offsetHeight;document.querySelectorAll('th').forEach(function(th){th.style.top=fh+'px';});
window.addEventListener('hashchange',reveal);apply();reveal();
})();`;
