/**
 * Tool dispatch (1, 5.2, 6): sent to the tool's own route with X-Service-Event tool.dispatch, and
 * signed when signing is on. Its payload is not shown (UNSPEC-11) and never asserted.
 */
import { test } from './fixtures.ts';
import type { DriverClient, TestWorkspace, Timing } from './fixtures.ts';
import { waitForEntries } from '../../mock-host/index.ts';
import type { JournalEntry, MockHost } from '../../mock-host/index.ts';
import { describe, header } from '../../judge/service/journal.ts';
import { uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { hmacSignerOf } from './areas/signatures.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags, type ClauseId } from '../../spec/index.ts';

/**
 * Opens a conversation and has it call the workspace's first tool; returns the dispatch as it
 * reached the mock host (at the tool's route or, wrongly, at the hook). Its arrival is a check of
 * `clause` when given, else a precondition of the test.
 */
async function dispatchOnce(
  ws: TestWorkspace,
  driver: DriverClient,
  host: MockHost,
  timing: Timing,
  clause?: ClauseId,
): Promise<{ entry: JournalEntry; endUserHandle: string }> {
  const tool = ws.tools[0]!;
  const endUserHandle = uniqueHandle('tool');
  const c = await driver.open(ws, { endUserHandle, configEnd: '/profile' });
  await driver.toolCall(c.conversationId, { toolClass: tool.toolClass, input: { q: 'test' } });
  const v = await waitForEntries(
    host.journal,
    {
      predicate: (e) =>
        header(e, 'x-service-event') === 'tool.dispatch' && (e.path === tool.path || e.path === ws.hookPath),
    },
    { count: 1, deadlineMs: timing.deliveryDeadlineMs() },
  );
  const rule = 'a tool call of the conversation is dispatched with X-Service-Event tool.dispatch';
  if (clause)
    check(clause, rule, { id: 'tool.own-route' }).that(v.ok, { expected: 'one tool dispatch', seen: v.sentence });
  else precondition(v.ok, rule, { expected: 'one tool dispatch', seen: v.sentence });
  return { entry: v.entries[0]!, endUserHandle };
}

test(
  "a tool dispatch is a POST to the tool's own route with X-Service-Event tool.dispatch, not to the callback hook (TOOL-1)",
  { tag: clauseTags('TOOL-1') },
  async ({ makeWorkspace, driver, host, timing }) => {
    driver.requireCapability('tool-call');
    const ws = await makeWorkspace({
      facts: false,
      tools: [{ toolClass: 'lookup', path: `/tools/${uniqueId('lookup')}` }],
    });
    const { entry: e } = await dispatchOnce(ws, driver, host, timing, 'TOOL-1');
    const toolPath = ws.tools[0]!.path;
    check
      .soft('TOOL-1', "a tool dispatch is sent to the tool's own route", { id: 'tool.own-route' })
      .that(e.path === toolPath, { expected: `path ${show(toolPath)}`, seen: `path ${show(e.path)}: ${describe(e)}` });
    check
      .soft('TOOL-1', 'a tool dispatch is a POST', { id: 'tool.own-route' })
      .that(e.method === 'POST', { expected: 'POST', seen: describe(e) });
    check
      .soft('TOOL-1', 'a tool dispatch carries X-Service-Event tool.dispatch', { id: 'tool.own-route' })
      .equals(header(e, 'x-service-event'), 'tool.dispatch');
    const atHook = ws.callbacks({ predicate: (x) => header(x, 'x-service-event') === 'tool.dispatch' });
    check
      .soft('TOOL-1', 'no tool dispatch reaches the callback hook', { id: 'tool.own-route' })
      .that(atHook.length === 0, { expected: 'none at the hook', seen: atHook.map(describe).join(' | ') });
  },
);

test(
  'a tool dispatch carries a valid X-Service-Signature when signing is on (TOOL-2)',
  { tag: clauseTags('TOOL-2') },
  async ({ makeWorkspace, driver, host, timing }) => {
    driver.requireCapability('tool-call', 'signing-hmac');
    const ws = await makeWorkspace({
      facts: false,
      signing: { mode: 'hmac' },
      tools: [{ toolClass: 'lookup', path: `/tools/${uniqueId('lookup')}` }],
    });
    const { entry: e, endUserHandle } = await dispatchOnce(ws, driver, host, timing);
    // The same conversation's onStart shows the workspace's signing at work (SIGN-11/SIGN-12's own
    // rules); TOOL-2 is that the dispatch is covered by it too.
    const [onStart] = await waitEvent(ws, 'onStart', endUserHandle);
    // Who signed and over which bytes, whatever the hex case or the joiner (SIGN-11's and SIGN-12's own rules).
    const lifecycle = hmacSignerOf(onStart!, [ws.signing.secret!]);
    precondition(lifecycle.secretIndex !== undefined, "the conversation's onStart carries a valid HMAC signature", {
      expected: 'a signature that verifies',
      seen: `${lifecycle.reason}: ${describe(onStart!)}`,
    });
    const v = hmacSignerOf(e, [ws.signing.secret!]);
    check(
      'TOOL-2',
      'a tool dispatch of a workspace with HMAC signing carries an X-Service-Signature that verifies over its body',
      { id: 'tool.signed' },
    ).that(v.secretIndex !== undefined, {
      expected: 'a signature that verifies, as on the lifecycle callbacks',
      seen: `${v.reason}: ${describe(e)}`,
    });
  },
);
