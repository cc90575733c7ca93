/**
 * The timeline of a timing clause's evidence (DELIV-3, DELIV-8, SIGN-5, FACTS-5): one lane per
 * attempt, its bar from arrival to end, and each expected window drawn as a band (expected ±
 * tolerance) measured from where the contract measures it: the end of the previous attempt for a
 * back-off (DELIV-8 reading), the attempt's own start for a timeout (DELIV-3). Inline SVG, no script.
 */
import type { TimelineEntry, TimelineSpec, TimelineWindow } from './model.ts';
import { htmlEscape } from './html-escape.ts';

interface Attempt {
  n: number;
  start: number;
  end?: number;
  entry: TimelineEntry;
}

export interface WindowVerdict {
  window: TimelineWindow;
  /** Where the window is anchored and where its expected point lies, ms from the first arrival. */
  anchor?: number;
  measured?: number;
  ok: boolean;
  sentence: string;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Arrival on the harness monotonic clock when given (the contract's intervals), else the ISO wall time. */
export function attemptsOf(entries: unknown[]): Attempt[] {
  const raw = entries.filter((e): e is TimelineEntry => !!e && typeof e === 'object');
  const timed = raw
    .map((e) => ({ e, at: num(e.arrivalMs) ?? (typeof e.arrival === 'string' ? Date.parse(e.arrival) : NaN) }))
    .filter((x) => Number.isFinite(x.at))
    .sort((a, b) => a.at - b.at);
  const t0 = timed[0]?.at ?? 0;
  return timed.map(({ e, at }, i) => {
    const d = num(e.durationMs);
    return { n: num(e.attempt) ?? i + 1, start: at - t0, ...(d !== undefined ? { end: at - t0 + d } : {}), entry: e };
  });
}

/** 5000 -> "5 s", 2300 -> "2.3 s", 1250 -> "1.25 s", 10006 -> "10.01 s". */
export function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number(s.toFixed(Math.abs(s) >= 100 ? 1 : 2))} s`;
}

function about(w: TimelineWindow, scale: number | undefined): string {
  const contract = w.contractMs !== undefined ? `${w.contractMs / 1000} s` : seconds(w.expectedMs);
  const scaled = scale !== undefined && scale !== 1 ? ` × ${scale} = ${seconds(w.expectedMs)}` : '';
  return `about ${contract}${scaled} ± ${seconds(w.toleranceMs)}`;
}

export function judgeWindows(attempts: Attempt[], spec: TimelineSpec): WindowVerdict[] {
  const byN = new Map(attempts.map((a) => [a.n, a]));
  return spec.windows.map((w) => {
    const self = byN.get(w.attempt);
    const what = w.label ?? (w.from === 'start' ? `attempt ${w.attempt} ended` : `attempt ${w.attempt} started`);
    const expected = about(w, spec.timeScale);
    if (w.from === 'start') {
      if (!self)
        return {
          window: w,
          ok: false,
          sentence: `attempt ${w.attempt} never arrived; expected it to end ${expected} after its start`,
        };
      if (self.end === undefined)
        return {
          window: w,
          anchor: self.start,
          ok: false,
          sentence: `attempt ${w.attempt} never ended; expected ${expected}`,
        };
      const measured = self.end - self.start;
      const ok = Math.abs(measured - w.expectedMs) <= w.toleranceMs;
      return {
        window: w,
        anchor: self.start,
        measured,
        ok,
        sentence: `${what} ${seconds(measured)} after its start; expected ${expected}: ${ok ? 'inside' : 'OUTSIDE'} the window`,
      };
    }
    const prev = byN.get(w.attempt - 1);
    if (!prev)
      return {
        window: w,
        ok: false,
        sentence: `attempt ${w.attempt - 1} never arrived, so attempt ${w.attempt} has no anchor`,
      };
    const anchor = prev.end ?? prev.start;
    if (!self)
      return {
        window: w,
        anchor,
        ok: false,
        sentence: `attempt ${w.attempt} never arrived; expected it ${expected} after attempt ${w.attempt - 1} ended`,
      };
    const measured = self.start - anchor;
    const ok = Math.abs(measured - w.expectedMs) <= w.toleranceMs;
    return {
      window: w,
      anchor,
      measured,
      ok,
      sentence: `${what} ${seconds(measured)} after attempt ${w.attempt - 1} ended; expected ${expected}: ${ok ? 'inside' : 'OUTSIDE'} the window`,
    };
  });
}

function niceStep(span: number): number {
  const steps = [50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000];
  return steps.find((s) => span / s <= 8) ?? 1_000_000;
}

function statusText(e: TimelineEntry): string {
  if (e.status !== undefined) return String(e.status);
  return e.outcome ?? 'no answer';
}

function barClass(e: TimelineEntry): string {
  if (e.status !== undefined && e.status >= 200 && e.status < 300) return 'tl-ok';
  if (e.status !== undefined && e.status >= 400) return 'tl-err';
  return 'tl-none';
}

const W = 900;
const LEFT = 118;
const RIGHT = 24;
const TOP = 28;
const LANE = 52;

/** The SVG and, under it, one line per window saying what was measured against what. */
export function renderTimeline(entries: unknown[], spec: TimelineSpec): string {
  const attempts = attemptsOf(entries);
  const verdicts = judgeWindows(attempts, spec);
  const lanes = Math.max(1, ...attempts.map((a) => a.n), ...spec.windows.map((w) => w.attempt));
  const ends = [
    ...attempts.map((a) => a.end ?? a.start),
    ...verdicts.map((v) => (v.anchor ?? 0) + v.window.expectedMs + v.window.toleranceMs),
  ];
  const span = Math.max(1_000, ...ends) * 1.06;
  const x = (ms: number) => LEFT + (Math.max(0, ms) / span) * (W - LEFT - RIGHT);
  const laneY = (n: number) => TOP + (n - 1) * LANE;
  const height = TOP + lanes * LANE + 8;
  const out: string[] = [];
  const step = niceStep(span);
  for (let t = 0; t <= span; t += step) {
    const tick = span >= 2_000 ? `${t / 1000} s` : `${t} ms`;
    out.push(
      `<line class="tl-grid" x1="${x(t)}" x2="${x(t)}" y1="${TOP - 6}" y2="${height - 6}"/><text class="tl-tick" x="${x(t)}" y="${TOP - 10}">${tick}</text>`,
    );
  }
  for (let n = 1; n <= lanes; n++) {
    const y = laneY(n);
    if (n % 2 === 0) out.push(`<rect class="tl-lane" x="0" y="${y}" width="${W}" height="${LANE}"/>`);
    out.push(`<text class="tl-label" x="8" y="${y + 35}">attempt ${n}</text>`);
  }
  for (const v of verdicts) {
    if (v.anchor === undefined) continue;
    const w = v.window;
    const y = laneY(w.attempt);
    const lo = v.anchor + w.expectedMs - w.toleranceMs;
    const hi = v.anchor + w.expectedMs + w.toleranceMs;
    const mid = y + 31;
    out.push(
      `<g class="tl-window ${v.ok ? 'tl-pass' : 'tl-fail'}"><title>${htmlEscape(v.sentence)}</title>` +
        `<line class="tl-gap" x1="${x(v.anchor)}" x2="${x(lo)}" y1="${mid}" y2="${mid}"/>` +
        `<rect class="tl-band" x="${x(lo)}" y="${y + 16}" width="${Math.max(2, x(hi) - x(lo))}" height="${LANE - 20}" rx="3"/>` +
        `<line class="tl-expected" x1="${x(v.anchor + w.expectedMs)}" x2="${x(v.anchor + w.expectedMs)}" y1="${y + 16}" y2="${y + LANE - 4}"/>` +
        `<text class="tl-about" x="${x(v.anchor + w.expectedMs)}" y="${y + 12}">expected ${seconds(w.expectedMs)} ± ${seconds(w.toleranceMs)}</text></g>`,
    );
  }
  for (const a of attempts) {
    const y = laneY(a.n);
    const x0 = x(a.start);
    const x1 = a.end !== undefined ? Math.max(x0 + 3, x(a.end)) : x0 + 3;
    const tip = `attempt ${a.n}: arrived at ${seconds(a.start)}${a.end !== undefined ? `, ended at ${seconds(a.end)}` : ', never ended'} (${statusText(a.entry)})`;
    out.push(
      `<g class="tl-attempt ${barClass(a.entry)}"><title>${htmlEscape(tip)}</title>` +
        `<rect x="${x0}" y="${y + 24}" width="${x1 - x0}" height="14" rx="2"/>` +
        `<text class="tl-status" x="${x1 + 4}" y="${y + 35}">${htmlEscape(statusText(a.entry))}</text></g>`,
    );
  }
  for (const v of verdicts) {
    if (v.anchor === undefined || v.measured === undefined) continue;
    const at = x(v.anchor + v.measured);
    const y = laneY(v.window.attempt);
    out.push(
      `<path class="tl-mark ${v.ok ? 'tl-pass' : 'tl-fail'}" d="M${at - 5} ${y + 15} h10 l-5 8 z"><title>${htmlEscape(v.sentence)}</title></path>`,
    );
  }
  const svg = `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${htmlEscape(verdicts.map((v) => v.sentence).join('; ') || 'attempts')}">${out.join('')}</svg>`;
  const lines = verdicts
    .map((v) => `<li class="${v.ok ? 'tl-pass' : 'tl-fail'}">${v.ok ? '✓' : '✗'} ${htmlEscape(v.sentence)}</li>`)
    .join('');
  const scale =
    spec.timeScale !== undefined && spec.timeScale !== 1
      ? `<p class="tl-scale">times at time scale ${spec.timeScale} (contract durations × ${spec.timeScale})</p>`
      : '';
  return `<figure class="tl">${svg}${lines ? `<ul class="tl-verdicts">${lines}</ul>` : ''}${scale}</figure>`;
}
