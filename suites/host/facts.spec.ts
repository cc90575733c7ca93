/**
 * The user-facts endpoint (section 4.1 "User-facts fetch", 2.4): the signed GET is answered with a
 * 2xx within the 10 s fetch timeout, for handles that need percent-encoding too (HOST-16), with a
 * flat JSON object matching the FACTS class (HOST-15: the judge's rule, judge/host/facts-shape.ts, on
 * every facts GET the harness sends, whichever test sends it); preferredLanguages, when present, holds
 * language names in English (HOST-17). The badly signed GETs (HOST-18) are in
 * every-signed-request.spec.ts.
 */
import { test, hostTags, allEndpoints } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { fetchFacts } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshHandle } from './harness/payloads.ts';
import { encodedHandle } from './harness/reads.ts';
import { judgeLanguageName } from './harness/languages.ts';
import { noAnswerHint } from './harness/send.ts';
import { answered, describe, isAck, type SendOutcome } from '../../judge/host/index.ts';
import { check, precondition, show, warnCheck } from '../shared/index.ts';

function factsEndpoints(h: HostHarness): ModeEndpoint[] {
  const eps = allEndpoints(h).filter((e) => e.factsUrl !== undefined);
  test.skip(eps.length === 0, 'capability facts endpoint not offered by the target (factsPath not set)');
  return eps;
}

function handleFor(h: HostHarness): string {
  return h.target.endUserHandle ?? freshHandle();
}

function parseBody(o: SendOutcome): unknown {
  try {
    return JSON.parse(o.body ?? '');
  } catch {
    return undefined;
  }
}

test(
  'the facts endpoint answers the signed GET with a 2xx within the 10 s fetch timeout, for a handle that needs percent-encoding too, with the facts (HOST-16, HOST-15)',
  { tag: hostTags('HOST-16', 'HOST-15') },
  async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs + 20_000);
    const eps = factsEndpoints(host);
    const sent = await Promise.all(
      eps.flatMap((ep) => [
        (async () => ({ ep, encoded: false, o: await fetchFacts(host, ep, { endUserHandle: handleFor(host) }) }))(),
        // The request line is signed as sent, its query percent-encoded (5.2 item 6): verify it as received.
        ...(host.target.endUserHandle === undefined
          ? [(async () => ({ ep, encoded: true, o: await fetchFacts(host, ep, { endUserHandle: encodedHandle() }) }))()]
          : []),
      ]),
    );
    await attachEvidence(
      testInfo,
      `the facts GET must be answered with a 2xx within ${host.target.timeouts.requestMs} ms`,
      sent.map((s) => s.o),
    );
    for (const { ep, encoded, o } of sent) {
      check
        .soft(
          'HOST-16',
          `${ep.mode} facts GET${encoded ? ' for an endUserHandle that needs percent-encoding' : ''} is answered with a 2xx within ${host.target.timeouts.requestMs} ms`,
          { id: encoded ? 'facts.encoded-handle-answered' : 'facts.answered-within-10s' },
        )
        // No answer fails the facts duty too, with the transport as its hint (never a library's).
        .that(isAck(o), {
          expected: `a 2xx within ${host.target.timeouts.requestMs} ms`,
          seen: describe(o),
          ...(answered(o) ? {} : { hint: noAnswerHint(o, 'hostBaseUrl + factsPath') }),
        });
    }
  },
);

test(
  'the facts endpoint answers a flat JSON object that matches the FACTS class, no list and no envelope (HOST-15)',
  { tag: hostTags('HOST-15') },
  async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs + 20_000);
    const outcomes = await Promise.all(
      factsEndpoints(host).map((ep) => fetchFacts(host, ep, { endUserHandle: handleFor(host) })),
    );
    await attachEvidence(
      testInfo,
      'the facts answer must be a flat JSON object whose fields match the FACTS class',
      outcomes,
    );
    // Answering at all is HOST-16's rule; the shape of every 2xx answer is the judge's
    // (judge/host/facts-shape.ts).
    const missed = outcomes.filter((o) => !isAck(o));
    precondition(missed.length === 0, 'the facts GET is answered with a 2xx (HOST-16)', {
      expected: 'a 2xx',
      seen: missed.map(describe).join('; '),
    });
  },
);

/**
 * HOST-17 reading: the rule is about what the host answers per user, so it is judged over this many
 * users (fresh handles): a host that answers native names for one user in four is missed by all of
 * them one run in (4/3)^32, about 10,000.
 */
const LANGUAGE_USERS = 32;

/** The entries of preferredLanguages that are clearly not English names (codes, native names), in words. */
function notEnglish(langs: unknown): string[] {
  if (langs === undefined || langs === null) return [];
  if (!Array.isArray(langs)) return [`preferredLanguages is ${show(langs)}, not an array`];
  return langs.map(judgeLanguageName).flatMap((v) => (v.kind === 'not-english' ? [v.why] : []));
}

const LANGUAGES_TITLE =
  'preferredLanguages, when present, is an array of language names in English, in a facts answer for every user' +
  ' asked about (HOST-17, HOST-15)';
test(LANGUAGES_TITLE, { tag: hostTags('HOST-17', 'HOST-15') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 20_000);
  // A target names the one user it knows; the reference answers any handle, so many users are asked about.
  const handles =
    host.target.endUserHandle !== undefined
      ? [host.target.endUserHandle]
      : Array.from({ length: LANGUAGE_USERS }, () => freshHandle());
  const sent = await Promise.all(
    factsEndpoints(host).map(async (ep) => ({
      ep,
      outcomes: await Promise.all(handles.map((endUserHandle) => fetchFacts(host, ep, { endUserHandle }))),
    })),
  );
  await attachEvidence(
    testInfo,
    'preferredLanguages holds language names in English (English, Brazilian Portuguese, ' +
      'Norwegian Bokmål), never codes (en, pt-BR) nor native names (Deutsch), for every user',
    sent.flatMap((s) => s.outcomes),
  );
  for (const { ep, outcomes } of sent) {
    const missed = outcomes.filter((o) => !isAck(o));
    precondition(missed.length === 0, 'the facts GET is answered with a 2xx (HOST-16)', {
      expected: 'a 2xx',
      seen: missed.map(describe).join('; '),
    });
    const [o, ...others] = outcomes.map((x) => parseBody(x) as Record<string, unknown> | undefined);
    const langs = typeof o === 'object' && o !== null ? o.preferredLanguages : undefined;
    if (langs === undefined || langs === null) {
      check
        .soft('HOST-17', 'preferredLanguages, when present, is checked', { id: 'facts.languages-english' })
        .that(true, { expected: '', seen: '' });
    } else {
      check
        .soft('HOST-17', 'preferredLanguages is an array', { id: 'facts.languages-english' })
        .that(Array.isArray(langs), { expected: 'an array of language names', seen: show(langs) });
      for (const l of Array.isArray(langs) ? langs : []) {
        const v = judgeLanguageName(l);
        const rule = `preferredLanguages entry ${show(l)} is a language name in English`;
        if (v.kind === 'unknown') warnCheck('HOST-17', rule, v.why);
        else {
          check.soft('HOST-17', rule, { id: 'facts.languages-english' }).that(v.kind === 'english', {
            expected: 'a language name in English',
            seen: v.kind === 'not-english' ? v.why : '',
          });
        }
      }
    }
    if (others.length === 0) {
      warnCheck(
        'HOST-17',
        `${ep.mode}: preferredLanguages is in English for every user`,
        'the target names one endUserHandle: the rule is judged on that user alone',
      );
      continue;
    }
    const wrong = others.flatMap((b, i) => {
      const why = notEnglish(typeof b === 'object' && b !== null ? b.preferredLanguages : undefined);
      return why.length === 0 ? [] : [`${JSON.stringify(handles[i + 1])}: ${why.join('; ')}`];
    });
    check
      .soft('HOST-17', `${ep.mode}: preferredLanguages is in English for each of ${others.length} more users`, {
        id: 'facts.languages-english-many-users',
      })
      .that(wrong.length === 0, {
        expected: 'language names in English for every user',
        seen: `${wrong.length} of ${others.length} users answered otherwise: ${wrong.slice(0, 3).join(' | ')}`,
      });
  }
});
