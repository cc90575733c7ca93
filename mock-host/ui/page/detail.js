// The selected delivery: its timeline against the contract's windows, then one card per attempt
// with what the host knows of it: raw bytes, headers as received, signature verdict and reason,
// schema verdict, header checks, the scripted step that answered, the answer itself, and the
// actions (copy as curl, replay to the forward target).
import { h, clock, fmtMs, bytesOf, textOf, hexDump, getJson, toast } from './dom.js';
import { timeline, gaps } from './timeline.js';

export async function renderDetail(pane, group, config) {
  const entries = await Promise.all(
    group.attempts.map((a) => getJson(`/__admin/entries/${encodeURIComponent(a.id)}`).catch(() => undefined)),
  );
  const width = Math.max(420, pane.clientWidth - 48);
  const g = gaps(group);
  pane.replaceChildren(
    h(
      'div',
      { class: 'detail-head' },
      h(
        'div',
        { class: 'title' },
        h('span', {
          class: `event ev-${(group.event ?? 'none').replace(/[^a-zA-Z]/g, '')}`,
          text: group.event ?? 'no event',
        }),
        h('span', { class: 'mono big', text: group.deliveryId ?? `request #${group.attempts[0].seq}` }),
      ),
      h(
        'div',
        { class: 'muted' },
        group.endUserHandle ? `endUserHandle ${group.endUserHandle} · ` : '',
        `${group.count} attempt${group.count === 1 ? '' : 's'}`,
        g.length ? ` · gaps ${g.map(fmtMs).join(', ')} (end of one attempt to the start of the next)` : '',
        group.event === 'onComplete'
          ? ` · windows scaled by ${config.timeScale}${config.timeScaleKnown ? '' : ' (time scale not known: 1)'}`
          : '',
      ),
    ),
    h('div', { class: 'chart' }, timeline(group, config.timeScale, { width, compact: false })),
    ...entries.map((r, i) =>
      r
        ? card(r, i, group, config)
        : h('div', { class: 'card muted', text: `attempt ${i + 1}: no longer in the journal` }),
    ),
  );
}

function section(title, ...body) {
  return h('section', { class: 'sec' }, h('h4', { text: title }), ...body);
}

function verdictRow(label, ok, value, reason) {
  return h(
    'div',
    { class: `verdict ${ok === true ? 'good' : ok === false ? 'bad' : 'neutral'}` },
    h('span', { class: 'v-label', text: label }),
    h('span', { class: 'v-value', text: value }),
    reason ? h('span', { class: 'v-reason', text: reason }) : null,
  );
}

function bodyView(base64, size, sha) {
  const bytes = bytesOf(base64);
  if (bytes.length === 0) return h('div', { class: 'muted', text: 'no body' });
  const text = textOf(bytes);
  let pretty;
  if (text !== undefined) {
    try {
      pretty = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      pretty = undefined;
    }
  }
  const raw = h('pre', { class: 'raw body-raw', text: text ?? hexDump(bytes) });
  const meta = h(
    'div',
    { class: 'muted small' },
    `${size ?? bytes.length} bytes${sha ? ` · sha256 ${sha.slice(0, 16)}…` : ''}${text === undefined ? ' · not UTF-8, shown as hex' : ' · raw bytes as UTF-8'}`,
  );
  if (pretty === undefined || pretty === text) return h('div', {}, meta, raw);
  return h(
    'div',
    {},
    meta,
    raw,
    h(
      'details',
      {},
      h('summary', { text: 'parsed JSON (for reading; the signature covers the raw bytes above)' }),
      h('pre', { class: 'raw', text: pretty }),
    ),
  );
}

function headersTable(raw) {
  const rows = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    rows.push(h('tr', {}, h('th', { text: raw[i] }), h('td', { class: 'mono', text: raw[i + 1] })));
  return h('table', { class: 'headers' }, h('tbody', {}, rows));
}

function card(r, i, group, config) {
  const e = r.entry;
  const a = group.attempts[i];
  const dur = e.finished ? Number(BigInt(e.finished.monoNs) - BigInt(e.arrival.monoNs)) / 1e6 : undefined;
  const answer = e.response?.fault
    ? `${e.response.fault}${e.response.status !== undefined ? ` then ${e.response.status}` : ''}`
    : (e.response?.status ?? 'not answered yet');
  const sig = e.signature;
  const curlBox = h('pre', { class: 'raw curl', hidden: true });
  const replayBox = h('div', { class: 'replays' }, (r.replays ?? []).map(replayLine));
  const step = e.step
    ? `${e.step.script} step ${e.step.index + 1}: ${e.step.explain}`
    : e.response?.forwardedTo
      ? `no script step matched; relayed to ${e.response.forwardedTo}`
      : `default answer${e.unmatched ? ` (${e.unmatched})` : ''}`;
  return h(
    'article',
    { class: 'card', dataset: { entryId: e.id, attempt: String(i + 1) } },
    h(
      'div',
      { class: 'card-head' },
      h('span', { class: 'attempt-no', text: `Attempt ${e.attempt ?? i + 1}` }),
      h('span', { class: 'mono', text: `${e.method} ${e.url}` }),
      h('span', { class: 'muted', text: `${clock(e.arrival.iso)} · #${e.seq}` }),
      h('span', { class: `chip status ${a ? statusClass(e) : ''}`, text: String(answer) }),
      dur !== undefined ? h('span', { class: 'muted', text: `${e.finished.outcome} after ${fmtMs(dur)}` }) : null,
      h('span', { class: 'grow' }),
      h(
        'button',
        { class: 'btn', type: 'button', 'data-action': 'curl', onclick: () => copyCurl(r.curl, curlBox) },
        'Copy as curl',
      ),
      h(
        'button',
        {
          class: 'btn',
          type: 'button',
          'data-action': 'replay',
          disabled: !config.forwardTo,
          title: config.forwardTo
            ? `re-send these bytes to ${config.forwardTo}`
            : 'start the mock host with --forward-to URL to replay',
          onclick: (ev) => doReplay(e.id, ev.currentTarget, replayBox),
        },
        'Replay',
      ),
    ),
    curlBox,
    replayBox,
    h(
      'div',
      { class: 'verdicts-grid' },
      verdictRow(
        'Signature',
        sig.verdict === 'valid' ? true : sig.verdict === 'absent' && sig.mode === 'none' ? undefined : false,
        `${sig.verdict} (${sig.mode})`,
        sig.reason,
      ),
      e.schema
        ? verdictRow(
            'Schema',
            e.schema.valid,
            `${e.schema.name}: ${e.schema.valid ? 'valid' : 'invalid'}`,
            e.schema.errors.join('; '),
          )
        : null,
      e.parseError ? verdictRow('Body', false, 'problem', e.parseError) : null,
      verdictRow('Answered by', undefined, e.step ? `${e.step.script}#${e.step.index + 1}` : 'default', step),
    ),
    e.checks.length
      ? section(
          'Header checks',
          h(
            'ul',
            { class: 'checks' },
            e.checks.map((c) =>
              h(
                'li',
                { class: c.ok ? 'good' : 'bad' },
                h('span', { class: 'mark-ok', text: c.ok ? '✓' : '✗' }),
                h('b', { text: c.name }),
                h('span', { class: 'clause', text: c.clause }),
                h('span', { class: 'muted', text: c.detail }),
              ),
            ),
          ),
        )
      : null,
    e.response?.bodyBase64
      ? section(e.kind === 'facts' ? 'Facts answered' : 'Answer body', bodyView(e.response.bodyBase64))
      : null,
    section('Body (raw bytes)', bodyView(e.bodyBase64, e.bodySize, e.bodySha256)),
    h(
      'details',
      { class: 'sec' },
      h('summary', { text: `Headers as received (${e.rawHeaders.length / 2})` }),
      headersTable(e.rawHeaders),
    ),
  );
}

function statusClass(e) {
  const s = e.response?.status;
  if (!e.finished) return 'pending';
  if (e.response?.fault || s === undefined || s >= 500) return 'fail';
  return s >= 400 ? 'warn' : 'ok';
}

async function copyCurl(line, box) {
  box.textContent = line;
  box.hidden = false;
  try {
    await navigator.clipboard.writeText(line);
    toast('curl line copied');
  } catch {
    // clipboard refused (no permission, not focused): the line is selectable below the header
    const range = document.createRange();
    range.selectNodeContents(box);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    toast('curl line shown below: copy it from there');
  }
}

function replayLine(o) {
  const what = o.error ? `failed: ${o.error}` : `answered ${o.status}`;
  return h(
    'div',
    { class: `replay ${o.error || o.status >= 300 ? 'bad' : 'good'}` },
    `replayed to ${o.target} at ${clock(o.at)}: ${what} in ${fmtMs(o.durationMs)}`,
  );
}

async function doReplay(id, button, box) {
  button.disabled = true;
  try {
    const o = await getJson(`/__admin/replay/${encodeURIComponent(id)}`, { method: 'POST' });
    box.append(replayLine(o));
  } catch (err) {
    box.append(h('div', { class: 'replay bad', text: `replay failed: ${err.message}` }));
  } finally {
    button.disabled = false;
  }
}
