/**
 * The user-facts fetch (2.4, 4.1): request shape and headers, the background fetch with its 10 s
 * timeout, the 24 h cache used from the next open, rejection of bad answers with the last good
 * facts kept, and the language rules. Observed through the driver's facts observation and the
 * opener language (FACTS-6/9/10/11 readings).
 */
import { test, expect } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import type { DriverClient, TestWorkspace, Timing } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { waitForEntries } from '../../mock-host/index.ts';
import { describe, header, payload } from './areas/journal.ts';
import { runEveryEvent, uniqueHandle, uniqueId } from './areas/scenario.ts';
import { durationMs, timeoutTimeline, within } from './areas/times.ts';
import { expectError } from './areas/errors.ts';
import { holdsFor } from './areas/wait.ts';
import { clauseTags } from '../../spec/index.ts';

type Step = { action: 'facts'; body: unknown } | { action: 'never' } | { action: 'respond'; status: number };

function scriptFacts(host: { script(s: object): void }, ws: TestWorkspace, endUserHandle: string, steps: Step[]): void {
  host.script({ id: uniqueId('facts'), match: { path: ws.factsPath!, endUserHandle }, steps });
}

/** Opens a conversation and waits until the facts GET it fires has been answered (entry finished). */
async function openAndFetch(ws: TestWorkspace, driver: DriverClient, host: { journal: Parameters<typeof waitForEntries>[0] }, timing: Timing, endUserHandle: string, nth: number) {
  const opened = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  const v = await waitForEntries(host.journal, { path: ws.factsPath!, endUserHandle, completed: true }, { count: nth, deadlineMs: timing.scaled(CONTRACT.factsTimeoutMs) + timing.deliveryDeadlineMs() });
  expect(v.ok, `the facts GET of open #${nth}: ${v.sentence}`).toBe(true);
  return opened;
}

/** Waits (with a deadline) until the facts in effect satisfy the check: the service has taken in a good answer. */
async function factsInEffect(driver: DriverClient, ws: TestWorkspace, endUserHandle: string, timing: Timing, check: (f: Record<string, unknown> | null) => boolean, what: string): Promise<void> {
  await expect.poll(async () => check((await driver.facts(ws, endUserHandle)).facts as Record<string, unknown> | null), { message: what, timeout: timing.deliveryDeadlineMs(), intervals: [50, 100, 200] }).toBe(true);
}

const GOOD = { preferredLanguages: ['German'], company: 'Acme' };

test.describe('the fetch request', () => {
  test('the facts fetch is GET hostBaseUrl + callback ?endUserHandle=<handle>, without a body (FACTS-1)', { tag: clauseTags('FACTS-1') }, async ({ ws, driver }) => {
    driver.requireCapability('facts');
    const h = uniqueHandle();
    await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
    const [e] = await ws.waitForFactsRequests();
    expect(e!.method, `FACTS-1: ${describe(e!)}`).toBe('GET');
    expect(e!.path, 'FACTS-1: the FACTS class callback path').toBe(ws.factsPath);
    expect(e!.query.endUserHandle, `FACTS-1: ${e!.url}`).toBe(h);
    expect(e!.bodySize, 'FACTS-1: no body').toBe(0);
  });

  test('the facts fetch sends Accept, X-Service-Event, X-Service-Workspace and X-Service-End-User (FACTS-2)', { tag: clauseTags('FACTS-2') }, async ({ ws, driver }) => {
    driver.requireCapability('facts');
    const h = uniqueHandle();
    await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
    const [e] = await ws.waitForFactsRequests();
    expect((header(e!, 'accept') ?? '').split(',').map((s) => s.split(';')[0]!.trim()), 'FACTS-2: Accept').toContain('application/json');
    expect(header(e!, 'x-service-event'), 'FACTS-2: X-Service-Event').toBe('user.facts.fetch');
    expect(header(e!, 'x-service-workspace'), 'FACTS-2: X-Service-Workspace').toBe(ws.workspaceKey);
    expect(header(e!, 'x-service-end-user'), 'FACTS-2: X-Service-End-User').toBe(h);
  });

  test('the facts fetch sends X-Service-Delivery-Id uf-<workspaceId>-<endUserHandle> (FACTS-3)', { tag: clauseTags('FACTS-3') }, async ({ ws, driver }) => {
    driver.requireCapability('facts');
    const h = uniqueHandle();
    await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
    const [e] = await ws.waitForFactsRequests();
    const id = header(e!, 'x-service-delivery-id') ?? '';
    // FACTS-3 reading: exactly uf-<workspaceId>-<handle> when the driver reports a workspaceId.
    if (ws.workspaceId) expect(id, 'FACTS-3').toBe(`uf-${ws.workspaceId}-${h}`);
    else expect(id.startsWith('uf-') && id.endsWith(`-${h}`) && id.length > `uf--${h}`.length, `FACTS-3: ${id}`).toBe(true);
  });

  test('the facts fetch carries X-Service-Signature exactly when signing is enabled (FACTS-4)', { tag: clauseTags('FACTS-4') }, async ({ makeWorkspace, driver }) => {
    driver.requireCapability('facts', 'signing-hmac');
    const off = await makeWorkspace({ signing: { mode: 'none' } });
    const on = await makeWorkspace({ signing: { mode: 'hmac' } });
    await driver.open(off, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
    await driver.open(on, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
    const [a] = await off.waitForFactsRequests();
    const [b] = await on.waitForFactsRequests();
    expect(header(a!, 'x-service-signature'), `FACTS-4: signing off: ${describe(a!)}`).toBeUndefined();
    expect(header(b!, 'x-service-signature'), `FACTS-4: signing on: ${describe(b!)}`).toBeTruthy();
  });

  test('the user-facts fetch is the only GET the service sends to the host (FACTS-14)', { tag: clauseTags('FACTS-14') }, async ({ ws, driver, host }) => {
    const run = await runEveryEvent(ws, driver);
    const mine = host.journal.entries({ predicate: (e) => e.kind !== 'admin' && (payload(e).endUserHandle === run.endUserHandle || e.endUserHandle === run.endUserHandle || header(e, 'x-service-workspace') === ws.workspaceKey) });
    const gets = mine.filter((e) => e.method === 'GET');
    for (const e of gets) {
      expect(e.path, `FACTS-14: a GET other than the facts fetch: ${describe(e)}`).toBe(ws.factsPath);
      expect(header(e, 'x-service-event'), `FACTS-14: ${describe(e)}`).toBe('user.facts.fetch');
    }
  });
});

test.describe('timing and cache', () => {
  test('facts fetched at an open are used from the next open, and not after 24 hours without a good answer (FACTS-6)', { tag: clauseTags('FACTS-6') }, async ({ ws, driver, host, timing }) => {
    driver.requireCapability('facts', 'opener-language', 'facts-observation');
    const h = uniqueHandle();
    scriptFacts(host, ws, h, [
      { action: 'facts', body: { preferredLanguages: ['German'], company: 'First' } },
      { action: 'facts', body: { preferredLanguages: ['French'], company: 'Second' } },
      { action: 'facts', body: [] },
    ]);
    const o1 = await openAndFetch(ws, driver, host, timing, h, 1);
    expect(o1.openerLanguage, 'FACTS-6: the first open has no cached facts, so its own fetch is not used yet').toBe('English');
    await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'First', 'the first answer is taken in');
    const o2 = await openAndFetch(ws, driver, host, timing, h, 2);
    expect(o2.openerLanguage, 'FACTS-6: the second open uses the facts of the first fetch').toBe('German');
    await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'Second', 'the second answer is taken in');
    if (driver.has('clock-advance')) {
      await driver.advanceClock(CONTRACT.factsCacheMs + 60_000);
      const o3 = await openAndFetch(ws, driver, host, timing, h, 3);
      expect(o3.openerLanguage, 'FACTS-6: after 24 h without a good answer the cached facts are not used').toBe('English');
    }
  });

  waiting(() => test('a facts answer that is not a JSON object is dropped and the last good facts are kept (FACTS-7)', { tag: clauseTags('FACTS-7') }, async ({ ws, driver, host, timing }) => {
    driver.requireCapability('facts', 'facts-observation');
    const variants: Array<[string, unknown]> = [['an array', [GOOD]], ['a number', 42], ['a string', 'not json {'], ['null', null]];
    const users = variants.map(([name]) => uniqueHandle(name.replace(/\W+/g, '')));
    variants.forEach(([, body], i) => scriptFacts(host, ws, users[i]!, [{ action: 'facts', body: GOOD }, { action: 'facts', body }]));
    for (const h of users) {
      await openAndFetch(ws, driver, host, timing, h, 1);
      await factsInEffect(driver, ws, h, timing, (f) => f?.company === GOOD.company, 'the good answer is taken in');
    }
    for (const h of users) await openAndFetch(ws, driver, host, timing, h, 2);
    // The bad answers have been sent; watch the facts in effect over the delivery window.
    await holdsFor(timing.quietWindowMs(), async () => {
      for (const [i, h] of users.entries()) {
        const f = (await driver.facts(ws, h)).facts as Record<string, unknown> | null;
        expect(f?.company, `FACTS-7: after ${variants[i]![0]}, the last good facts are served`).toBe(GOOD.company);
      }
    });
  }));

  waiting(() => test('a facts answer that does not fit the FACTS class is rejected whole, never partially applied (FACTS-8)', { tag: clauseTags('FACTS-8') }, async ({ ws, driver, host, timing }) => {
    driver.requireCapability('facts', 'facts-observation');
    const h = uniqueHandle();
    // preferredLanguages fits, company has the wrong type: a partial application would take the languages.
    scriptFacts(host, ws, h, [{ action: 'facts', body: GOOD }, { action: 'facts', body: { preferredLanguages: ['Italian'], company: 42 } }]);
    await openAndFetch(ws, driver, host, timing, h, 1);
    await factsInEffect(driver, ws, h, timing, (f) => f?.company === GOOD.company, 'the good answer is taken in');
    await openAndFetch(ws, driver, host, timing, h, 2);
    await holdsFor(timing.quietWindowMs(), async () => {
      const now = await driver.facts(ws, h);
      expect(now.facts, 'FACTS-8: the last good facts are served, untouched').toEqual(GOOD);
      expect(now.languages[0], 'FACTS-8: the rejected answer\'s languages were not applied').toBe('German');
    });
  }));

  waiting(() => test('the fetch runs in the background with a 10 s timeout: the conversation starts while the host holds the GET (FACTS-5)', { tag: clauseTags('FACTS-5') }, async ({ ws, driver, host, timing , evidence}) => {
    driver.requireCapability('facts');
    const h = uniqueHandle();
    scriptFacts(host, ws, h, [{ action: 'never' }]);
    const opened = await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
    const atOpen = ws.factsRequests().filter((e) => e.endUserHandle === h);
    for (const e of atOpen) expect(e.finished, `FACTS-5: the open waited for the facts answer: ${describe(e)}`).toBeUndefined();
    expect(typeof opened.conversationId, 'FACTS-5: the conversation started').toBe('number');
    await ws.waitForCallbacks({ predicate: (e) => payload(e).event === 'onStart' && payload(e).endUserHandle === h });
    const v = await waitForEntries(host.journal, { path: ws.factsPath!, endUserHandle: h, completed: true }, { count: 1, deadlineMs: timing.scaled(CONTRACT.factsTimeoutMs) + timing.deliveryDeadlineMs() });
    evidence.add({ sentence: v.sentence, entries: v.entries, timeline: timeoutTimeline(timing, CONTRACT.factsTimeoutMs, 'the held GET was given up') });
    expect(v.ok, `FACTS-5: the service gave up the held GET: ${v.sentence}`).toBe(true);
    const held = within(timing, durationMs(v.entries[0]!), CONTRACT.factsTimeoutMs);
    expect(held.ok, `FACTS-5: the fetch timed out after 10 s: ${held.sentence}`).toBe(true);
    if (driver.has('conversations')) expect((await driver.conversation(opened.conversationId)).state, 'FACTS-5: the conversation is open').toBe('open');
  }));
});

test.describe('languages', () => {
  test('preferredLanguages sets the language of the chat opener (FACTS-9)', { tag: clauseTags('FACTS-9') }, async ({ ws, driver, host, timing }) => {
    driver.requireCapability('facts', 'opener-language', 'facts-observation');
    const h = uniqueHandle();
    scriptFacts(host, ws, h, [{ action: 'facts', body: { preferredLanguages: ['Spanish', 'German'], company: 'Acme' } }]);
    await openAndFetch(ws, driver, host, timing, h, 1);
    await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'Acme', 'the answer is taken in');
    const o = await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
    expect(o.openerLanguage, 'FACTS-9').toBe('Spanish');
  });

  test('English is appended when preferredLanguages lacks it, and the list is kept as is when it has it (FACTS-10)', { tag: clauseTags('FACTS-10') }, async ({ ws, driver, host, timing }) => {
    driver.requireCapability('facts', 'facts-observation');
    const [a, b] = [uniqueHandle('noeng'), uniqueHandle('eng')];
    scriptFacts(host, ws, a, [{ action: 'facts', body: { preferredLanguages: ['German', 'French'], company: 'A' } }]);
    scriptFacts(host, ws, b, [{ action: 'facts', body: { preferredLanguages: ['French', 'English', 'German'], company: 'B' } }]);
    await openAndFetch(ws, driver, host, timing, a, 1);
    await openAndFetch(ws, driver, host, timing, b, 1);
    await factsInEffect(driver, ws, a, timing, (f) => f?.company === 'A', 'taken in');
    await factsInEffect(driver, ws, b, timing, (f) => f?.company === 'B', 'taken in');
    expect((await driver.facts(ws, a)).languages, 'FACTS-10: English appended').toEqual(['German', 'French', 'English']);
    expect((await driver.facts(ws, b)).languages, 'FACTS-10: a list with English is not changed').toEqual(['French', 'English', 'German']);
  });

  test('when preferredLanguages is absent, English alone is used (FACTS-11)', { tag: clauseTags('FACTS-11') }, async ({ ws, driver, host, timing }) => {
    driver.requireCapability('facts', 'facts-observation');
    const h = uniqueHandle();
    scriptFacts(host, ws, h, [{ action: 'facts', body: { company: 'NoLanguages' } }]);
    await openAndFetch(ws, driver, host, timing, h, 1);
    await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'NoLanguages', 'taken in');
    expect((await driver.facts(ws, h)).languages, 'FACTS-11').toEqual(['English']);
    if (driver.has('opener-language')) expect((await driver.open(ws, { endUserHandle: h, configEnd: '/profile' })).openerLanguage, 'FACTS-11: opener').toBe('English');
  });
});

test.describe('the FACTS class', () => {
  test('a FACTS class without a callback is rejected at push (FACTS-12)', { tag: clauseTags('FACTS-12') }, async ({ driver, host }) => {
    driver.requireCapability('workspaces');
    const r = await driver.createWorkspaceRaw({
      hostBaseUrl: host.url, hookPath: `/hooks/${uniqueId('f12')}`,
      classes: [{ configEnd: '/facts', kind: 'FACTS', fields: [{ name: 'company', type: 'string', comment: 'Employer' }] }],
    });
    expect(r.status, `FACTS-12: the push of a FACTS class without callback: ${JSON.stringify(r.json)}`).toBe(422);
  });

  test('a FACTS class has no data API routes (FACTS-13)', { tag: clauseTags('FACTS-13') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectError(await svc.listRecords(ws, '/facts', h), 404, 'GET on the FACTS configEnd');
    expectError(await svc.writeRecord(ws, '/facts', h, { data: { company: 'Acme' } }), 404, 'POST on the FACTS configEnd');
  });
});

