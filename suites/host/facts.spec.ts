/**
 * The user-facts endpoint (section 4.1 "User-facts fetch", 2.4): the signed GET is answered
 * within the 10 s fetch timeout (HOST-16) with a flat JSON object matching the FACTS class
 * (HOST-15); preferredLanguages, when present, holds language names in English (HOST-17). The
 * badly signed GETs (HOST-18) are in every-signed-request.spec.ts.
 */
import { Ajv } from 'ajv';
import { test, expect, allEndpoints } from './fixtures.ts';
import type { HostHarness, ModeEndpoint } from './harness/harness.ts';
import { fetchFacts } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshHandle } from './harness/payloads.ts';
import { describe, type SendOutcome } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe.configure({ mode: 'parallel' });

/** HOST-17 reading: English language names (English, Brazilian Portuguese), never codes (en, pt-BR). */
const LANGUAGE_NAME = /^[A-Z][A-Za-z]*(?:[ -][A-Za-z]+)*$/;
/** HOST-15: members that would make the answer an envelope rather than the facts themselves. */
const WRAPPERS = ['data', 'facts', 'result', 'results', 'items', 'payload'];

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

test('the facts endpoint answers the signed GET within the 10 s fetch timeout (HOST-16)', { tag: clauseTags('HOST-16') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 20_000);
  const outcomes = await Promise.all(factsEndpoints(host).map((ep) => fetchFacts(host, ep, { endUserHandle: handleFor(host) })));
  await attachEvidence(testInfo, `the facts GET must be answered with a 2xx within ${host.target.timeouts.requestMs} ms`, outcomes);
  for (const o of outcomes) expect(o.status !== undefined && o.status >= 200 && o.status < 300, describe(o)).toBe(true);
});

test('the facts endpoint answers a flat JSON object that matches the FACTS class, no list and no envelope (HOST-15)', { tag: clauseTags('HOST-15') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 20_000);
  const schema = host.target.factsSchema;
  const validate = schema === undefined ? undefined : new Ajv({ allErrors: true, strict: false }).compile(schema);
  const outcomes = await Promise.all(factsEndpoints(host).map((ep) => fetchFacts(host, ep, { endUserHandle: handleFor(host) })));
  await attachEvidence(testInfo, 'the facts answer must be a flat JSON object whose fields match the FACTS class', outcomes);
  for (const o of outcomes) {
    expect(o.status, describe(o)).toBe(200);
    const body = parseBody(o);
    expect(typeof body === 'object' && body !== null && !Array.isArray(body), `${o.url}: the answer is not a JSON object: ${String(o.body).slice(0, 200)}`).toBe(true);
    const declared = new Set(Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {}));
    const wrappers = Object.keys(body as object).filter((k) => WRAPPERS.includes(k) && !declared.has(k));
    expect(wrappers, `${o.url}: the facts are wrapped in an envelope member`).toEqual([]);
    if (validate !== undefined) {
      const ok = validate(body);
      expect(ok, `${o.url}: the answer does not match the FACTS class: ${JSON.stringify(validate.errors ?? []).slice(0, 400)}`).toBe(true);
    }
  }
});

test('preferredLanguages, when present, is an array of language names in English (HOST-17)', { tag: clauseTags('HOST-17') }, async ({ host }, testInfo) => {
  test.setTimeout(host.target.timeouts.requestMs + 20_000);
  const outcomes = await Promise.all(factsEndpoints(host).map((ep) => fetchFacts(host, ep, { endUserHandle: handleFor(host) })));
  await attachEvidence(testInfo, 'preferredLanguages holds language names in English (English, Brazilian Portuguese), never codes', outcomes);
  for (const o of outcomes) {
    const body = parseBody(o) as Record<string, unknown> | undefined;
    expect(body !== undefined && typeof body === 'object', describe(o)).toBe(true);
    const langs = body?.preferredLanguages;
    if (langs === undefined || langs === null) continue;
    expect(Array.isArray(langs), `${o.url}: preferredLanguages is not an array`).toBe(true);
    const bad = (langs as unknown[]).filter((l) => typeof l !== 'string' || !LANGUAGE_NAME.test(l));
    expect(bad, `${o.url}: entries that are not English language names`).toEqual([]);
  }
});
