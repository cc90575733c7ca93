// The group list, virtualised: the spacer is as tall as every row together, and only the rows
// in view (plus a margin) exist in the DOM. Rows come from the admin API a page at a time, so a
// journal of 100,000 requests costs the page what one screen costs.
import { h, clock, fmtMs } from './dom.js';
import { timeline, outcomeClass, gaps } from './timeline.js';

export const ROW_H = 68;
const PAGE = 100;
const MARGIN = 6;

export class GroupList {
  constructor({ container, spacer, empty, fetchPage, onSelect, onTotal }) {
    Object.assign(this, { container, spacer, empty, fetchPage, onSelect, onTotal });
    this.pages = new Map();
    this.total = 0;
    this.generation = 0;
    this.selected = undefined;
    this.scale = 1;
    this.rows = new Map();
    this.frame = 0;
    container.addEventListener('scroll', () => this.schedule());
    window.addEventListener('resize', () => this.schedule());
    container.addEventListener('keydown', (ev) => this.key(ev));
  }

  /** Forget every page; what is in view is fetched again. */
  invalidate({ toTop } = {}) {
    this.generation++;
    this.pages.clear();
    if (toTop) this.container.scrollTop = 0;
    this.load(Math.floor(this.container.scrollTop / ROW_H / PAGE));
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  load(page) {
    if (this.pages.has(page)) return;
    const gen = this.generation;
    this.pages.set(page, 'loading');
    this.fetchPage(page * PAGE, PAGE).then(
      (res) => {
        if (gen !== this.generation) return;
        this.pages.set(page, res.groups);
        this.total = res.total;
        this.onTotal(res);
        this.schedule();
      },
      () => {
        if (gen === this.generation) this.pages.delete(page);
      },
    );
  }

  groupAt(i) {
    const page = this.pages.get(Math.floor(i / PAGE));
    return Array.isArray(page) ? page[i % PAGE] : undefined;
  }

  render() {
    const c = this.container;
    this.spacer.style.height = `${this.total * ROW_H}px`;
    this.empty.hidden = this.total > 0 || this.pages.size === 0 || [...this.pages.values()].includes('loading');
    const first = Math.max(0, Math.floor(c.scrollTop / ROW_H) - MARGIN);
    const last = Math.min(this.total, Math.ceil((c.scrollTop + c.clientHeight) / ROW_H) + MARGIN);
    for (let p = Math.floor(first / PAGE); p <= Math.floor(Math.max(first, last - 1) / PAGE); p++)
      if (p * PAGE < this.total || p === 0) this.load(p);
    const keep = new Set();
    for (let i = first; i < last; i++) {
      const g = this.groupAt(i);
      const key = g
        ? `${i}:${g.key}:${g.lastSeq}:${g.attempts.map((a) => `${a.status}${a.endMs}`).join()}:${g.key === this.selected}`
        : `${i}:loading`;
      keep.add(key);
      if (this.rows.has(key)) continue;
      const row = g ? this.row(g) : h('div', { class: 'row loading', text: '…' });
      row.style.transform = `translateY(${i * ROW_H}px)`;
      this.rows.set(key, row);
      c.append(row);
    }
    for (const [key, row] of this.rows) {
      if (!keep.has(key)) {
        row.remove();
        this.rows.delete(key);
      }
    }
  }

  row(g) {
    const a0 = g.attempts[0];
    const sigs = new Set(g.attempts.map((a) => a.signature));
    const schemaBad = g.attempts.some((a) => a.schemaValid === false);
    const checksBad = g.attempts.reduce((n, a) => n + a.checksFailed, 0);
    const last = g.attempts[g.attempts.length - 1];
    const gapText = gaps(g).map(fmtMs).join(' → ');
    return h(
      'div',
      {
        class: `row${g.key === this.selected ? ' selected' : ''}`,
        role: 'button',
        tabindex: -1,
        dataset: { key: g.key, deliveryId: g.deliveryId ?? '', event: g.event ?? '', count: String(g.count) },
        onclick: () => this.select(g),
      },
      h(
        'div',
        { class: 'who' },
        h(
          'div',
          { class: 'line1' },
          h('span', {
            class: `event ev-${(g.event ?? a0.kind).replace(/[^a-zA-Z]/g, '')}`,
            text: g.event ?? `${a0.method} ${a0.kind}`,
          }),
          h('span', { class: 'did mono', text: g.deliveryId ?? `#${a0.seq}` }),
        ),
        h(
          'div',
          { class: 'line2 muted' },
          h('span', { text: clock(a0.iso) }),
          g.endUserHandle ? h('span', { class: 'user', text: g.endUserHandle }) : null,
          h('span', { class: 'mono', text: `${a0.method} ${a0.path}` }),
        ),
      ),
      h(
        'div',
        { class: 'strip' },
        timeline(g, this.scale, { width: 230, compact: true }),
        h(
          'div',
          { class: 'muted small' },
          `${g.count} attempt${g.count === 1 ? '' : 's'}`,
          gapText ? ` · gaps ${gapText}` : '',
        ),
      ),
      h(
        'div',
        { class: 'verdicts' },
        [...sigs].map((v) => h('span', { class: `chip sig sig-${v}`, text: `sig ${v}` })),
        a0.schemaValid !== undefined || schemaBad
          ? h('span', { class: `chip ${schemaBad ? 'bad' : 'good'}`, text: schemaBad ? 'schema ✗' : 'schema ✓' })
          : null,
        h('span', {
          class: `chip ${checksBad ? 'bad' : 'good'}`,
          text: checksBad ? `${checksBad} check${checksBad === 1 ? '' : 's'} ✗` : 'headers ✓',
        }),
        h('span', { class: `chip status ${outcomeClass(last)}`, text: String(last.fault ?? last.status ?? '…') }),
      ),
    );
  }

  select(g) {
    this.selected = g.key;
    this.rows.forEach((row) => row.classList.toggle('selected', row.dataset.key === g.key));
    this.onSelect(g);
  }

  key(ev) {
    if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
    ev.preventDefault();
    let i = -1;
    for (let k = 0; k < this.total; k++)
      if (this.groupAt(k)?.key === this.selected) {
        i = k;
        break;
      }
    const next = this.groupAt(Math.min(this.total - 1, Math.max(0, i + (ev.key === 'ArrowDown' ? 1 : -1))));
    if (next) this.select(next);
  }
}
