/**
 * The language rules of the user facts (2.4): preferredLanguages sets the chat opener's language, English appended
 * or alone.
 * Observed through the driver's facts observation and the opener language (FACTS-6/9/10/11 readings).
 */
import { test } from './fixtures.ts';
import { uniqueHandle } from './areas/scenario.ts';
import { check } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { factsInEffect, openAndFetch, scriptFacts } from './areas/facts.ts';

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
