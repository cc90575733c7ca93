/**
 * Lifecycle callback headers and addressing (4.1) over real deliveries of every event of section 6.
 * Each test runs the every-event scenario on its own fresh workspace and checks one rule, so a failure names its
 * clause. The scenario's waits are preconditions (they read the event leniently, scenario.ts eventOf): each test's
 * own checks decide its clause.
 */
import { test } from './fixtures.ts';
import { describe, header, payload } from '../../judge/service/journal.ts';
import { eventOf, runEveryEvent } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { nameOf } from './areas/event-names.ts';

test.describe('lifecycle payloads over every event', () => {
  test(
    'a lifecycle callback is sent with Content-Type application/json (HDR-1)',
    { tag: clauseTags('HDR-1') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const ct = header(e, 'content-type');
        // HDR-1 reading: a charset parameter is accepted.
        const media = (ct ?? '').toLowerCase().split(';')[0]!.trim();
        check
          .soft('HDR-1', `${nameOf(e)} is sent with Content-Type application/json`, { id: 'header.content-type' })
          .that(media === 'application/json', {
            expected: 'application/json (a charset parameter is accepted)',
            seen: `${ct === undefined ? 'no Content-Type' : `Content-Type ${show(ct)}`} on ${describe(e)}`,
          });
      }
    },
  );

  test(
    'X-Service-Event is present and equals body.event (HDR-2)',
    { tag: clauseTags('HDR-2') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const p = payload(e);
        const bodyEvent = (p.event ?? p.eventType) as string | undefined;
        const h = header(e, 'x-service-event');
        check
          .soft('HDR-2', `X-Service-Event of ${nameOf(e)} equals body.event`, { id: 'header.event-equals-body' })
          .that(h !== undefined && h === bodyEvent, {
            expected: show(bodyEvent),
            seen: `${h === undefined ? 'no X-Service-Event' : show(h)} on ${describe(e)}`,
          });
      }
    },
  );

  test(
    'X-Service-Delivery-Id is lc-<conversationId>-<event> (HDR-3)',
    { tag: clauseTags('HDR-3') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const p = payload(e);
        const ev = (p.event ?? eventOf(e)) as string;
        const want = `lc-${String(p.conversationId)}-${ev}`;
        const id = header(e, 'x-service-delivery-id');
        check
          .soft('HDR-3', `X-Service-Delivery-Id of ${nameOf(e)} is lc-<conversationId>-<event>`, {
            id: 'header.delivery-id-form',
          })
          .that(id === want, {
            expected: show(want),
            seen: `${id === undefined ? 'no X-Service-Delivery-Id' : show(id)} on ${describe(e)}`,
          });
      }
    },
  );

  test(
    'X-Service-Delivery-Attempt is 1 on a first onComplete attempt (HDR-4)',
    { tag: clauseTags('HDR-4') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      const [e] = run.byEvent.get('onComplete') ?? [];
      precondition(e !== undefined, 'the scenario delivered onComplete', { expected: 'one onComplete', seen: 'none' });
      const attempt = header(e!, 'x-service-delivery-attempt');
      check('HDR-4', 'X-Service-Delivery-Attempt of a first onComplete attempt is 1', {
        id: 'header.first-attempt-1',
      }).that(attempt === '1', {
        expected: '"1"',
        seen: `${attempt === undefined ? 'no X-Service-Delivery-Attempt' : show(attempt)} on ${describe(e!)}`,
      });
    },
  );

  test(
    'X-Service-Delivery-Attempt is sent on onComplete only, never on another event (HDR-5)',
    { tag: clauseTags('HDR-5') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        if (eventOf(e) === 'onComplete') continue;
        const attempt = header(e, 'x-service-delivery-attempt');
        check
          .soft('HDR-5', `${nameOf(e)} carries no X-Service-Delivery-Attempt`, { id: 'header.attempt-only-oncomplete' })
          .that(attempt === undefined, {
            expected: 'no X-Service-Delivery-Attempt header',
            seen: `X-Service-Delivery-Attempt ${show(attempt)} on ${describe(e)}`,
          });
      }
    },
  );

  test(
    'a lifecycle callback is an HTTP POST to hostBaseUrl + hookPath (HOOK-1)',
    { tag: clauseTags('HOOK-1') },
    async ({ ws, driver, host }) => {
      const run = await runEveryEvent(ws, driver);
      precondition(ws.hostBaseUrl === host.url, 'the test workspace points at the mock host', {
        expected: host.url,
        seen: String(ws.hostBaseUrl),
      });
      // Every request of this user's conversations that reached the mock host, whatever its path.
      const seen = host.journal.entries({
        predicate: (e) => e.kind !== 'facts' && e.kind !== 'admin' && payload(e).endUserHandle === run.endUserHandle,
      });
      check
        .soft('HOOK-1', "the scenario's callbacks reach the mock host", { id: 'hook.post-to-hook-path' })
        .atLeast(seen.length, run.all.length, ' requests');
      for (const e of seen) {
        check
          .soft('HOOK-1', `${nameOf(e)} is sent with method POST`, { id: 'hook.post-to-hook-path' })
          .that(e.method === 'POST', { expected: 'POST', seen: describe(e) });
        check
          .soft('HOOK-1', `${nameOf(e)} is sent to hostBaseUrl + hookPath`, { id: 'hook.post-to-hook-path' })
          .that(e.path === ws.hookPath, {
            expected: `path ${show(ws.hookPath)}`,
            seen: `path ${show(e.path)}: ${describe(e)}`,
          });
      }
    },
  );
});
