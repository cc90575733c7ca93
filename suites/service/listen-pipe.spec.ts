/**
 * The local listen pipe (4.1 "Local development", 5.2): while it runs, the events go to the pipe
 * instead of the host POST, with the same body, and signed as in production. The pipe has no
 * interface in the contract: the driver's optional listen-pipe capability starts it, forwarding to
 * a route of the mock host.
 */
import { randomBytes } from 'node:crypto';
import { test, expect } from './fixtures.ts';
import { waitForEntries, type JournalEntry, type MockHost, type SigningConfig } from '../../mock-host/index.ts';
import type { DriverClient, EvidenceLog, TestWorkspace, Timing } from './fixtures.ts';
import { mockHostPublicUrl } from './clients/workspace.ts';
import { uniqueHandle } from './areas/scenario.ts';
import type { ResolvedTarget } from './target-config/resolve.ts';
import { clauseTags } from '../../spec/index.ts';

interface PipeRun { entries: JournalEntry[]; conversationId: number }

/** Starts a pipe to a fresh mock-host route, opens a conversation, and returns what the pipe got (the onStart). */
async function throughPipe(o: { ws: TestWorkspace; driver: DriverClient; host: MockHost; target: ResolvedTarget; timing: Timing; evidence: EvidenceLog; signing: SigningConfig }): Promise<PipeRun> {
  const path = `/pipe/${randomBytes(6).toString('hex')}`;
  o.host.addRoute({ kind: 'lifecycle', path, signing: o.signing });
  await o.driver.listen(o.ws, mockHostPublicUrl(o.target, o.host) + path);
  try {
    const { conversationId } = await o.driver.open(o.ws, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
    const v = await waitForEntries(o.host.journal, { path, event: 'onStart' }, { count: 1, deadlineMs: o.timing.deliveryDeadlineMs() });
    o.evidence.add({ sentence: `through the listen pipe: ${v.sentence}`, entries: v.entries });
    expect(v.ok, `HOOK-5: the pipe must receive the onStart: ${v.sentence}`).toBe(true);
    return { entries: v.entries, conversationId };
  } finally {
    await o.driver.listen(o.ws, null);
  }
}

test('a running local listen pipe receives the events instead of the host POST, with the same body (HOOK-5)', { tag: clauseTags('HOOK-5') }, async ({ ws, driver, host, target, timing, evidence }) => {
  driver.requireCapability('listen-pipe', 'conversations');
  const run = await throughPipe({ ws, driver, host, target, timing, evidence, signing: { mode: 'none' } });
  const e = run.entries[0]!;
  const body = e.json as Record<string, unknown> | undefined;
  expect(e.parseError, 'HOOK-5: the body is the JSON payload of section 2.2').toBeUndefined();
  expect(body?.event, 'HOOK-5: the same onStart payload').toBe('onStart');
  expect(body?.conversationId, 'HOOK-5: the payload of the conversation just opened').toBe(run.conversationId);
  // "Instead of": the host's own hook gets nothing while the pipe runs, neither before nor after the pipe's copy.
  const atHook = ws.callbacks({ event: 'onStart' });
  expect(atHook.map((x) => `seq ${x.seq} ${x.method} ${x.path}`), 'HOOK-5: with the pipe running, the onStart must not also be POSTed to hostBaseUrl + hookPath').toEqual([]);
  await ws.expectNoCallbacks({ event: 'onStart' });
});

test('events through a local listen pipe are signed as in production (SIGN-15)', { tag: clauseTags('SIGN-15') }, async ({ makeWorkspace, driver, host, target, timing, evidence }) => {
  driver.requireCapability('listen-pipe', 'conversations', 'signing-hmac');
  const ws = await makeWorkspace({ signing: { mode: 'hmac' } });
  const run = await throughPipe({ ws, driver, host, target, timing, evidence, signing: { mode: 'hmac', secrets: [ws.signing.secret!] } });
  const e = run.entries[0]!;
  expect(e.signature?.verdict, `SIGN-15: the pipe's onStart carries an HMAC signature over the bytes received (${e.signature?.reason ?? 'no signature record'})`).toBe('valid');
});
