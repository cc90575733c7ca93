// The inspector's main module: settings, filters, the live event stream and the two panes.
// New requests arrive as server-sent events (/__admin/events); the page then refetches what it
// shows, at most a few times a second, so a burst of callbacks costs a few requests.
import { getJson } from './dom.js';
import { GroupList } from './list.js';
import { renderDetail } from './detail.js';

// a refresh waits at least this long, and longer when the host is slow to answer (a busy host
// is not asked for pages faster than it can serve them)
const REFRESH_MS = 200;
const state = {
  config: { timeScale: 1, timeScaleKnown: false, forwardTo: null },
  filters: {},
  selected: undefined,
  timer: 0,
  lastFetchMs: 0,
};
const $ = (id) => document.getElementById(id);

function query(offset, limit) {
  const p = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  for (const [k, v] of Object.entries(state.filters)) if (v) p.set(k, v);
  return `/__admin/groups?${p}`;
}

const list = new GroupList({
  container: $('list'),
  spacer: $('list-spacer'),
  empty: $('list-empty'),
  fetchPage: async (offset, limit) => {
    const started = performance.now();
    try {
      return await getJson(query(offset, limit));
    } finally {
      state.lastFetchMs = performance.now() - started;
    }
  },
  onSelect: (g) => select(g),
  onTotal: (res) => {
    $('stat-requests').textContent = String(res.journalSize);
    $('stat-groups').textContent = String(res.total);
    $('stat-dropped').hidden = !res.dropped;
    $('stat-dropped').firstElementChild.textContent = String(res.dropped);
    // the selected delivery follows its new attempts and their answers
    const fresh = res.groups.find((g) => g.key === state.selected?.key);
    if (fresh && version(fresh) !== version(state.selected)) select(fresh);
  },
});

const version = (g) => `${g.lastSeq}:${g.attempts.map((a) => `${a.status}/${a.endMs}`).join()}`;

function select(g) {
  state.selected = g;
  const pane = $('detail');
  pane.dataset.key = g.key;
  renderDetail(pane, g, state.config).catch((err) =>
    pane.replaceChildren(document.createTextNode(`could not load: ${err.message}`)),
  );
}

function refreshSoon() {
  if (state.timer) return;
  state.timer = setTimeout(
    () => {
      state.timer = 0;
      list.invalidate();
    },
    Math.max(REFRESH_MS, 4 * state.lastFetchMs),
  );
}

function readFilters() {
  const form = $('filters');
  state.filters = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v).trim()]));
  list.invalidate({ toTop: true });
}

function listen() {
  const es = new EventSource('/__admin/events');
  const live = $('live');
  const mark = (text) => {
    live.textContent = text;
    document.body.dataset.live = text;
  };
  es.addEventListener('hello', () => {
    mark('live');
    refreshSoon();
  });
  for (const kind of ['arrived', 'completed', 'dropped', 'resync']) es.addEventListener(kind, refreshSoon);
  es.addEventListener('reset', () => {
    state.selected = undefined;
    $('detail').replaceChildren(
      Object.assign(document.createElement('div'), { className: 'empty', textContent: 'The journal was reset.' }),
    );
    refreshSoon();
  });
  es.onerror = () => mark(es.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting');
}

async function start() {
  try {
    state.config = await getJson('/__admin/ui/config');
  } catch {
    // the defaults hold: time scale 1, no replay target
  }
  list.scale = state.config.timeScale;
  $('stat-scale').textContent =
    `time scale ${state.config.timeScale}${state.config.timeScaleKnown ? '' : ' (not known)'}`;
  const form = $('filters');
  let typing = 0;
  form.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(readFilters, 150);
  });
  form.addEventListener('change', readFilters);
  form.addEventListener('reset', () => setTimeout(readFilters, 0));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    readFilters();
  });
  list.invalidate({ toTop: true });
  listen();
}

start();
