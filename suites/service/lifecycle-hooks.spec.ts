/**
 * Where callbacks go (4.1): a sandbox's hookPath and hostBaseUrl come from its production parent, and with either
 * missing events are skipped while values stay readable over the data API.
 * Each test drives one transition through the driver and reads the result over the data API.
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import { assertNothingArrives, waitForEntries } from '../../mock-host/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';
import { describe, payload } from '../../judge/service/journal.ts';
import { eventOf, uniqueHandle } from './areas/scenario.ts';
import { answered, expectSuccess } from './areas/errors.ts';
import { check, precondition, show } from '../shared/index.ts';
import { asEnvelope } from '../../judge/service/envelope.ts';
import { clauseTags } from '../../spec/index.ts';

test(
  'a sandbox delivers to the same hookPath as its production parent (HOOK-2)',
  { tag: clauseTags('HOOK-2') },
  async ({ ws, makeWorkspace, driver, host, timing }) => {
    driver.requireCapability('sandbox');
    const sb = await makeWorkspace({ parent: ws });
    precondition(sb.workspaceKey.startsWith('sb-'), 'a sandbox key has the sb- prefix', {
      expected: 'sb-…',
      seen: sb.workspaceKey,
    });
    const endUserHandle = uniqueHandle();
    await driver.open(sb, { endUserHandle, configEnd: '/profile' });
    // Watch the whole mock host: a sandbox posting to any other path is seen, not missed. That
    // anything arrives at all is the inherited hostBaseUrl's doing (HOOK-3), a precondition here.
    const v = await waitForEntries(
      host.journal,
      { predicate: (x) => x.kind !== 'facts' && payload(x).endUserHandle === endUserHandle },
      { count: 1, deadlineMs: timing.deliveryDeadlineMs() },
    );
    precondition(v.ok, "a callback of the sandbox's conversation reaches the mock host", {
      expected: 'one callback',
      seen: v.sentence,
    });
    const e = v.entries[0]!;
    check('HOOK-2', "a sandbox delivers to its production parent's hookPath", { id: 'hook.sandbox-same-path' }).that(
      e.path === ws.hookPath,
      { expected: `path ${show(ws.hookPath)}`, seen: `path ${show(e.path)}: ${describe(e)}` },
    );
    precondition(payload(e).workspaceKey === sb.workspaceKey, "the event is the sandbox's", {
      expected: `workspaceKey ${sb.workspaceKey}`,
      seen: describe(e),
    });
  },
);

test(
  "a sandbox without its own hostBaseUrl inherits its production parent's (HOOK-3)",
  { tag: clauseTags('HOOK-3') },
  async ({ ws, makeWorkspace, driver, host, timing }) => {
    driver.requireCapability('sandbox');
    const sb = await makeWorkspace({ parent: ws, hostBaseUrl: null });
    const endUserHandle = uniqueHandle();
    await driver.open(sb, { endUserHandle, configEnd: '/profile' });
    // The parent's hostBaseUrl is this mock host: an onStart of the sandbox's user arriving here proves the
    // inheritance.
    const v = await waitForEntries(
      host.journal,
      {
        predicate: (x) => x.kind !== 'facts' && eventOf(x) === 'onStart' && payload(x).endUserHandle === endUserHandle,
      },
      { count: 1, deadlineMs: timing.deliveryDeadlineMs() },
    );
    check('HOOK-3', "the onStart of a sandbox without its own hostBaseUrl reaches its parent's hostBaseUrl", {
      id: 'hook.sandbox-inherits-host',
    }).that(v.ok, { expected: "one onStart at the parent's hostBaseUrl", seen: v.sentence });
    precondition(payload(v.entries[0]!).workspaceKey === sb.workspaceKey, "the event is the sandbox's", {
      expected: `workspaceKey ${sb.workspaceKey}`,
      seen: describe(v.entries[0]!),
    });
  },
);

waiting(() =>
  test(
    'with hookPath or hostBaseUrl missing, events are skipped and values stay readable over the data API (HOOK-4)',
    { tag: clauseTags('HOOK-4') },
    async ({ makeWorkspace, driver, svc, host, timing, evidence }) => {
      // Both cases share one quiet window (grouped: the same window).
      const cases = await Promise.all(
        (['hookPath', 'hostBaseUrl'] as const).map(async (missing) => ({
          missing,
          ws: await makeWorkspace(
            missing === 'hookPath' ? { hookPath: null, facts: false } : { hostBaseUrl: null, facts: false },
          ),
          endUserHandle: uniqueHandle(`no-${missing}`),
        })),
      );
      const ofCase = (c: (typeof cases)[number]) => (e: JournalEntry) =>
        e.method === 'POST' &&
        (payload(e).workspaceKey === c.ws.workspaceKey || payload(e).endUserHandle === c.endUserHandle);
      const ofThese = (e: JournalEntry) => cases.some((c) => ofCase(c)(e));
      for (const c of cases) {
        const conv = await driver.open(c.ws, { endUserHandle: c.endUserHandle, configEnd: '/profile' });
        await driver.turn(conv.conversationId, [{ fields: { name: 'Ada' } }]);
        await driver.complete(conv.conversationId);
      }
      const quiet = await assertNothingArrives(
        host.journal,
        { predicate: ofThese },
        { windowMs: timing.quietWindowMs() },
      );
      evidence.add({ sentence: quiet.sentence, seqs: quiet.evidence.seqs });
      check
        .soft('HOOK-4', 'with hookPath or hostBaseUrl missing, no event is sent during the quiet window', {
          id: 'hook.skipped-when-missing',
        })
        .that(quiet.ok, { expected: 'none', seen: quiet.sentence });
      for (const c of cases) {
        // Every event of the case, also those sent before the window started.
        const sent = host.journal.entries({ predicate: ofCase(c) });
        check
          .soft('HOOK-4', `with ${c.missing} missing, events are skipped`, { id: 'hook.skipped-when-missing' })
          .that(sent.length === 0, { expected: 'no request', seen: sent.map(describe).join(' | ') });
      }
      for (const c of cases) {
        const read = await svc.listRecords(c.ws, '/profile', c.endUserHandle);
        expectSuccess(read, `a GET of the saved record with ${c.missing} missing`, 'HOOK-4', {
          id: 'hook.values-readable',
        });
        const name = asEnvelope(read.json).data?.name;
        check
          .soft('HOOK-4', `with ${c.missing} missing, the saved value stays readable over the data API`, {
            id: 'hook.values-readable',
          })
          .that(name === 'Ada', { expected: 'data.name "Ada"', seen: answered(read) });
      }
    },
  ),
);
