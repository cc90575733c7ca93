/**
 * The timeline's arithmetic: a back-off is measured from the end of the previous attempt to the
 * start of the next (DELIV-8 reading), a timeout from an attempt's start to its end (DELIV-3), and a
 * missing attempt is a window with nothing in it, never a pass.
 */
import { test, expect } from '@playwright/test';
import { attemptsOf, judgeWindows, renderTimeline } from '../../../reports/render-timeline.ts';
import { checkXml } from './helpers.ts';
import { clauseTags } from '../../../spec/index.ts';

const windows = {
  timeScale: 1,
  windows: [
    { attempt: 2, from: 'previous-end' as const, expectedMs: 5_000, toleranceMs: 1_250 },
    { attempt: 3, from: 'previous-end' as const, expectedMs: 20_000, toleranceMs: 5_000 },
  ],
};

test(
  'a back-off is measured from the end of the previous attempt to the start of the next (DELIV-8)',
  { tag: clauseTags('DELIV-8') },
  () => {
    const entries = [
      { seq: 1, attempt: 1, arrivalMs: 1_000, durationMs: 3_000 },
      { seq: 2, attempt: 2, arrivalMs: 9_100, durationMs: 40 },
      { seq: 3, attempt: 3, arrivalMs: 11_440, durationMs: 40 },
    ];
    const [a2, a3] = judgeWindows(attemptsOf(entries), windows);
    // From the end of attempt 1 (4 s) to 9.1 s: 5.1 s, not 8.1 s from its start.
    expect(a2).toMatchObject({ ok: true, measured: 5_100 });
    expect(a3).toMatchObject({ ok: false, measured: 2_300 });
    expect(a3!.sentence).toContain('OUTSIDE');
  },
);

test(
  "a missing attempt fails its window, and a timeout window measures the attempt's own duration (DELIV-3)",
  { tag: clauseTags('DELIV-3') },
  () => {
    const one = [{ seq: 1, attempt: 1, arrival: '2026-01-01T00:00:00.000Z', durationMs: 30 }];
    const [a2, a3] = judgeWindows(attemptsOf(one), windows);
    expect(a2).toMatchObject({ ok: false });
    expect(a2!.sentence).toContain('attempt 2 never arrived');
    expect(a3!.sentence).toContain('attempt 2 never arrived, so attempt 3 has no anchor');
    const held = judgeWindows(attemptsOf([{ attempt: 1, arrivalMs: 0, durationMs: 10_006 }]), {
      windows: [{ attempt: 1, from: 'start', expectedMs: 10_000, toleranceMs: 400 }],
    });
    expect(held[0]).toMatchObject({ ok: true, measured: 10_006 });
    const never = judgeWindows(attemptsOf([{ attempt: 1, arrivalMs: 0 }]), {
      windows: [{ attempt: 1, from: 'start', expectedMs: 10_000, toleranceMs: 400 }],
    });
    expect(never[0]).toMatchObject({ ok: false });
  },
);

test('the timeline is well-formed SVG with one bar per attempt and escaped labels', () => {
  const html = renderTimeline(
    [
      { attempt: 1, arrivalMs: 0, durationMs: 20, outcome: '<reset>' },
      { attempt: 2, arrivalMs: 5_050, durationMs: 20, status: 200 },
    ],
    { ...windows, windows: [{ ...windows.windows[0]!, label: 'a <b> & "c"' }] },
  );
  expect(checkXml(html)).toEqual([]);
  expect(html.match(/class="tl-attempt /g)).toHaveLength(2);
  expect(html).toContain('&lt;reset&gt;');
});
