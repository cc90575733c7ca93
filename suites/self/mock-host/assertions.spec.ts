import { test, expect } from '@playwright/test';
import {
  MockHost,
  assertNothingArrives,
  checkBulkPages,
  checkEventOrder,
  checkRetrySchedule,
  checkStableAcrossAttempts,
  waitForEntries,
} from '../../../mock-host/index.ts';
import { TEST_ONLY_SECRET, hmacHeader, lcBody, lcHeaders, nowSeconds, send } from './helpers.ts';
import { clauseTags, type CcsErrorCode } from '../../../spec/index.ts';

let host: MockHost;
test.beforeEach(async () => {
  host = await MockHost.start({
    routes: [{ kind: 'lifecycle', path: '/hooks', signing: { mode: 'hmac', secrets: [TEST_ONLY_SECRET] } }],
  });
});
test.afterEach(async () => host.close());

const complete = lcBody('onComplete', 11);
const post = (body: string, o: { attempt?: number; t?: number; sentBody?: string } = {}) =>
  send(host.url, {
    path: '/hooks',
    headers: lcHeaders(body, {
      ...(o.attempt ? { attempt: o.attempt } : {}),
      signature: hmacHeader(o.sentBody ?? body, TEST_ONLY_SECRET, o.t ?? nowSeconds()),
    }),
    body: o.sentBody ?? body,
  });

test('waitForEntries passes with the entries, and fails at its deadline naming what arrived', async () => {
  await post(lcBody('onStart', 11));
  const ok = await waitForEntries(host.journal, { event: 'onStart' }, { deadlineMs: 3000 });
  expect(ok.ok).toBe(true);
  expect(ok.evidence.seqs).toEqual([1]);
  const bad = await waitForEntries(host.journal, { event: 'onStart' }, { count: 2, deadlineMs: 300 });
  expect(bad.ok).toBe(false);
  expect(bad.sentence).toContain(
    'expected 2 request(s) matching event=onStart within 300 ms, 1 arrived: #1 POST /hooks event=onStart',
  );
  expect(bad.entries).toHaveLength(1);
});

test('journal.waitFor rejects with MOCKHOST_WAIT_TIMEOUT saying what arrived', async () => {
  await post(lcBody('onStart', 11));
  await expect(host.journal.waitFor({ event: 'onComplete' }, { timeoutMs: 200 })).rejects.toMatchObject({
    code: 'MOCKHOST_WAIT_TIMEOUT' satisfies CcsErrorCode,
    message: expect.stringContaining('#1 POST /hooks event=onStart'),
  });
});

test(
  'assertNothingArrives passes over a quiet window and fails naming the entry that arrived (DELIV-10)',
  { tag: clauseTags('DELIV-10') },
  async () => {
    const quiet = await assertNothingArrives(host.journal, { event: 'onComplete' }, { windowMs: 300 });
    expect(quiet.ok).toBe(true);
    const watching = assertNothingArrives(host.journal, { event: 'onComplete' }, { windowMs: 3000 });
    await post(complete, { attempt: 1 });
    const loud = await watching;
    expect(loud.ok).toBe(false);
    expect(loud.evidence.seqs).toEqual([1]);
    expect(loud.sentence).toMatch(/but 1 arrived: #1 POST \/hooks event=onComplete id=lc-11-onComplete attempt=1/);
  },
);

test(
  'checkRetrySchedule measures from the end of an attempt to the next arrival, scaled, and names the bad gap (DELIV-8)',
  { tag: clauseTags('DELIV-8') },
  async () => {
    host.script({ id: 'fail-first', match: { attempt: 1 }, steps: [{ action: 'respond', status: 503 }] });
    await post(complete, { attempt: 1 });
    await new Promise((r) => setTimeout(r, 600)); // the simulated service's back-off, not a wait for the host
    await post(complete, { attempt: 2 });
    const attempts = [...host.journal.deliveries().get('lc-11-onComplete')!];
    expect(attempts.map((e) => e.attempt)).toEqual([1, 2]);
    // 5000 ms at scale 0.12 is 600 ms; the tolerance covers a loaded machine's timer and connect jitter
    const ok = checkRetrySchedule(attempts, { expectedGapsMs: [5000], timeScale: 0.12, toleranceMs: 500 });
    expect(ok.ok, ok.sentence).toBe(true);
    expect(ok.evidence.times!.gap1).toBeGreaterThanOrEqual(590);
    const bad = checkRetrySchedule(attempts, { expectedGapsMs: [20000], timeScale: 0.12, toleranceMs: 500 });
    expect(bad.ok).toBe(false);
    expect(bad.sentence).toMatch(/gap before #2 is \d+ ms, earlier than 2400 ms by \d+ ms \(tolerance 500 ms\)/);
    expect(bad.evidence.seqs).toEqual([1, 2]);
    const tooMany = checkRetrySchedule([...attempts, ...attempts.slice(1)], {
      expectedGapsMs: [5000],
      timeScale: 0.12,
      toleranceMs: 500,
      maxAttempts: 2,
    });
    expect(tooMany.ok).toBe(false);
    expect(tooMany.sentence).toContain('3 attempts arrived, at most 2 allowed');
  },
);

test(
  'checkStableAcrossAttempts passes on identical re-signed bodies and fails on a changed body or an old t (DELIV-11, SIGN-5)',
  { tag: clauseTags('DELIV-11', 'SIGN-5') },
  async () => {
    await post(complete, { attempt: 1 });
    await post(complete, { attempt: 2 });
    const good = checkStableAcrossAttempts(host.journal.entries());
    expect(good.ok, good.sentence).toBe(true);
    await post(complete, { attempt: 3, sentBody: lcBody('onComplete', 11, { serviceKeys: ['k2'] }) });
    const changed = checkStableAcrossAttempts(host.journal.entries());
    expect(changed.ok).toBe(false);
    expect(changed.sentence).toContain('#3 body differs from #1');
    host.reset();
    await post(complete, { attempt: 1 });
    await post(complete, { attempt: 2, t: nowSeconds() - 60 });
    const old = checkStableAcrossAttempts(host.journal.entries(), { maxSkewSeconds: 5 });
    expect(old.ok).toBe(false);
    const second = host.journal.entries()[1]!.seq; // seq keeps counting across reset()
    expect(old.sentence).toMatch(new RegExp(`#${second} was signed`));
    expect(old.sentence).toMatch(/6\d\.\d s from its arrival/);
  },
);

test('checkEventOrder passes on the expected order and names the first difference', async () => {
  for (const ev of ['onStart', 'config.saved', 'onComplete'])
    await post(lcBody(ev, 12), ev === 'onComplete' ? { attempt: 1 } : {});
  const entries = host.journal.entries();
  expect(checkEventOrder(entries, ['onStart', 'config.saved', 'onComplete']).ok).toBe(true);
  const bad = checkEventOrder(entries, ['onStart', 'onComplete', 'config.saved']);
  expect(bad.ok).toBe(false);
  expect(bad.sentence).toContain('at position 2: expected onComplete, got #2 config.saved');
});

test(
  'checkBulkPages accepts a complete manifest and names gaps, oversize pages, wrong counts and duplicates (PAGE-1, PAGE-2, PAGE-4, PAGE-5)',
  { tag: clauseTags('PAGE-1', 'PAGE-2', 'PAGE-4', 'PAGE-5') },
  async () => {
    const keys = Array.from({ length: 700 }, (_, i) => `k${i}`);
    const page = (n: number, ks: string[], count = 700, totalPages = 2) =>
      post(lcBody('config.bulk_deleted', 13, { count, page: n, totalPages, keys: ks }));
    await page(1, keys.slice(0, 500));
    await page(2, keys.slice(500));
    const good = checkBulkPages(host.journal.entries(), { expectedKeys: keys });
    expect(good.ok, good.sentence).toBe(true);
    expect(checkBulkPages(host.journal.entries().slice(0, 1), { expectedKeys: keys }).sentence).toContain(
      'page(s) 2 of 2 missing',
    );
    host.reset();
    await page(1, keys.slice(0, 501), 700);
    await page(2, keys.slice(500), 699);
    const [p1, p2] = host.journal.entries().map((e) => e.seq); // seq keeps counting across reset()
    const bad = checkBulkPages(host.journal.entries(), { expectedKeys: keys });
    expect(bad.ok).toBe(false);
    expect(bad.sentence).toContain(`#${p1} (page 1) carries 501 keys, over 500`);
    expect(bad.sentence).toContain(`duplicate key(s): k500 (#${p1} and #${p2})`);
    expect(bad.sentence).toContain(`#${p2} (page 2) says count 699, the pages carry 700 distinct keys`);
    const missingKey = checkBulkPages(host.journal.entries(), { expectedKeys: [...keys, 'k-extra'] });
    expect(missingKey.sentence).toContain('1 expected key(s) missing: k-extra');
    host.reset();
    await page(1, keys.slice(0, 500), 700, 1);
    expect(checkBulkPages(host.journal.entries()).sentence).toContain(
      'totalPages is 1, but count 700 makes ceil(700 / 500) = 2 pages (PAGE-2)',
    );
  },
);
