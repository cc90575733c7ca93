/**
 * The user-facts fetch (2.4, 4.1): request shape and headers, the background fetch with its 10 s
 * timeout, the 24 h cache used from the next open, rejection of bad answers with the last good
 * facts kept, and the language rules. Observed through the driver's facts observation and the
 * opener language (FACTS-6/9/10/11 readings).
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import type { DriverClient, TestWorkspace, Timing } from './fixtures.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { waitForEntries } from '../../mock-host/index.ts';
import { describe, header, payload } from './areas/journal.ts';
import { runEveryEvent, uniqueHandle, uniqueId } from './areas/scenario.ts';
import { durationMs, timeoutTimeline, within } from './areas/times.ts';
import { expectError } from './areas/errors.ts';
import { holdsFor } from './areas/wait.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

type Step = { action: 'facts'; body: unknown } | { action: 'never' } | { action: 'respond'; status: number };

function scriptFacts(host: { script(s: object): void }, ws: TestWorkspace, endUserHandle: string, steps: Step[]): void {
  host.script({ id: uniqueId('facts'), match: { path: ws.factsPath!, endUserHandle }, steps });
}

/** Opens a conversation and waits until the facts GET it fires has been answered (entry finished): a precondition. */
async function openAndFetch(
  ws: TestWorkspace,
  driver: DriverClient,
  host: { journal: Parameters<typeof waitForEntries>[0] },
  timing: Timing,
  endUserHandle: string,
  nth: number,
) {
  const opened = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  const v = await waitForEntries(
    host.journal,
    { path: ws.factsPath!, endUserHandle, completed: true },
    { count: nth, deadlineMs: timing.scaled(CONTRACT.factsTimeoutMs) + timing.deliveryDeadlineMs() },
  );
  precondition(v.ok, `the facts GET of open #${nth} is sent and answered`, {
    expected: `${nth} answered facts GET(s)`,
    seen: v.sentence,
  });
  return opened;
}

/**
 * Waits (with a deadline) until the facts in effect satisfy `taken`: the service has taken in a
 * good answer. A precondition: the rules these tests judge come after it.
 */
async function factsInEffect(
  driver: DriverClient,
  ws: TestWorkspace,
  endUserHandle: string,
  timing: Timing,
  taken: (f: Record<string, unknown> | null) => boolean,
  what: string,
): Promise<void> {
  const until = performance.now() + timing.deliveryDeadlineMs();
  let last: unknown;
  for (let i = 0; ; i++) {
    last = (await driver.facts(ws, endUserHandle)).facts;
    if (taken(last as Record<string, unknown> | null)) return;
    if (performance.now() >= until) break;
    await new Promise((r) => setTimeout(r, [50, 100, 200][Math.min(i, 2)]));
  }
  precondition(false, what, {
    expected: 'the answer in effect within the delivery deadline',
    seen: `facts in effect ${show(last)}`,
  });
}

/**
 * Watches rules over a window (the facts in effect must NOT change): each rule gives what it saw
 * when it breaks, or undefined when it holds; its first breach is kept, and the test ends each
 * rule in one check (a breach is the rule's failure, whatever came after it).
 */
async function breachesOver<T>(
  windowMs: number,
  read: () => Promise<T>,
  rules: Record<string, (v: T) => string | undefined>,
): Promise<Map<string, string>> {
  const breaches = new Map<string, string>();
  await holdsFor(windowMs, async () => {
    const v = await read();
    for (const [name, rule] of Object.entries(rules)) {
      if (breaches.has(name)) continue;
      const seen = rule(v);
      if (seen !== undefined) breaches.set(name, seen);
    }
  });
  return breaches;
}

/** JSON with object keys sorted: equal for deep-equal values whatever their key order. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
}

const GOOD = { preferredLanguages: ['German'], company: 'Acme' };

test.describe('the fetch request', () => {
  test(
    'the facts fetch is GET hostBaseUrl + callback ?endUserHandle=<handle>, percent-encoded, without a body (FACTS-1)',
    { tag: clauseTags('FACTS-1') },
    async ({ ws, driver }) => {
      driver.requireCapability('facts');
      // A handle with characters a query must percent-encode (an ampersand, a space): sent raw, it is cut short.
      const h = uniqueHandle('fa&ct s');
      await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
      // The fetch arriving at hostBaseUrl + callback is itself FACTS-1's rule.
      const [e] = await ws.waitForFactsRequests({ clause: 'FACTS-1', id: 'facts.request-form' });
      check.soft('FACTS-1', 'the facts fetch is a GET', { id: 'facts.request-form' }).equals(e!.method, 'GET');
      check
        .soft('FACTS-1', 'the facts fetch goes to hostBaseUrl + the FACTS class callback path', {
          id: 'facts.request-form',
        })
        .equals(e!.path, ws.factsPath);
      check
        .soft('FACTS-1', 'the facts fetch carries ?endUserHandle=<endUserHandle>', { id: 'facts.request-form' })
        .equals(e!.query.endUserHandle, h);
      check
        .soft('FACTS-1', 'the facts fetch has no body', { id: 'facts.request-form' })
        .that(e!.bodySize === 0, { expected: 'no body', seen: `${e!.bodySize} bytes` });
    },
  );

  test(
    'the facts fetch sends Accept, X-Service-Event, X-Service-Workspace and X-Service-End-User (FACTS-2)',
    { tag: clauseTags('FACTS-2') },
    async ({ ws, driver }) => {
      driver.requireCapability('facts');
      const h = uniqueHandle();
      await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
      const [e] = await ws.waitForFactsRequests();
      const accept = header(e!, 'accept');
      // FACTS-2 reading: application/json alone or in a list, parameters allowed.
      const types = (accept ?? '').split(',').map((s) => s.split(';')[0]!.trim());
      check
        .soft('FACTS-2', 'the facts fetch sends Accept: application/json', { id: 'facts.headers' })
        .that(types.includes('application/json'), {
          expected: 'application/json (alone or in a list)',
          seen: show(accept),
        });
      check
        .soft('FACTS-2', 'the facts fetch sends X-Service-Event: user.facts.fetch', { id: 'facts.headers' })
        .equals(header(e!, 'x-service-event'), 'user.facts.fetch');
      check
        .soft('FACTS-2', 'the facts fetch sends X-Service-Workspace: <workspaceKey>', { id: 'facts.headers' })
        .equals(header(e!, 'x-service-workspace'), ws.workspaceKey);
      check
        .soft('FACTS-2', 'the facts fetch sends X-Service-End-User: <endUserHandle>', { id: 'facts.headers' })
        .equals(header(e!, 'x-service-end-user'), h);
    },
  );

  test(
    'the facts fetch sends X-Service-Delivery-Id uf-<workspaceId>-<endUserHandle> (FACTS-3)',
    { tag: clauseTags('FACTS-3') },
    async ({ ws, driver }) => {
      driver.requireCapability('facts');
      const h = uniqueHandle();
      await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
      const [e] = await ws.waitForFactsRequests();
      const id = header(e!, 'x-service-delivery-id');
      // FACTS-3 reading: exactly uf-<workspaceId>-<handle> when the driver reports a workspaceId.
      if (ws.workspaceId)
        check('FACTS-3', 'the facts fetch sends X-Service-Delivery-Id uf-<workspaceId>-<endUserHandle>', {
          id: 'facts.delivery-id',
        }).equals(id, `uf-${ws.workspaceId}-${h}`);
      else {
        const ok = id !== undefined && id.startsWith('uf-') && id.endsWith(`-${h}`) && id.length > `uf--${h}`.length;
        check('FACTS-3', 'the facts fetch sends X-Service-Delivery-Id uf-<workspaceId>-<endUserHandle>', {
          id: 'facts.delivery-id',
        }).that(ok, { expected: `uf-<non-empty>-${h}`, seen: show(id) });
      }
    },
  );

  test(
    'the facts fetch carries X-Service-Signature exactly when signing is enabled (FACTS-4)',
    { tag: clauseTags('FACTS-4') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('facts', 'signing-hmac');
      const off = await makeWorkspace({ signing: { mode: 'none' } });
      const on = await makeWorkspace({ signing: { mode: 'hmac' } });
      await driver.open(off, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
      await driver.open(on, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
      const [a] = await off.waitForFactsRequests();
      const [b] = await on.waitForFactsRequests();
      check
        .soft('FACTS-4', 'signing off: the facts fetch carries no X-Service-Signature', {
          id: 'facts.signature-exactly-when-on',
        })
        .absent(header(a!, 'x-service-signature'), 'no X-Service-Signature header');
      check
        .soft('FACTS-4', 'signing on (hmac): the facts fetch carries X-Service-Signature', {
          id: 'facts.signature-exactly-when-on',
        })
        .present(header(b!, 'x-service-signature') || undefined, 'a non-empty X-Service-Signature');
    },
  );

  test(
    'the user-facts fetch is the only GET the service sends to the host (FACTS-14)',
    { tag: clauseTags('FACTS-14') },
    async ({ ws, driver, host }) => {
      const run = await runEveryEvent(ws, driver);
      const mine = host.journal.entries({
        predicate: (e) =>
          e.kind !== 'admin' &&
          (payload(e).endUserHandle === run.endUserHandle ||
            e.endUserHandle === run.endUserHandle ||
            header(e, 'x-service-workspace') === ws.workspaceKey),
      });
      const gets = mine.filter((e) => e.method === 'GET');
      const others = gets.filter((e) => e.path !== ws.factsPath || header(e, 'x-service-event') !== 'user.facts.fetch');
      check('FACTS-14', 'every GET the service sends to the host is the user-facts fetch', {
        id: 'facts.only-get',
      }).none(
        others.map(describe),
        `only GETs of ${ws.factsPath} with X-Service-Event user.facts.fetch (${gets.length} GET(s) seen)`,
      );
    },
  );
});

test.describe('timing and cache', () => {
  // FACTS-6 is observed through the opener language (FACTS-9): at each open, whose facts set it.
  // An opener that follows no facts at all is FACTS-9's failure: this test cannot judge FACTS-6 then.
  test(
    'facts fetched at an open are used from the next open, and not after 24 hours without a good answer (FACTS-6)',
    { tag: clauseTags('FACTS-6') },
    async ({ ws, driver, host, timing }) => {
      driver.requireCapability('facts', 'opener-language', 'facts-observation');
      const h = uniqueHandle();
      scriptFacts(host, ws, h, [
        { action: 'facts', body: { preferredLanguages: ['German'], company: 'First' } },
        { action: 'facts', body: { preferredLanguages: ['French'], company: 'Second' } },
        { action: 'facts', body: [] },
      ]);
      const o1 = await openAndFetch(ws, driver, host, timing, h, 1);
      check
        .soft(
          'FACTS-6',
          'the first open has no cached facts, so its own fetch is not used yet: the opener is English',
          { id: 'facts.cache-next-open' },
        )
        .equals(o1.openerLanguage, 'English');
      await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'First', 'the first answer is taken in');
      const o2 = await openAndFetch(ws, driver, host, timing, h, 2);
      precondition(
        o2.openerLanguage === 'German' || o2.openerLanguage === 'French',
        'the opener follows the facts (FACTS-9): the language of the first or of the second answer',
        { expected: 'German or French', seen: show(o2.openerLanguage) },
      );
      check
        .soft(
          'FACTS-6',
          'the second open uses the facts of the first fetch (German), not those its own fetch brings (French)',
          { id: 'facts.cache-next-open' },
        )
        .equals(o2.openerLanguage, 'German');
      await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'Second', 'the second answer is taken in');
      if (driver.has('clock-advance')) {
        await driver.advanceClock(CONTRACT.factsCacheMs + 60_000);
        const o3 = await openAndFetch(ws, driver, host, timing, h, 3);
        check
          .soft('FACTS-6', 'after 24 h without a good answer the cached facts are not used: the opener is English', {
            id: 'facts.cache-24h',
          })
          .equals(o3.openerLanguage, 'English');
      }
    },
  );

  waiting(() =>
    test(
      'a facts answer that is not a JSON object is dropped and the last good facts are kept (FACTS-7)',
      { tag: clauseTags('FACTS-7') },
      async ({ ws, driver, host, timing }) => {
        driver.requireCapability('facts', 'facts-observation');
        const variants: Array<[string, unknown]> = [
          ['an array', [GOOD]],
          ['a number', 42],
          ['a string', 'not json {'],
          ['null', null],
        ];
        const users = variants.map(([name]) => uniqueHandle(name.replace(/\W+/g, '')));
        variants.forEach(([, body], i) =>
          scriptFacts(host, ws, users[i]!, [
            { action: 'facts', body: GOOD },
            { action: 'facts', body },
          ]),
        );
        for (const h of users) {
          await openAndFetch(ws, driver, host, timing, h, 1);
          await factsInEffect(driver, ws, h, timing, (f) => f?.company === GOOD.company, 'the good answer is taken in');
        }
        for (const h of users) await openAndFetch(ws, driver, host, timing, h, 2);
        // The bad answers have been sent; watch the facts in effect over the delivery window.
        const rules = Object.fromEntries(
          users.map((h, i) => [
            h,
            (all: Array<Record<string, unknown> | null>) =>
              all[i]?.company === GOOD.company ? undefined : `facts in effect ${show(all[i])}`,
          ]),
        );
        const breaches = await breachesOver(
          timing.quietWindowMs(),
          async () =>
            Promise.all(users.map(async (h) => (await driver.facts(ws, h)).facts as Record<string, unknown> | null)),
          rules,
        );
        for (const [i, h] of users.entries()) {
          check
            .soft(
              'FACTS-7',
              `after ${variants[i]![0]} as the answer, it is dropped and the last good facts are served`,
              { id: 'facts.non-object-dropped' },
            )
            .that(!breaches.has(h), {
              expected: `the last good facts (company ${GOOD.company})`,
              seen: breaches.get(h) ?? '',
            });
        }
      },
    ),
  );

  waiting(() =>
    test(
      'a facts answer that does not fit the FACTS class is rejected whole, never partially applied (FACTS-8)',
      { tag: clauseTags('FACTS-8') },
      async ({ ws, driver, host, timing }) => {
        driver.requireCapability('facts', 'facts-observation');
        const h = uniqueHandle();
        // preferredLanguages fits, company has the wrong type: a partial application would take the languages.
        scriptFacts(host, ws, h, [
          { action: 'facts', body: GOOD },
          { action: 'facts', body: { preferredLanguages: ['Italian'], company: 42 } },
        ]);
        await openAndFetch(ws, driver, host, timing, h, 1);
        await factsInEffect(driver, ws, h, timing, (f) => f?.company === GOOD.company, 'the good answer is taken in');
        await openAndFetch(ws, driver, host, timing, h, 2);
        const breaches = await breachesOver(timing.quietWindowMs(), () => driver.facts(ws, h), {
          facts: (now) => (canonical(now.facts) === canonical(GOOD) ? undefined : `facts in effect ${show(now.facts)}`),
          languages: (now) => (now.languages[0] === 'German' ? undefined : `languages ${show(now.languages)}`),
        });
        check
          .soft(
            'FACTS-8',
            'the answer that does not fit is rejected whole: the last good facts are served, untouched',
            { id: 'facts.rejected-whole' },
          )
          .that(!breaches.has('facts'), { expected: show(GOOD), seen: breaches.get('facts') ?? '' });
        check
          .soft('FACTS-8', "the rejected answer's languages are not applied: German stays first", {
            id: 'facts.rejected-whole',
          })
          .that(!breaches.has('languages'), { expected: 'German first', seen: breaches.get('languages') ?? '' });
      },
    ),
  );

  waiting(() =>
    test(
      'the fetch runs in the background with a 10 s timeout: the conversation starts while the host holds the GET (FACTS-5)',
      { tag: clauseTags('FACTS-5') },
      async ({ ws, driver, host, timing, evidence }) => {
        driver.requireCapability('facts');
        const h = uniqueHandle();
        scriptFacts(host, ws, h, [{ action: 'never' }]);
        const opened = await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
        // The mock host's entries read the same monotonic clock (mock-host/clock.ts).
        const openedNs = process.hrtime.bigint();
        const answeredAtOpen = ws.factsRequests().filter((e) => e.endUserHandle === h && e.finished !== undefined);
        check
          .soft('FACTS-5', 'the open does not wait for the facts answer', { id: 'facts.background-fetch' })
          .none(answeredAtOpen.map(describe), 'no facts GET of this user ended before the open answered');
        check
          .soft('FACTS-5', 'the conversation starts while the host holds the facts GET', {
            id: 'facts.background-fetch',
          })
          .that(typeof opened.conversationId === 'number', {
            expected: 'a conversationId',
            seen: show(opened.conversationId),
          });
        await ws.waitForCallbacks({
          predicate: (e) => payload(e).event === 'onStart' && payload(e).endUserHandle === h,
        });
        const v = await waitForEntries(
          host.journal,
          { path: ws.factsPath!, endUserHandle: h, completed: true },
          { count: 1, deadlineMs: timing.scaled(CONTRACT.factsTimeoutMs) + timing.deliveryDeadlineMs() },
        );
        evidence.add({
          sentence: v.sentence,
          entries: v.entries,
          timeline: timeoutTimeline(timing, CONTRACT.factsTimeoutMs, 'the held GET was given up'),
        });
        check('FACTS-5', 'the service gives up the held facts GET', { id: 'facts.timeout-10s' }).that(v.ok, {
          expected: 'the held GET ended by the service',
          seen: v.sentence,
        });
        // An open that waited for the GET answers only once the service gave the GET up: long after it, not before.
        const endedNs = v.entries[0]?.finished ? BigInt(v.entries[0].finished.monoNs) : undefined;
        const leadMs = endedNs === undefined ? undefined : Number(endedNs - openedNs) / 1e6;
        const half = timing.scaled(CONTRACT.factsTimeoutMs) / 2;
        check
          .soft('FACTS-5', 'the open answers long before its held facts GET is given up', {
            id: 'facts.background-fetch',
          })
          .that(leadMs !== undefined && leadMs > half, {
            expected: `the open answered at least ${half} ms before the GET ended`,
            seen: leadMs === undefined ? 'the GET has not ended' : `${leadMs.toFixed(0)} ms before`,
          });
        const held = within(timing, durationMs(v.entries[0]!), CONTRACT.factsTimeoutMs);
        check
          .soft('FACTS-5', 'the facts GET times out after about 10 s', { id: 'facts.timeout-10s' })
          .that(held.ok, { expected: `${timing.scaled(CONTRACT.factsTimeoutMs)} ms`, seen: held.sentence });
        if (driver.has('conversations'))
          check
            .soft('FACTS-5', 'the conversation is open while its facts GET timed out', { id: 'facts.background-fetch' })
            .equals((await driver.conversation(opened.conversationId)).state, 'open');
      },
    ),
  );
});

test.describe('languages', () => {
  test(
    'preferredLanguages sets the language of the chat opener (FACTS-9)',
    { tag: clauseTags('FACTS-9') },
    async ({ ws, driver, host, timing }) => {
      driver.requireCapability('facts', 'opener-language', 'facts-observation');
      const h = uniqueHandle();
      // The open below fetches again: it gets the same answer, so the opener's language does not
      // depend on which fetch an open uses (that is FACTS-6's rule).
      const answer = { preferredLanguages: ['Spanish', 'German'], company: 'Acme' };
      scriptFacts(host, ws, h, [
        { action: 'facts', body: answer },
        { action: 'facts', body: answer },
      ]);
      await openAndFetch(ws, driver, host, timing, h, 1);
      await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'Acme', 'the answer is taken in');
      const o = await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
      check('FACTS-9', 'the opener speaks the first of preferredLanguages', { id: 'facts.opener-language' }).equals(
        o.openerLanguage,
        'Spanish',
      );
    },
  );

  test(
    'English is appended when preferredLanguages lacks it, and the list is kept as is when it has it (FACTS-10)',
    { tag: clauseTags('FACTS-10') },
    async ({ ws, driver, host, timing }) => {
      driver.requireCapability('facts', 'facts-observation');
      const [a, b] = [uniqueHandle('noeng'), uniqueHandle('eng')];
      scriptFacts(host, ws, a, [{ action: 'facts', body: { preferredLanguages: ['German', 'French'], company: 'A' } }]);
      scriptFacts(host, ws, b, [
        { action: 'facts', body: { preferredLanguages: ['French', 'English', 'German'], company: 'B' } },
      ]);
      await openAndFetch(ws, driver, host, timing, a, 1);
      await openAndFetch(ws, driver, host, timing, b, 1);
      await factsInEffect(driver, ws, a, timing, (f) => f?.company === 'A', 'taken in');
      await factsInEffect(driver, ws, b, timing, (f) => f?.company === 'B', 'taken in');
      check
        .soft('FACTS-10', 'English is appended to a preferredLanguages list that lacks it', {
          id: 'facts.english-appended',
        })
        .equals((await driver.facts(ws, a)).languages, ['German', 'French', 'English']);
      check
        .soft('FACTS-10', 'a preferredLanguages list that holds English is served unchanged', {
          id: 'facts.english-appended',
        })
        .equals((await driver.facts(ws, b)).languages, ['French', 'English', 'German']);
    },
  );

  test(
    'when preferredLanguages is absent, English alone is used (FACTS-11)',
    { tag: clauseTags('FACTS-11') },
    async ({ ws, driver, host, timing }) => {
      driver.requireCapability('facts', 'facts-observation');
      const h = uniqueHandle();
      scriptFacts(host, ws, h, [{ action: 'facts', body: { company: 'NoLanguages' } }]);
      await openAndFetch(ws, driver, host, timing, h, 1);
      await factsInEffect(driver, ws, h, timing, (f) => f?.company === 'NoLanguages', 'taken in');
      check
        .soft('FACTS-11', 'without preferredLanguages the reply languages are English alone', {
          id: 'facts.english-alone',
        })
        .equals((await driver.facts(ws, h)).languages, ['English']);
      if (driver.has('opener-language'))
        check
          .soft('FACTS-11', 'without preferredLanguages the opener is English', { id: 'facts.english-alone' })
          .equals((await driver.open(ws, { endUserHandle: h, configEnd: '/profile' })).openerLanguage, 'English');
    },
  );
});

test.describe('the FACTS class', () => {
  test(
    'a FACTS class without a callback is rejected at push (FACTS-12)',
    { tag: clauseTags('FACTS-12') },
    async ({ driver, host }) => {
      driver.requireCapability('workspaces');
      const r = await driver.createWorkspaceRaw({
        hostBaseUrl: host.url,
        hookPath: `/hooks/${uniqueId('f12')}`,
        classes: [
          { configEnd: '/facts', kind: 'FACTS', fields: [{ name: 'company', type: 'string', comment: 'Employer' }] },
        ],
      });
      check('FACTS-12', 'the push of a FACTS class without callback is refused with 422', {
        id: 'facts.callback-required',
      }).that(r.status === 422, { expected: '422', seen: `${r.status} ${show(r.json)}` });
    },
  );

  test('a FACTS class has no data API routes (FACTS-13)', { tag: clauseTags('FACTS-13') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectError('FACTS-13', await svc.listRecords(ws, '/facts', h), 404, 'GET on the FACTS configEnd', true, {
      id: 'facts.no-data-routes',
    });
    expectError(
      'FACTS-13',
      await svc.writeRecord(ws, '/facts', h, { data: { company: 'Acme' } }),
      404,
      'POST on the FACTS configEnd',
      true,
      { id: 'facts.no-data-routes' },
    );
  });
});
