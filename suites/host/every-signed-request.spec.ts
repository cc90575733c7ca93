/**
 * HOST-25 / HOST-18: the signature covers every callback (5.2 item 3: the lifecycle events and the
 * config.* events) and the facts GET (5.2 item 6), so every bad signature is tried on every kind
 * of signed request the host receives, in each signing mode under test: one test for the
 * callbacks (their clauses are the same for every event) and one for the facts GET (HOST-18), all
 * their requests sent concurrently; each assertion names the mode, the event, the case and the
 * clause it proves.
 */
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../protocol/index.ts';
import { test, expect, allEndpoints } from './fixtures.ts';
import type { HostHarness, Mode, ModeEndpoint } from './harness/harness.ts';
import { badCallbackCases, badFactsCases } from './harness/bad-signatures.ts';
import { loadHostTarget } from './target.ts';
import { deliver, fetchFacts } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { describe } from './harness/send.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe.configure({ mode: 'parallel' });

/**
 * The signing modes under test, known when the file loads: both for the reference receiver, the
 * target's one mode otherwise. The tests cover them all at once, and their tags name only the
 * clauses of those modes, so a JWKS clause is never reported passed by an HMAC-only run.
 */
const MODES: readonly Mode[] = modesUnderTest();

function modesUnderTest(env: NodeJS.ProcessEnv = process.env): Mode[] {
  const file = env.CCS_HOST_TARGET;
  if (!file) return ['hmac', 'jwks'];
  const mode = loadHostTarget(file, env).signing.mode;
  return mode === 'none' ? [] : [mode];
}

function callbackClauses(): string[] {
  const perMode = [...(MODES.includes('hmac') ? ['HOST-10'] : []), ...(MODES.includes('jwks') ? ['HOST-7', 'HOST-8'] : [])];
  return ['HOST-3', 'HOST-25', 'HOST-4', 'HOST-5', 'HOST-6', ...perMode];
}

function endpoints(host: HostHarness): ModeEndpoint[] {
  const eps = allEndpoints(host).filter((e) => e.mode !== 'none');
  test.skip(eps.length === 0, 'capability signing not offered by the target (signing.mode none)');
  return eps;
}

{
  const clauses = callbackClauses();
  test(`every event with any bad signature is answered 401 in every signing mode (${clauses.join(', ')})`, { tag: clauses.map((c) => `@${c}`) }, async ({ host }, testInfo) => {
    test.setTimeout(host.target.timeouts.requestMs + 30_000);
    // Every (event, mode, case) at once: a hanging receiver costs one 10 s wait, not one per request.
    const sent = (await Promise.all(endpoints(host).flatMap((ep) => (LIFECYCLE_EVENTS as readonly LifecycleEvent[]).map(async (event) => {
      const ctx = () => ({ workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath });
      const cases = await badCallbackCases(host, ep, () => lifecyclePayload(event, ctx()));
      return Promise.all(cases.map(async (c) => ({ ep, event, c, o: await deliver(host, ep, c.payload, c.options) })));
    })))).flat();
    await attachEvidence(testInfo, 'every event with a bad signature must be answered 401 (HOST-3, HOST-25)', sent.map((s) => s.o));
    for (const { ep, event, c, o } of sent) {
      expect.soft(o.status, `${ep.mode} ${event}, ${c.name}: must be refused with 401 (HOST-3, HOST-25, ${c.clause}): ${describe(o)}`).toBe(401);
    }
  });
}

test('the facts GET with any bad signature is refused with a 4xx in every signing mode (HOST-18)', { tag: clauseTags('HOST-18') }, async ({ host }, testInfo) => {
  const eps = endpoints(host).filter((e) => e.factsUrl !== undefined);
  test.skip(eps.length === 0, 'capability facts endpoint not offered by the target (factsPath not set)');
  test.setTimeout(host.target.timeouts.requestMs + 20_000);
  const handle = host.target.endUserHandle ?? freshHandle();
  const sent = (await Promise.all(eps.map(async (ep) => {
    const cases = await badFactsCases(host, ep, handle);
    return Promise.all(cases.map(async (c) => ({ ep, c, o: await fetchFacts(host, ep, c.options) })));
  }))).flat();
  await attachEvidence(testInfo, 'a facts GET with a bad signature should be refused with a 4xx (HOST-18)', sent.map((s) => s.o));
  for (const { ep, c, o } of sent) {
    expect.soft(o.status !== undefined && o.status >= 400 && o.status < 500, `${ep.mode} facts GET, ${c.name}: should be refused with a 4xx (HOST-18, ${c.clause}): ${describe(o)}`).toBe(true);
  }
});
