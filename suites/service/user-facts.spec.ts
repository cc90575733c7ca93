/**
 * The user-facts fetch (2.4, 4.1): request shape and headers, the only GET the service sends, and the FACTS class
 * (no data API routes, a callback required).
 * Observed through the driver's facts observation and the opener language (FACTS-6/9/10/11 readings).
 */
import { test } from './fixtures.ts';
import { describe, header, payload } from '../../judge/service/journal.ts';
import { runEveryEvent, uniqueHandle, uniqueId } from './areas/scenario.ts';
import { expectError } from './areas/errors.ts';
import { check, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe('the fetch request', () => {
  test(
    'the facts fetch is GET hostBaseUrl + callback ?endUserHandle=<handle>, percent-encoded, without a body (FACTS-1)',
    { tag: clauseTags('FACTS-1') },
    async ({ ws, driver }) => {
      driver.requireCapability('facts');
      // A handle with characters a query must percent-encode (an ampersand, a space): sent raw, it is cut short.
      const h = uniqueHandle('fa&ct s');
      await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
      // The fetch arriving at hostBaseUrl + callback is itself FACTS-1's rule.
      const [e] = await ws.waitForFactsRequests({ clause: 'FACTS-1', id: 'facts.request-form' });
      check.soft('FACTS-1', 'the facts fetch is a GET', { id: 'facts.request-form' }).equals(e!.method, 'GET');
      check
        .soft('FACTS-1', 'the facts fetch goes to hostBaseUrl + the FACTS class callback path', {
          id: 'facts.request-form',
        })
        .equals(e!.path, ws.factsPath);
      check
        .soft('FACTS-1', 'the facts fetch carries ?endUserHandle=<endUserHandle>', { id: 'facts.request-form' })
        .equals(e!.query.endUserHandle, h);
      check
        .soft('FACTS-1', 'the facts fetch has no body', { id: 'facts.request-form' })
        .that(e!.bodySize === 0, { expected: 'no body', seen: `${e!.bodySize} bytes` });
    },
  );

  test(
    'the facts fetch sends Accept, X-Service-Event, X-Service-Workspace and X-Service-End-User (FACTS-2)',
    { tag: clauseTags('FACTS-2') },
    async ({ ws, driver }) => {
      driver.requireCapability('facts');
      const h = uniqueHandle();
      await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
      const [e] = await ws.waitForFactsRequests();
      const accept = header(e!, 'accept');
      // FACTS-2 reading: application/json alone or in a list, parameters allowed.
      const types = (accept ?? '').split(',').map((s) => s.split(';')[0]!.trim());
      check
        .soft('FACTS-2', 'the facts fetch sends Accept: application/json', { id: 'facts.headers' })
        .that(types.includes('application/json'), {
          expected: 'application/json (alone or in a list)',
          seen: show(accept),
        });
      check
        .soft('FACTS-2', 'the facts fetch sends X-Service-Event: user.facts.fetch', { id: 'facts.headers' })
        .equals(header(e!, 'x-service-event'), 'user.facts.fetch');
      check
        .soft('FACTS-2', 'the facts fetch sends X-Service-Workspace: <workspaceKey>', { id: 'facts.headers' })
        .equals(header(e!, 'x-service-workspace'), ws.workspaceKey);
      check
        .soft('FACTS-2', 'the facts fetch sends X-Service-End-User: <endUserHandle>', { id: 'facts.headers' })
        .equals(header(e!, 'x-service-end-user'), h);
    },
  );

  test(
    'the facts fetch sends X-Service-Delivery-Id uf-<workspaceId>-<endUserHandle> (FACTS-3)',
    { tag: clauseTags('FACTS-3') },
    async ({ ws, driver }) => {
      driver.requireCapability('facts');
      const h = uniqueHandle();
      await driver.open(ws, { endUserHandle: h, configEnd: '/profile' });
      const [e] = await ws.waitForFactsRequests();
      const id = header(e!, 'x-service-delivery-id');
      // FACTS-3 reading: exactly uf-<workspaceId>-<handle> when the driver reports a workspaceId.
      if (ws.workspaceId)
        check('FACTS-3', 'the facts fetch sends X-Service-Delivery-Id uf-<workspaceId>-<endUserHandle>', {
          id: 'facts.delivery-id',
        }).equals(id, `uf-${ws.workspaceId}-${h}`);
      else {
        const ok = id !== undefined && id.startsWith('uf-') && id.endsWith(`-${h}`) && id.length > `uf--${h}`.length;
        check('FACTS-3', 'the facts fetch sends X-Service-Delivery-Id uf-<workspaceId>-<endUserHandle>', {
          id: 'facts.delivery-id',
        }).that(ok, { expected: `uf-<non-empty>-${h}`, seen: show(id) });
      }
    },
  );

  test(
    'the facts fetch carries X-Service-Signature exactly when signing is enabled (FACTS-4)',
    { tag: clauseTags('FACTS-4') },
    async ({ makeWorkspace, driver }) => {
      driver.requireCapability('facts', 'signing-hmac');
      const off = await makeWorkspace({ signing: { mode: 'none' } });
      const on = await makeWorkspace({ signing: { mode: 'hmac' } });
      await driver.open(off, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
      await driver.open(on, { endUserHandle: uniqueHandle(), configEnd: '/profile' });
      const [a] = await off.waitForFactsRequests();
      const [b] = await on.waitForFactsRequests();
      check
        .soft('FACTS-4', 'signing off: the facts fetch carries no X-Service-Signature', {
          id: 'facts.signature-exactly-when-on',
        })
        .absent(header(a!, 'x-service-signature'), 'no X-Service-Signature header');
      check
        .soft('FACTS-4', 'signing on (hmac): the facts fetch carries X-Service-Signature', {
          id: 'facts.signature-exactly-when-on',
        })
        .present(header(b!, 'x-service-signature') || undefined, 'a non-empty X-Service-Signature');
    },
  );

  test(
    'the user-facts fetch is the only GET the service sends to the host (FACTS-14)',
    { tag: clauseTags('FACTS-14') },
    async ({ ws, driver, host }) => {
      const run = await runEveryEvent(ws, driver);
      const mine = host.journal.entries({
        predicate: (e) =>
          e.kind !== 'admin' &&
          (payload(e).endUserHandle === run.endUserHandle ||
            e.endUserHandle === run.endUserHandle ||
            header(e, 'x-service-workspace') === ws.workspaceKey),
      });
      const gets = mine.filter((e) => e.method === 'GET');
      const others = gets.filter((e) => e.path !== ws.factsPath || header(e, 'x-service-event') !== 'user.facts.fetch');
      check('FACTS-14', 'every GET the service sends to the host is the user-facts fetch', {
        id: 'facts.only-get',
      }).none(
        others.map(describe),
        `only GETs of ${ws.factsPath} with X-Service-Event user.facts.fetch (${gets.length} GET(s) seen)`,
      );
    },
  );
});

test.describe('the FACTS class', () => {
  test(
    'a FACTS class without a callback is rejected at push (FACTS-12)',
    { tag: clauseTags('FACTS-12') },
    async ({ driver, host }) => {
      driver.requireCapability('workspaces');
      const r = await driver.createWorkspaceRaw({
        hostBaseUrl: host.url,
        hookPath: `/hooks/${uniqueId('f12')}`,
        classes: [
          { configEnd: '/facts', kind: 'FACTS', fields: [{ name: 'company', type: 'string', comment: 'Employer' }] },
        ],
      });
      check('FACTS-12', 'the push of a FACTS class without callback is refused with 422', {
        id: 'facts.callback-required',
      }).that(r.status === 422, { expected: '422', seen: `${r.status} ${show(r.json)}` });
    },
  );

  test('a FACTS class has no data API routes (FACTS-13)', { tag: clauseTags('FACTS-13') }, async ({ ws, svc }) => {
    const h = uniqueHandle();
    expectError('FACTS-13', await svc.listRecords(ws, '/facts', h), 404, 'GET on the FACTS configEnd', true, {
      id: 'facts.no-data-routes',
    });
    expectError(
      'FACTS-13',
      await svc.writeRecord(ws, '/facts', h, { data: { company: 'Acme' } }),
      404,
      'POST on the FACTS configEnd',
      true,
      { id: 'facts.no-data-routes' },
    );
  });
});
