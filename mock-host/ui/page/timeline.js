// The attempts of one delivery on a time axis, against the contract's retry windows for
// onComplete (DELIV-8): about 5 s before attempt 2 and about 20 s before attempt 3, scaled by
// the service's time scale. The windows are measured from the end of the previous attempt, with
// the harness's default tolerance (25% of the gap, at least 250 ms scaled, never under 100 ms).
import { s, fmtMs } from './dom.js';

const GAPS_MS = [5000, 20000];

export function outcomeClass(a) {
  if (a.endMs === undefined) return 'pending';
  if (a.status !== undefined && a.status >= 200 && a.status < 300 && !a.fault) return 'ok';
  if (a.status !== undefined && a.status >= 400 && a.status < 500 && !a.fault) return 'warn';
  return 'fail';
}

/** Failed in a way the service retries (timeout, 5xx, connect failure): a next window is due. */
function retryable(a) {
  if (a.endMs === undefined) return false;
  return a.fault !== undefined || a.status === undefined || a.status >= 500 || a.outcome !== 'answered';
}

export function windows(group, scale) {
  const list = group.attempts;
  if (group.event !== 'onComplete' || list.length === 0) return [];
  const out = [];
  const upto = Math.min(3, list.length + (retryable(list[list.length - 1]) && list.length < 3 ? 1 : 0));
  for (let k = 1; k < upto; k++) {
    const prev = list[k - 1];
    const gap = GAPS_MS[k - 1] * scale;
    const tol = Math.max(0.25 * gap, 250 * scale, 100);
    const from = prev.endMs ?? prev.arrivalMs;
    out.push({
      attempt: k + 1,
      gap,
      centre: from + gap,
      lo: from + gap - tol,
      hi: from + gap + tol,
      expected: k >= list.length,
    });
  }
  return out;
}

export function gaps(group) {
  const list = group.attempts;
  const out = [];
  for (let k = 1; k < list.length; k++) out.push(list[k].arrivalMs - (list[k - 1].endMs ?? list[k - 1].arrivalMs));
  return out;
}

/**
 * compact: the row's strip (no labels); otherwise the detail's chart with an axis, window
 * labels and one lane per attempt.
 */
export function timeline(group, scale, { width, compact }) {
  const list = group.attempts;
  const t0 = list[0]?.arrivalMs ?? 0;
  const wins = windows(group, scale);
  let end = t0 + (group.event === 'onComplete' ? 30000 * scale : 1000 * scale);
  for (const a of list) end = Math.max(end, a.endMs ?? a.arrivalMs);
  for (const w of wins) end = Math.max(end, w.hi);
  const span = Math.max(1, (end - t0) * 1.04);
  const padL = compact ? 6 : 70;
  const padR = compact ? 6 : 16;
  const x = (ms) => padL + ((ms - t0) / span) * (width - padL - padR);
  const laneH = compact ? 0 : 26;
  const axisY = compact ? 22 : 24 + Math.max(1, list.length) * laneH + 8;
  const height = compact ? 30 : axisY + 26;
  const svg = s('svg', {
    class: compact ? 'tl tl-compact' : 'tl',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `${list.length} attempt(s) on a time axis`,
  });

  for (const w of wins) {
    const y = compact ? 4 : 18;
    const hgt = axisY - y;
    svg.append(
      s('rect', {
        class: w.expected ? 'win win-expected' : 'win',
        x: x(w.lo),
        y,
        width: Math.max(2, x(w.hi) - x(w.lo)),
        height: hgt,
        rx: 3,
      }),
    );
    svg.append(s('line', { class: 'win-centre', x1: x(w.centre), x2: x(w.centre), y1: y, y2: axisY }));
    if (!compact)
      svg.append(
        s('text', {
          class: 'win-label',
          x: x(w.centre),
          y: 12,
          'text-anchor': 'middle',
          text: `≈${fmtMs(w.gap)} before #${w.attempt}${w.expected ? ' (due)' : ''}`,
        }),
      );
  }

  svg.append(s('line', { class: 'axis', x1: padL, x2: width - padR, y1: axisY, y2: axisY }));
  if (!compact) {
    const ticks = 6;
    for (let i = 0; i <= ticks; i++) {
      const ms = t0 + (span / ticks) * i;
      svg.append(s('line', { class: 'tick', x1: x(ms), x2: x(ms), y1: axisY, y2: axisY + 4 }));
      svg.append(
        s('text', {
          class: 'tick-label',
          x: x(ms),
          y: axisY + 16,
          'text-anchor': i === 0 ? 'start' : i === ticks ? 'end' : 'middle',
          text: `+${fmtMs(ms - t0)}`,
        }),
      );
    }
  }

  list.forEach((a, i) => {
    const cls = outcomeClass(a);
    const y = compact ? 13 : 24 + i * laneH + laneH / 2;
    const x1 = x(a.arrivalMs);
    const x2 = Math.max(x1 + 3, x(a.endMs ?? end));
    if (!compact)
      svg.append(
        s('text', {
          class: 'lane-label',
          x: padL - 8,
          y: y + 4,
          'text-anchor': 'end',
          text: `attempt ${a.attempt ?? i + 1}`,
        }),
      );
    svg.append(
      s('rect', {
        class: `bar ${cls}`,
        x: x1,
        y: y - (compact ? 4 : 6),
        width: x2 - x1,
        height: compact ? 8 : 12,
        rx: compact ? 4 : 6,
        'data-attempt': i + 1,
      }),
    );
    svg.append(
      s(
        'circle',
        { class: `mark ${cls} sig-${a.signature}`, cx: x1, cy: y, r: compact ? 5 : 7, 'data-attempt': i + 1 },
        s('title', {
          text: `attempt ${a.attempt ?? i + 1}: ${a.status ?? a.fault ?? 'pending'}, signature ${a.signature}`,
        }),
      ),
    );
    if (!compact) {
      // an attempt outside its window is named so (DELIV-8 reading: 25% tolerance by default)
      const w = wins.find((v) => v.attempt === i + 1);
      const off = w && (a.arrivalMs < w.lo ? ' · early' : a.arrivalMs > w.hi ? ' · late' : '');
      const label = `${a.fault ? a.fault : (a.status ?? '…')}${a.endMs !== undefined ? ` · ${fmtMs(a.endMs - a.arrivalMs)}` : ''}${off || ''}`;
      // near the right edge the label goes before the mark
      const right = x2 + 90 < width;
      svg.append(
        s('text', {
          class: 'bar-label',
          x: right ? x2 + 6 : x1 - 10,
          y: y + 4,
          'text-anchor': right ? 'start' : 'end',
          text: label,
        }),
      );
    }
  });
  return svg;
}
