/**
 * The local listen pipe (4.1 "Local development", 5.2): while it runs, the events go to the pipe
 * instead of the host POST, with the same body, and signed as in production. The pipe has no
 * interface in the contract: the driver's optional listen-pipe capability starts it, forwarding to
 * a route of the mock host.
 */
import { randomBytes } from 'node:crypto';
import { test } from './fixtures.ts';
import { waitForEntries, type JournalEntry, type MockHost, type SigningConfig } from '../../mock-host/index.ts';
import type { DriverClient, EvidenceLog, TestWorkspace, Timing } from './fixtures.ts';
import { mockHostPublicUrl } from './clients/workspace.ts';
import { eventOf, uniqueHandle, waitEvent } from './areas/scenario.ts';
import { describe } from '../../judge/service/journal.ts';
import type { ResolvedTarget } from '../../target/service/resolve.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags, type ClauseId } from '../../spec/index.ts';

interface PipeRun {
  entries: JournalEntry[];
  conversationId: number;
}

/**
 * Starts a pipe to a fresh mock-host route, opens a conversation, and returns what the pipe got
 * (the onStart). That the pipe gets it is HOOK-5's rule: a check when `clause` names it, else a
 * precondition of the test.
 */
async function throughPipe(o: {
  ws: TestWorkspace;
  driver: DriverClient;
  host: MockHost;
  target: ResolvedTarget;
  timing: Timing;
  evidence: EvidenceLog;
  signing: SigningConfig;
  clause?: ClauseId;
}): Promise<PipeRun> {
  const path = `/pipe/${randomBytes(6).toString('hex')}`;
  o.host.addRoute({ kind: 'lifecycle', path, signing: o.signing });
  await o.driver.listen(o.ws, mockHostPublicUrl(o.target, o.host) + path);
  try {
    const { conversationId } = await o.driver.open(o.ws, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
    const v = await waitForEntries(
      o.host.journal,
      { path, event: 'onStart' },
      { count: 1, deadlineMs: o.timing.deliveryDeadlineMs() },
    );
    o.evidence.add({ sentence: `through the listen pipe: ${v.sentence}`, entries: v.entries });
    const rule = 'a running local listen pipe receives the onStart of a conversation opened meanwhile';
    if (o.clause)
      check(o.clause, rule, { id: 'hook.listen-pipe-instead' }).that(v.ok, {
        expected: 'one onStart through the pipe',
        seen: v.sentence,
      });
    else precondition(v.ok, rule, { expected: 'one onStart through the pipe', seen: v.sentence });
    return { entries: v.entries, conversationId };
  } finally {
    await o.driver.listen(o.ws, null);
  }
}

test(
  'a running local listen pipe receives the events instead of the host POST, with the same body (HOOK-5)',
  { tag: clauseTags('HOOK-5') },
  async ({ ws, driver, host, target, timing, evidence }) => {
    driver.requireCapability('listen-pipe', 'conversations');
    const run = await throughPipe({
      ws,
      driver,
      host,
      target,
      timing,
      evidence,
      signing: { mode: 'none' },
      clause: 'HOOK-5',
    });
    const e = run.entries[0]!;
    const body = e.json as Record<string, unknown> | undefined;
    check
      .soft('HOOK-5', 'the pipe receives the JSON payload of the event', { id: 'hook.listen-pipe-instead' })
      .that(e.parseError === undefined && body !== undefined, {
        expected: 'a JSON body',
        seen: `${e.parseError ?? ''} ${describe(e)}`,
      });
    // The payload's own rules (the event member EVT-3, the type of conversationId EVT-13) are read leniently: "the same
    // body" is HOOK-5's.
    check
      .soft('HOOK-5', 'the pipe receives the onStart payload', { id: 'hook.listen-pipe-instead' })
      .that(eventOf(e) === 'onStart', { expected: 'the onStart payload', seen: describe(e) });
    check
      .soft('HOOK-5', 'the pipe receives the payload of the conversation just opened', {
        id: 'hook.listen-pipe-instead',
      })
      .that(String(body?.conversationId) === String(run.conversationId), {
        expected: `conversationId ${run.conversationId}`,
        seen: `conversationId ${show(body?.conversationId)}`,
      });
    // "Instead of": the host's own hook gets nothing while the pipe runs, neither before nor after the pipe's copy.
    const atHook = ws.callbacks({ event: 'onStart' });
    check
      .soft('HOOK-5', 'with the pipe running, the onStart is not also POSTed to hostBaseUrl + hookPath', {
        id: 'hook.listen-pipe-instead',
      })
      .that(atHook.length === 0, { expected: 'no request at the hook', seen: atHook.map(describe).join(' | ') });
    await ws.expectNoCallbacks(
      { event: 'onStart' },
      {
        clause: 'HOOK-5',
        id: 'hook.listen-pipe-instead',
        rule: 'with the pipe running, no onStart reaches hostBaseUrl + hookPath afterwards',
      },
    );
  },
);

test(
  'events through a local listen pipe are signed as in production (SIGN-15)',
  { tag: clauseTags('SIGN-15') },
  async ({ makeWorkspace, driver, host, target, timing, evidence }) => {
    driver.requireCapability('listen-pipe', 'conversations', 'signing-hmac');
    const ws = await makeWorkspace({ signing: { mode: 'hmac' } });
    // Production first: "matches production" is judged against a workspace whose own deliveries verify
    // (the signing rules themselves are SIGN-11/SIGN-12's).
    const prodUser = uniqueHandle('prod');
    await driver.open(ws, { endUserHandle: prodUser, configEnd: '/profile' });
    const [prod] = await waitEvent(ws, 'onStart', prodUser);
    precondition(prod!.signature?.verdict === 'valid', 'an onStart POSTed to the hook carries a valid HMAC signature', {
      expected: 'valid',
      seen: `${prod!.signature?.verdict ?? 'no signature record'}: ${prod!.signature?.reason ?? ''}`,
    });
    const run = await throughPipe({
      ws,
      driver,
      host,
      target,
      timing,
      evidence,
      signing: { mode: 'hmac', secrets: [ws.signing.secret!] },
    });
    const e = run.entries[0]!;
    check(
      'SIGN-15',
      'the onStart through the pipe carries an HMAC signature over the bytes received, as in production',
      { id: 'sign.listen-pipe-signed' },
    ).that(e.signature?.verdict === 'valid', {
      expected: 'valid, as the production onStart',
      seen: `${e.signature?.verdict ?? 'no signature record'}: ${e.signature?.reason ?? ''}`,
    });
  },
);
