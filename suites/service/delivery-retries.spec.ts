/**
 * Delivery, timeouts and retries (6, 8): the retry triggers of onComplete (5xx, timeout, connect
 * failure), the three-attempt bound and its back-off, what is never retried, and delivery off the
 * request thread. Tests tagged @realtime run again at time scale 1 (service-realtime project):
 * every interval comes from timing, never a literal.
 */
import { request as httpRequest } from 'node:http';
import { test, expect } from './fixtures.ts';
import type { DriverClient, TestWorkspace } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { assertNothingArrives } from '../../mock-host/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, header, payload } from './areas/journal.ts';
import { isEvent, uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { durationMs, gapMs, retryTimeline, toleranceFor, within } from './areas/times.ts';
import { checkHmac } from './areas/signatures.ts';
import { HARNESS_SLACK_MS } from './target-config/timing.ts';
import { realTime, waiting } from './areas/waiting.ts';
import { clauseTags } from '../../spec/index.ts';

const [BACKOFF_1, BACKOFF_2] = CONTRACT.backoffMs;

async function completeOne(ws: TestWorkspace, driver: DriverClient, endUserHandle: string): Promise<{ conversationId: number; key: string }> {
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  const { serviceKeys: [key] } = await driver.turn(c.conversationId, [{ fields: { label: 'home', city: 'Paris' } }]);
  await driver.complete(c.conversationId);
  return { conversationId: c.conversationId, key: key! };
}

/** Fires a request at the mock host that its 'refuse' step answers by closing the listener. */
function triggerRefusal(hostUrl: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(`${hostUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => { res.resume(); res.on('end', () => resolve()); });
    req.on('error', () => resolve()); // the refuse step resets this very request
    req.setTimeout(5_000, () => { req.destroy(); resolve(); });
    req.end('{}');
  });
}

realTime(() => test('onComplete answered 503 is retried: 3 attempts numbered 1 to 3, about 5 s then 20 s apart, and nothing after the last (DELIV-4, DELIV-7, DELIV-8, HDR-4)', { tag: clauseTags('DELIV-4', 'DELIV-7', 'DELIV-8', 'HDR-4') }, async ({ makeWorkspace, driver, host, timing , evidence}) => {
    test.setTimeout(timing.retryScheduleDeadlineMs() + timing.quietWindowMs() + timing.scaled(BACKOFF_2 + CONTRACT.requestTimeoutMs) + 30_000);
    const ws = await makeWorkspace({ facts: false });
    host.script({ id: uniqueId('503-always'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'respond', status: 503 }], then: 'repeat-last' });
    const endUserHandle = uniqueHandle('r503');
    await completeOne(ws, driver, endUserHandle);
    // The report draws the attempts of this evidence against these windows.
    evidence.add({ sentence: 'Expected: attempt 2 about 5 s and attempt 3 about 20 s after the previous attempt ended (DELIV-8).', timeline: retryTimeline(timing) });
    const first = await waitEvent(ws, 'onComplete', endUserHandle, 1);
    const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 3, timing.retryScheduleDeadlineMs());
    expect(first.length, 'DELIV-4: attempt 1 arrived').toBe(1);
    expect(attempts.length, `DELIV-4: onComplete was retried after 503: ${attempts.map(describe).join(' | ')}`).toBeGreaterThanOrEqual(2);
    expect(attempts.map((e) => header(e, 'x-service-delivery-attempt')), 'HDR-4: attempts are numbered 1, 2, 3').toEqual(['1', '2', '3']);
    const g1 = within(timing, gapMs(attempts[0]!, attempts[1]!), BACKOFF_1);
    const g2 = within(timing, gapMs(attempts[1]!, attempts[2]!), BACKOFF_2);
    expect.soft(g1.ok, `DELIV-8: back-off before attempt 2: ${g1.sentence}`).toBe(true);
    expect.soft(g2.ok, `DELIV-8: back-off before attempt 3: ${g2.sentence}`).toBe(true);
    // DELIV-7: a fourth attempt would come after another back-off; watch that long plus the delivery window.
    const seen = new Set(attempts.map((e) => e.seq));
    await ws.expectNoCallbacks({ predicate: (e) => isEvent('onComplete', endUserHandle)(e) && !seen.has(e.seq) },
      { windowMs: timing.scaled(BACKOFF_2) + toleranceFor(timing, BACKOFF_2) + HARNESS_SLACK_MS });
  }));

waiting(() => test('onComplete is not retried after a 2xx or a 4xx answer, nor after a 200 given just under the 10 s timeout (DELIV-10, DELIV-3)', { tag: clauseTags('DELIV-10', 'DELIV-3') }, async ({ makeWorkspace, driver, host, timing }) => {
  // One quiet window for every "no retry" answer: the same window, so grouped.
  const ws = await makeWorkspace({ facts: false });
  const answers = [200, 204, 400, 401, 404, 410];
  const handles = answers.map((s) => uniqueHandle(`r${s}`));
  answers.forEach((status, i) => host.script({ id: uniqueId(`answer-${status}`), match: { path: ws.hookPath!, event: 'onComplete', endUserHandle: handles[i]! }, steps: [{ action: 'respond', status }] }));
  // DELIV-3 reading: an answer just under the whole-request timeout is a success.
  const timeout = timing.scaled(CONTRACT.requestTimeoutMs);
  const under = Math.round(Math.max(timeout - 2 * timing.tolerance(CONTRACT.requestTimeoutMs), timeout / 2));
  const slow = uniqueHandle('rslow');
  host.script({ id: uniqueId('slow-ok'), match: { path: ws.hookPath!, event: 'onComplete', endUserHandle: slow }, steps: [{ action: 'hold', ms: under, thenStatus: 200 }] });
  const all = [...handles, slow];
  await Promise.all(all.map((h) => completeOne(ws, driver, h)));
  const firsts: JournalEntry[] = [];
  for (const h of all) firsts.push(...(await waitEvent(ws, 'onComplete', h, 1)));
  const seen = new Set(firsts.map((e) => e.seq));
  const ours = new Set(all);
  await ws.expectNoCallbacks({ predicate: (e) => isEvent('onComplete')(e) && ours.has(payload(e).endUserHandle as string) && !seen.has(e.seq) },
    { windowMs: under + timing.scaled(BACKOFF_1) + timing.quietWindowMs() });
  const slowFirst = firsts.find((e) => payload(e).endUserHandle === slow)!;
  expect(host.journal.entries({ predicate: (e) => e.seq === slowFirst.seq })[0]?.response?.status, 'DELIV-3: the slow attempt was answered 200 before the timeout').toBe(200);
}));

realTime(() => test('onComplete is retried after a refused connection (DELIV-5)', { tag: clauseTags('DELIV-5') }, async ({ makeWorkspace, driver, host, timing }) => {
  test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
  const ws = await makeWorkspace({ facts: false });
  // Attempt 1 answered 503 (a trigger on its own); the listener is then closed for 10 s (scaled),
  // covering attempt 2 (about 5 s later) and ending well before attempt 3 (about 20 s after it).
  host.script({ id: uniqueId('503-then-ok'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'respond', status: 503 }, { action: 'respond', status: 200 }] });
  const refusePath = `/refuse-${uniqueId('t')}`;
  const refuseMs = Math.round(timing.scaled(BACKOFF_1 + CONTRACT.requestTimeoutMs));
  host.script({ id: uniqueId('refuse'), match: { path: refusePath }, steps: [{ action: 'refuse', ms: refuseMs }] });
  const endUserHandle = uniqueHandle('rrefused');
  await completeOne(ws, driver, endUserHandle);
  const [a1] = await waitEvent(ws, 'onComplete', endUserHandle, 1);
  const refusedFrom = performance.now();
  await triggerRefusal(host.url, refusePath);
  const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs());
  const next = attempts.find((e) => e.seq !== a1!.seq)!;
  const gap = gapMs(a1!, next) ?? 0;
  // Harness self-check: attempt 2 must have met the closed listener, or this test proves nothing.
  expect(gap, `harness: the attempt after 503 arrived before the refusal (${describe(next)}); the refusal started ${(performance.now() - refusedFrom).toFixed(0)} ms late`).toBeGreaterThanOrEqual(refuseMs - timing.tolerance(BACKOFF_1));
  expect(header(next, 'x-service-delivery-id'), `DELIV-5: an attempt followed the refused one: ${describe(next)}`).toBe(header(a1!, 'x-service-delivery-id'));
}));

waiting(() => test('a record whose onComplete attempts all failed still reads DELIVERED (DELIV-14)', { tag: clauseTags('DELIV-14') }, async ({ makeWorkspace, driver, svc, host, timing }) => {
  test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
  const ws = await makeWorkspace({ facts: false });
  host.script({ id: uniqueId('503-always'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'respond', status: 503 }], then: 'repeat-last' });
  const endUserHandle = uniqueHandle('rlost');
  const { key } = await completeOne(ws, driver, endUserHandle);
  await waitEvent(ws, 'onComplete', endUserHandle, 3, timing.retryScheduleDeadlineMs());
  const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
  expect((read.json as { callbackStatus?: unknown } | undefined)?.callbackStatus, `DELIV-14\n${read.curl}`).toBe('DELIVERED');
}));

waiting(() => test('every event but onComplete is one POST, not redelivered after a 503 or a reset (DELIV-1)', { tag: clauseTags('DELIV-1') }, async ({ makeWorkspace, driver, host, timing }) => {
  const ws = await makeWorkspace({ facts: false });
  const resetUser = uniqueHandle('rreset');
  host.script({ id: uniqueId('reset-saved'), match: { path: ws.hookPath!, event: 'config.saved', endUserHandle: resetUser }, steps: [{ action: 'reset' }], then: 'repeat-last' });
  for (const event of ['onStart', 'config.saved', 'config.deleted', 'config.bulk_deleted', 'onSessionInterrupted', 'onSessionTimeout']) {
    host.script({ id: uniqueId(`503-${event}`), match: { path: ws.hookPath!, event }, steps: [{ action: 'respond', status: 503 }], then: 'repeat-last' });
  }
  const user = uniqueHandle('r503ev');
  const c1 = await driver.open(ws, { endUserHandle: user, configEnd: '/addresses' });
  const { serviceKeys: [k1] } = await driver.turn(c1.conversationId, [{ fields: { label: 'a' } }]);
  await driver.deleteRecord(c1.conversationId, k1!);
  await driver.interrupt(c1.conversationId);
  const c2 = await driver.open(ws, { endUserHandle: user, configEnd: '/addresses' });
  await driver.turn(c2.conversationId, [{ fields: { label: 'b' } }]);
  await driver.bulkDelete(c2.conversationId, { configEnd: '/addresses' });
  await driver.idleSweep(c2.conversationId);
  const c3 = await driver.open(ws, { endUserHandle: resetUser, configEnd: '/profile' });
  await driver.turn(c3.conversationId, [{ fields: { name: 'Ada' } }]);
  for (const [ev, n] of [['onStart', 2], ['config.saved', 2], ['config.deleted', 1], ['config.bulk_deleted', 1], ['onSessionInterrupted', 1], ['onSessionTimeout', 1]] as const) {
    await waitEvent(ws, ev, user, n);
  }
  await waitEvent(ws, 'config.saved', resetUser, 1);
  const users = new Set([user, resetUser]);
  const mine = (e: JournalEntry) => users.has(payload(e).endUserHandle as string);
  // Same delivery id and same body bytes twice = a redelivery; watch one back-off plus the delivery window.
  const key = (e: JournalEntry) => `${header(e, 'x-service-delivery-id') ?? ''} ${e.bodySha256}`;
  const isRedelivery = (e: JournalEntry) => mine(e) && ws.callbacks({ predicate: (x) => x.seq < e.seq && mine(x) && key(x) === key(e) }).length > 0;
  const quiet = await assertNothingArrives(host.journal, { path: ws.hookPath!, predicate: isRedelivery }, { windowMs: timing.scaled(BACKOFF_1) + timing.quietWindowMs() });
  expect(quiet.ok, `DELIV-1: ${quiet.sentence}`).toBe(true);
  const groups = new Map<string, JournalEntry[]>();
  for (const e of ws.callbacks({ predicate: mine })) groups.set(key(e), [...(groups.get(key(e)) ?? []), e]);
  const redelivered = [...groups.values()].filter((g) => g.length > 1);
  expect(redelivered.map((g) => g.map(describe).join(' then ')), 'DELIV-1: redeliveries of events other than onComplete').toEqual([]);
}));

realTime(() => test('an onComplete attempt held past the 10 s whole-request timeout fails at 10 s and is retried (DELIV-3, DELIV-6)', { tag: clauseTags('DELIV-3', 'DELIV-6') }, async ({ makeWorkspace, driver, host, timing , evidence}) => {
    test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
    const ws = await makeWorkspace({ facts: false });
    host.script({ id: uniqueId('timeout-then-ok'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'never' }, { action: 'respond', status: 200 }] });
    const endUserHandle = uniqueHandle('rtimeout');
    await completeOne(ws, driver, endUserHandle);
    evidence.add({ sentence: 'Expected: attempt 1 given up at the 10 s timeout, attempt 2 about 5 s later (DELIV-3, DELIV-8).', timeline: retryTimeline(timing, { held: true, attempts: 2 }) });
    const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs());
    expect(attempts.length, 'DELIV-6: onComplete was retried after a timeout').toBe(2);
    const held = within(timing, durationMs(attempts[0]!), CONTRACT.requestTimeoutMs);
    expect(held.ok, `DELIV-3: the service gave up the held attempt after the whole-request timeout: ${held.sentence}`).toBe(true);
  }));

realTime(() => test('every attempt of one onComplete carries the same delivery id and the same body bytes (DELIV-11)', { tag: clauseTags('DELIV-11') }, async ({ makeWorkspace, driver, host, timing }) => {
  test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
  const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' } });
  host.script({ id: uniqueId('503-503-ok'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'respond', status: 503 }, { action: 'respond', status: 200 }] });
  const endUserHandle = uniqueHandle('rstable');
  await completeOne(ws, driver, endUserHandle);
  const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs());
  const ids = new Set(attempts.map((e) => header(e, 'x-service-delivery-id')));
  expect([...ids], `DELIV-11: delivery ids over ${attempts.length} attempts`).toHaveLength(1);
  const hashes = new Set(attempts.map((e) => e.bodySha256));
  expect([...hashes], `DELIV-11: body bytes differ between attempts: ${attempts.map(describe).join(' | ')}`).toHaveLength(1);
}));

realTime(() => test('each onComplete retry is re-signed over the unchanged body with a fresh t (SIGN-5)', { tag: clauseTags('SIGN-5') }, async ({ makeWorkspace, driver, host, timing , evidence}) => {
  test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
  const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' } });
  host.script({ id: uniqueId('503-503-ok'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'respond', status: 503 }, { action: 'respond', status: 503 }, { action: 'respond', status: 200 }] });
  const endUserHandle = uniqueHandle('rresign');
  await completeOne(ws, driver, endUserHandle);
  // Attempts must arrive over a second apart for t to move: three at a small time scale, two at real time.
  const needed = timing.scaled(BACKOFF_1) >= 2_000 ? 2 : 3;
  evidence.add({ sentence: `Expected ${needed} attempts on the retry schedule, each re-signed (SIGN-5).`, timeline: retryTimeline(timing, { attempts: needed }) });
  const attempts = await waitEvent(ws, 'onComplete', endUserHandle, needed, timing.retryScheduleDeadlineMs());
  const checks = attempts.map((e) => ({ e, v: checkHmac(e, [ws.signing.secret!]) }));
  for (const { e, v } of checks) expect(v.ok, `SIGN-5: attempt ${describe(e)}: ${v.reason}`).toBe(true);
  // SIGN-5 reading: t moves with the attempts' arrivals (skew-free: compared pairwise), equal t only within one second.
  for (let i = 0; i < checks.length; i++) {
    for (let j = i + 1; j < checks.length; j++) {
      const a = checks[i]!; const b = checks[j]!;
      const arrival = (b.e.arrival.wallMs - a.e.arrival.wallMs) / 1000;
      const dt = (b.v.t ?? 0) - (a.v.t ?? 0);
      expect(Math.abs(dt - arrival), `SIGN-5: t moved ${dt} s between attempts ${a.e.seq} and ${b.e.seq} that arrived ${arrival.toFixed(2)} s apart`).toBeLessThanOrEqual(1.5);
      if (arrival > 1.2) expect(b.v.t, `SIGN-5: attempts ${a.e.seq} and ${b.e.seq} arrived ${arrival.toFixed(2)} s apart with the same t`).not.toBe(a.v.t);
    }
  }
}));

test('onComplete is delivered off the request thread: complete answers while the host holds attempt 1 (DELIV-9)', { tag: clauseTags('DELIV-9') }, async ({ makeWorkspace, driver, host, timing }) => {
  const ws = await makeWorkspace({ facts: false });
  host.script({ id: uniqueId('hold-complete'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'hold', ms: Math.round(timing.scaled(8_000)), thenStatus: 200 }] });
  const endUserHandle = uniqueHandle('roffthread');
  const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
  await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
  await driver.complete(c.conversationId);
  const atReturn = ws.callbacks({ predicate: isEvent('onComplete', endUserHandle) });
  for (const e of atReturn) expect(e.finished, `DELIV-9: complete answered only after the host answered ${describe(e)}`).toBeUndefined();
  await waitEvent(ws, 'onComplete', endUserHandle, 1);
});

test('a host holding a delivery does not delay the service\'s answers to API calls (DELIV-15)', { tag: clauseTags('DELIV-15') }, async ({ makeWorkspace, driver, svc, host, timing }) => {
  const ws = await makeWorkspace({ facts: false });
  host.script({ id: uniqueId('hold-complete'), match: { path: ws.hookPath!, event: 'onComplete' }, steps: [{ action: 'hold', ms: Math.round(timing.scaled(8_000)), thenStatus: 200 }] });
  const endUserHandle = uniqueHandle('rslowhost');
  const { key } = await completeOne(ws, driver, endUserHandle);
  const [held] = await waitEvent(ws, 'onComplete', endUserHandle, 1);
  const read = await svc.getRecord(ws, '/addresses', endUserHandle, key);
  const other = await driver.open(ws, { endUserHandle: uniqueHandle('other'), configEnd: '/profile' });
  const still = host.journal.entries({ predicate: (e) => e.seq === held!.seq })[0];
  expect(still?.finished, `DELIV-15: the data read (status ${read.status}) and an open (${other.conversationId}) waited for the held delivery`).toBeUndefined();
  expect(read.status, `DELIV-15\n${read.curl}`).toBe(200);
});
