/**
 * The user-facts fetch over time (2.4): the background fetch with its 10 s timeout, the 24 h cache used from the
 * next open, and rejection of bad answers with the last good facts kept.
 * Observed through the driver's facts observation and the opener language (FACTS-6/9/10/11 readings).
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import { CONTRACT } from '../../protocol/index.ts';
import { waitForEntries } from '../../mock-host/index.ts';
import { describe, payload } from '../../judge/service/journal.ts';
import { uniqueHandle } from './areas/scenario.ts';
import { durationMs, timeoutTimeline, within } from './areas/times.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { GOOD, breachesOver, canonical, factsInEffect, openAndFetch, scriptFacts } from './areas/facts.ts';

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
