/**
 * Tool dispatch (1, 5.2, 6): sent to the tool's own route with X-Service-Event tool.dispatch, and
 * signed when signing is on. Its payload is not shown (UNSPEC-11) and never asserted.
 */
import { test, expect } from './fixtures.ts';
import type { DriverClient, TestWorkspace, Timing } from './fixtures.ts';
import { waitForEntries } from '../../mock-host/index.ts';
import type { JournalEntry, MockHost } from '../../mock-host/index.ts';
import { describe, header } from './areas/journal.ts';
import { uniqueHandle, uniqueId } from './areas/scenario.ts';
import { checkHmac } from './areas/signatures.ts';
import { clauseTags } from '../../spec/index.ts';

async function dispatchOnce(ws: TestWorkspace, driver: DriverClient, host: MockHost, timing: Timing): Promise<JournalEntry> {
  const tool = ws.tools[0]!;
  const c = await driver.open(ws, { endUserHandle: uniqueHandle('tool'), configEnd: '/profile' });
  await driver.toolCall(c.conversationId, { toolClass: tool.toolClass, input: { q: 'test' } });
  const v = await waitForEntries(host.journal, { predicate: (e) => header(e, 'x-service-event') === 'tool.dispatch' && (e.path === tool.path || e.path === ws.hookPath) }, { count: 1, deadlineMs: timing.deliveryDeadlineMs() });
  expect(v.ok, `a tool dispatch arrived: ${v.sentence}`).toBe(true);
  return v.entries[0]!;
}

test('a tool dispatch is a POST to the tool\'s own route with X-Service-Event tool.dispatch, not to the callback hook (TOOL-1)', { tag: clauseTags('TOOL-1') }, async ({ makeWorkspace, driver, host, timing }) => {
  driver.requireCapability('tool-call');
  const ws = await makeWorkspace({ facts: false, tools: [{ toolClass: 'lookup', path: `/tools/${uniqueId('lookup')}` }] });
  const e = await dispatchOnce(ws, driver, host, timing);
  expect(e.path, `TOOL-1: ${describe(e)}`).toBe(ws.tools[0]!.path);
  expect(e.method, `TOOL-1: ${describe(e)}`).toBe('POST');
  expect(header(e, 'x-service-event'), 'TOOL-1').toBe('tool.dispatch');
  expect(ws.callbacks({ predicate: (x) => header(x, 'x-service-event') === 'tool.dispatch' }).map(describe), 'TOOL-1: nothing reached the callback hook').toEqual([]);
});

test('a tool dispatch carries a valid X-Service-Signature when signing is on (TOOL-2)', { tag: clauseTags('TOOL-2') }, async ({ makeWorkspace, driver, host, timing }) => {
  driver.requireCapability('tool-call', 'signing-hmac');
  const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' }, tools: [{ toolClass: 'lookup', path: `/tools/${uniqueId('lookup')}` }] });
  const e = await dispatchOnce(ws, driver, host, timing);
  const v = checkHmac(e, [ws.signing.secret!]);
  expect(v.ok, `TOOL-2: ${describe(e)}: ${v.reason}`).toBe(true);
});
