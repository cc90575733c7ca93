/**
 * The request headers of section 4.1 on every attempt of onComplete, not only on the first: a
 * service that builds its retries apart from its first attempt can get them right once and wrong
 * afterwards. The host answers 503, then 200; signing is on (HMAC).
 */
import { test } from './fixtures.ts';
import { waiting } from './areas/waiting.ts';
import { describe, header, payload } from '../../judge/service/journal.ts';
import { uniqueHandle, uniqueId, waitEvent } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

waiting(() =>
  test(
    'every attempt of onComplete carries Content-Type application/json, X-Service-Event equal to body.event, X-Service-Delivery-Id lc-<conversationId>-<event> and, with signing on, X-Service-Signature (HDR-1, HDR-2, HDR-3, HDR-6)',
    { tag: clauseTags('HDR-1', 'HDR-2', 'HDR-3', 'HDR-6') },
    async ({ makeWorkspace, driver, host, timing }) => {
      driver.requireCapability('signing-hmac');
      test.setTimeout(timing.retryScheduleDeadlineMs() + 30_000);
      const ws = await makeWorkspace({ facts: false, signing: { mode: 'hmac' } });
      host.script({
        id: uniqueId('503-ok'),
        match: { path: ws.hookPath!, event: 'onComplete' },
        steps: [
          { action: 'respond', status: 503 },
          { action: 'respond', status: 200 },
        ],
      });
      const endUserHandle = uniqueHandle('rheaders');
      const c = await driver.open(ws, { endUserHandle, configEnd: '/addresses' });
      await driver.turn(c.conversationId, [{ fields: { label: 'home' } }]);
      await driver.complete(c.conversationId);
      // Whether the retry comes is DELIV-4's rule: the headers of every attempt that came are judged.
      const attempts = await waitEvent(ws, 'onComplete', endUserHandle, 2, timing.retryScheduleDeadlineMs(), {
        lenient: true,
      });
      precondition(attempts.length >= 2, 'onComplete answered 503 is attempted again', {
        expected: 'at least 2 attempts',
        seen: attempts.map(describe).join(' | ') || 'none',
      });
      attempts.forEach((e, i) => {
        const n = `attempt ${i + 1} of onComplete`;
        const ct = header(e, 'content-type');
        const media = (ct ?? '').toLowerCase().split(';')[0]!.trim();
        check
          .soft('HDR-1', `${n} is sent with Content-Type application/json`, { id: 'header.content-type' })
          .that(media === 'application/json', {
            expected: 'application/json (a charset parameter is accepted)',
            seen: `${ct === undefined ? 'no Content-Type' : `Content-Type ${show(ct)}`} on ${describe(e)}`,
          });
        const p = payload(e);
        const bodyEvent = (p.event ?? p.eventType) as string | undefined;
        const event = header(e, 'x-service-event');
        check
          .soft('HDR-2', `X-Service-Event of ${n} equals body.event`, { id: 'header.event-equals-body' })
          .that(event !== undefined && event === bodyEvent, {
            expected: show(bodyEvent),
            seen: `${event === undefined ? 'no X-Service-Event' : show(event)} on ${describe(e)}`,
          });
        const want = `lc-${String(p.conversationId)}-onComplete`;
        const id = header(e, 'x-service-delivery-id');
        check
          .soft('HDR-3', `X-Service-Delivery-Id of ${n} is lc-<conversationId>-<event>`, {
            id: 'header.delivery-id-form',
          })
          .that(id === want, {
            expected: show(want),
            seen: `${id === undefined ? 'no X-Service-Delivery-Id' : show(id)} on ${describe(e)}`,
          });
        check
          .soft('HDR-6', `signing on (hmac): ${n} carries X-Service-Signature`, {
            id: 'header.signature-exactly-when-on',
          })
          .present(header(e, 'x-service-signature') || undefined, 'a non-empty X-Service-Signature');
      });
    },
  ),
);
