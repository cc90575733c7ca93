/**
 * HOST-25 / HOST-18: the signature covers every callback (5.2 item 3: the lifecycle events and the
 * config.* events) and the facts GET (5.2 item 6), so every bad signature is tried on every kind
 * of signed request the host receives, in each signing mode under test. One test per (kind, mode),
 * its cases sent concurrently; each assertion names the case and the clause it proves.
 */
import { LIFECYCLE_EVENTS, type LifecycleEvent } from '../../protocol/index.ts';
import { test, expect, modeEndpoint } from './fixtures.ts';
import type { Mode } from './harness/harness.ts';
import { badCallbackCases, badFactsCases, headerClause } from './harness/bad-signatures.ts';
import { deliver, fetchFacts } from './harness/deliver.ts';
import { attachEvidence } from './harness/evidence.ts';
import { freshConversationId, freshHandle, lifecyclePayload } from './harness/payloads.ts';
import { describe } from './harness/send.ts';

test.describe.configure({ mode: 'parallel' });

const MODES: readonly Mode[] = ['hmac', 'jwks'];

function callbackTags(mode: Mode, ...extra: string[]): string[] {
  const perMode = mode === 'hmac' ? ['HOST-10'] : ['HOST-7', 'HOST-8'];
  return ['HOST-3', 'HOST-25', 'HOST-4', 'HOST-5', 'HOST-6', ...perMode, ...extra];
}

for (const mode of MODES) {
  for (const event of LIFECYCLE_EVENTS as readonly LifecycleEvent[]) {
    const clauses = callbackTags(mode);
    test(`${mode}: ${event} with any bad signature is answered 401 (${clauses.join(', ')})`, { tag: clauses.map((c) => `@${c}`) }, async ({ host }, testInfo) => {
      const ep = modeEndpoint(host, mode);
      test.setTimeout(host.target.timeouts.requestMs + 20_000);
      const ctx = () => ({ workspaceKey: host.target.workspaceKey, configEnd: host.target.configEnd, endUserHandle: freshHandle(), conversationId: freshConversationId(), hookPath: ep.hookPath });
      const cases = await badCallbackCases(host, ep, () => lifecyclePayload(event, ctx()));
      const outcomes = await Promise.all(cases.map((c) => deliver(host, ep, c.payload, c.options)));
      await attachEvidence(testInfo, `every ${event} with a bad signature must be answered 401 in ${mode} mode (HOST-3, HOST-25)`, outcomes);
      for (const [i, c] of cases.entries()) {
        const o = outcomes[i]!;
        expect.soft(o.status, `${mode} ${event}, ${c.name}: must be refused with 401 (HOST-3, HOST-25, ${c.clause}): ${describe(o)}`).toBe(401);
      }
    });
  }

  test(`${mode}: the facts GET with any bad signature is refused with a 4xx (HOST-18)`, { tag: ['@HOST-18'] }, async ({ host }, testInfo) => {
    const ep = modeEndpoint(host, mode);
    test.skip(ep.factsUrl === undefined, 'capability facts endpoint not offered by the target (factsPath not set)');
    test.setTimeout(host.target.timeouts.requestMs + 20_000);
    const handle = host.target.endUserHandle ?? freshHandle();
    const cases = await badFactsCases(host, ep, handle);
    const outcomes = await Promise.all(cases.map((c) => fetchFacts(host, ep, c.options)));
    await attachEvidence(testInfo, `a facts GET with a bad signature should be refused with a 4xx in ${mode} mode (HOST-18, ${headerClause(ep)})`, outcomes);
    for (const [i, c] of cases.entries()) {
      const o = outcomes[i]!;
      expect.soft(o.status !== undefined && o.status >= 400 && o.status < 500, `${mode} facts GET, ${c.name}: should be refused with a 4xx (HOST-18, ${c.clause}): ${describe(o)}`).toBe(true);
    }
  });
}
