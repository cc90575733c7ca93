/**
 * Lifecycle callbacks: payloads (2.1, 2.2), headers (4.1) and addressing, over real deliveries of
 * every event of section 6. Each test runs the every-event scenario on its own fresh workspace
 * and checks one rule, so a failure names its clause. The scenario's waits are preconditions
 * (they read the event leniently, scenario.ts eventOf): each test's own checks decide its clause.
 */
import { test } from './fixtures.ts';
import { LIFECYCLE_EVENTS } from '../../protocol/index.ts';
import {
  COMMON_FIELDS,
  EVENT_FIELDS,
  TIMESTAMP_PATTERN,
  describe,
  header,
  payload,
  rawBody,
  timestampMs,
} from './areas/journal.ts';
import { eventOf, runEveryEvent } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import type { JournalEntry } from '../../mock-host/index.ts';

const ORG_PREFIX = 'org-';

/** The event an entry is about, for the words of a check ("onStart", "config.saved"). */
const nameOf = (e: JournalEntry): string => eventOf(e) ?? 'a lifecycle callback without an event';

test.describe('lifecycle payloads over every event', () => {
  test('a lifecycle callback body is a JSON object (EVT-1)', { tag: clauseTags('EVT-1') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      let parsed: unknown;
      let error: string | undefined;
      try {
        parsed = JSON.parse(rawBody(e).toString('utf8'));
      } catch (err) {
        error = (err as Error).message;
      }
      const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
      check.soft('EVT-1', `the body of ${nameOf(e)} is a JSON object`).that(isObject, {
        expected: 'a JSON object',
        seen: error ? `a body that is not JSON (${error}): ${describe(e)}` : describe(e),
      });
    }
  });

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
    'no payload carries a data or values object, nor any member section 2.2 does not list (EVT-2)',
    { tag: clauseTags('EVT-2') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const p = payload(e);
        const ev = eventOf(e) ?? '';
        const inline = ['data', 'values'].filter((k) => k in p);
        check
          .soft('EVT-2', `${nameOf(e)} carries no inline data or values object`, { id: 'payload.no-inline-values' })
          .that(inline.length === 0, {
            expected: 'no data and no values member',
            seen: `${inline.map((k) => `${k}: ${show(p[k], 80)}`).join(', ')} in ${describe(e)}`,
          });
        const allowed = new Set<string>([...COMMON_FIELDS, ...(EVENT_FIELDS[ev] ?? [])]);
        // eventType is EVT-3's rule: left to that test so this one names only EVT-2.
        const extra = Object.keys(p).filter((k) => !allowed.has(k) && k !== 'eventType');
        check
          .soft('EVT-2', `${nameOf(e)} carries only the members section 2.2 lists for it`, {
            id: 'payload.closed-members',
          })
          .that(extra.length === 0, {
            expected: `members among ${[...allowed].join(', ')}`,
            seen: `also ${extra.join(', ')} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'the discriminating field is named event, never eventType (EVT-3)',
    { tag: clauseTags('EVT-3') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const p = payload(e);
        check
          .soft('EVT-3', `${nameOf(e)} carries no eventType member`, { id: 'payload.event-member' })
          .that(p.eventType === undefined, {
            expected: 'no eventType member',
            seen: `eventType ${show(p.eventType)} in ${describe(e)}`,
          });
        check
          .soft('EVT-3', `${nameOf(e)} names its event in the member event`, { id: 'payload.event-member' })
          .that(typeof p.event === 'string', {
            expected: 'an event member holding a string',
            seen: `event ${show(p.event)} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'every lifecycle payload carries event, workspaceKey, configEnd, endUserHandle, conversationId and timestamp (EVT-4)',
    { tag: clauseTags('EVT-4') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const p = payload(e);
        // event is EVT-3's own rule; the other common fields are EVT-4's.
        const missing = COMMON_FIELDS.filter((f) => f !== 'event' && !(f in p));
        check
          .soft('EVT-4', `${nameOf(e)} carries workspaceKey, configEnd, endUserHandle, conversationId and timestamp`, {
            id: 'payload.common-fields',
          })
          .that(missing.length === 0, {
            expected: 'every common field',
            seen: `no ${missing.join(', ')} in ${describe(e)}`,
          });
        check
          .soft('EVT-4', `workspaceKey of ${nameOf(e)} names the workspace`)
          .that(p.workspaceKey === ws.workspaceKey, {
            expected: show(ws.workspaceKey),
            seen: `${show(p.workspaceKey)} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'onStart, onSessionInterrupted and onSessionTimeout carry serviceKeys as an empty array (EVT-5)',
    { tag: clauseTags('EVT-5') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const ev of ['onStart', 'onSessionInterrupted', 'onSessionTimeout']) {
        const entries = run.byEvent.get(ev) ?? [];
        precondition(entries.length > 0, `the scenario delivered ${ev}`, {
          expected: `at least one ${ev}`,
          seen: 'none',
        });
        for (const e of entries) {
          const keys = payload(e).serviceKeys;
          check
            .soft('EVT-5', `${ev} carries serviceKeys as an empty array`, { id: 'payload.session-servicekeys-empty' })
            .that(Array.isArray(keys) && keys.length === 0, {
              expected: 'serviceKeys: []',
              seen: `serviceKeys ${show(keys)} in ${describe(e)}`,
            });
        }
      }
    },
  );

  test(
    'onComplete carries serviceKeys naming every instance the completion finalizes (EVT-6)',
    { tag: clauseTags('EVT-6') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      const [e] = run.byEvent.get('onComplete') ?? [];
      precondition(e !== undefined, 'the scenario delivered onComplete', { expected: 'one onComplete', seen: 'none' });
      const keys = payload(e!).serviceKeys;
      check('EVT-6', 'onComplete carries serviceKeys as an array', { id: 'payload.oncomplete-every-key' }).that(
        Array.isArray(keys),
        { expected: 'an array of keys', seen: `serviceKeys ${show(keys)} in ${describe(e!)}` },
      );
      const want = [run.keys.kept, run.keys.deleted].sort();
      check('EVT-6', 'onComplete of a completion that finalized two instances names both keys', {
        id: 'payload.oncomplete-every-key',
      }).that(JSON.stringify([...(keys as unknown[])].sort()) === JSON.stringify(want), {
        expected: show(want),
        seen: `serviceKeys ${show(keys)} in ${describe(e!)}`,
      });
    },
  );

  test(
    'onComplete carries path echoing the callback hook path (EVT-7)',
    { tag: clauseTags('EVT-7') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      const [e] = run.byEvent.get('onComplete') ?? [];
      precondition(e !== undefined, 'the scenario delivered onComplete', { expected: 'one onComplete', seen: 'none' });
      const path = payload(e!).path;
      check('EVT-7', 'onComplete carries path echoing the hook path', { id: 'payload.oncomplete-path' }).that(
        path === ws.hookPath,
        { expected: show(ws.hookPath), seen: `path ${show(path)} in ${describe(e!)}` },
      );
    },
  );

  test(
    'config.saved carries serviceKey, changedFields as dotted paths without values, and callbackStatus (EVT-8)',
    { tag: clauseTags('EVT-8') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      const saved = run.byEvent.get('config.saved') ?? [];
      precondition(saved.length > 0, 'the scenario delivered config.saved', {
        expected: 'at least one config.saved',
        seen: 'none',
      });
      const savedKeys = [run.keys.kept, run.keys.deleted];
      for (const e of saved) {
        const p = payload(e);
        check
          .soft('EVT-8', 'config.saved carries serviceKey naming the saved instance')
          .that(typeof p.serviceKey === 'string' && savedKeys.includes(p.serviceKey), {
            expected: `one of ${savedKeys.map((k) => show(k)).join(', ')}`,
            seen: `serviceKey ${show(p.serviceKey)} in ${describe(e)}`,
          });
        const fields = p.changedFields;
        check
          .soft('EVT-8', 'config.saved carries changedFields as a non-empty array', {
            id: 'payload.changed-fields-paths',
          })
          .that(Array.isArray(fields) && fields.length > 0, {
            expected: 'an array of one or more field paths',
            seen: `changedFields ${show(fields)} in ${describe(e)}`,
          });
        const notPaths = (Array.isArray(fields) ? fields : []).filter(
          (f: unknown) => !(typeof f === 'string' && /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/.test(f)),
        );
        check
          .soft('EVT-8', 'every changedFields entry of config.saved is a dotted field path, never a value', {
            id: 'payload.changed-fields-paths',
          })
          .that(notPaths.length === 0, {
            expected: 'dotted field paths (name, address.city)',
            seen: `${notPaths.map((f) => show(f, 80)).join(', ')} in ${describe(e)}`,
          });
        check
          .soft('EVT-8', 'config.saved carries callbackStatus PENDING or DELIVERED', {
            id: 'payload.saved-status-value',
          })
          .that(p.callbackStatus === 'PENDING' || p.callbackStatus === 'DELIVERED', {
            expected: 'PENDING or DELIVERED',
            seen: `callbackStatus ${show(p.callbackStatus)} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'config.deleted carries serviceKey (singular) and no serviceKeys (EVT-9)',
    { tag: clauseTags('EVT-9') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      const deleted = run.byEvent.get('config.deleted') ?? [];
      precondition(deleted.length > 0, 'the scenario delivered config.deleted', {
        expected: 'at least one config.deleted',
        seen: 'none',
      });
      const single = deleted.filter((e) => payload(e).serviceKey === run.keys.deleted);
      check
        .soft('EVT-9', 'the config.deleted of a chat delete names the deleted key in serviceKey', {
          id: 'payload.deleted-singular',
        })
        .that(single.length > 0, {
          expected: `a config.deleted with serviceKey ${show(run.keys.deleted)}`,
          seen: deleted.map(describe).join(' | '),
        });
      for (const e of deleted) {
        const p = payload(e);
        check
          .soft('EVT-9', 'config.deleted carries serviceKey as a string', { id: 'payload.deleted-singular' })
          .that(typeof p.serviceKey === 'string', {
            expected: 'serviceKey: a string',
            seen: `serviceKey ${show(p.serviceKey)} in ${describe(e)}`,
          });
        check
          .soft('EVT-9', 'config.deleted carries no serviceKeys', { id: 'payload.deleted-singular' })
          .that(!('serviceKeys' in p), {
            expected: 'no serviceKeys member',
            seen: `serviceKeys ${show(p.serviceKeys)} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'config.bulk_deleted carries count, page, totalPages as integers and keys as at most 500 strings (EVT-10)',
    { tag: clauseTags('EVT-10') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      const pages = run.byEvent.get('config.bulk_deleted') ?? [];
      precondition(pages.length > 0, 'the scenario delivered config.bulk_deleted', {
        expected: 'at least one config.bulk_deleted',
        seen: 'none',
      });
      for (const e of pages) {
        const p = payload(e);
        for (const f of ['count', 'page', 'totalPages']) {
          check
            .soft('EVT-10', `config.bulk_deleted carries ${f} as an integer`, { id: 'payload.bulk-members' })
            .that(Number.isInteger(p[f]), {
              expected: `${f}: an integer`,
              seen: `${f} ${show(p[f])} in ${describe(e)}`,
            });
        }
        const keys = p.keys;
        check
          .soft('EVT-10', 'config.bulk_deleted carries keys as an array of strings', { id: 'payload.bulk-members' })
          .that(Array.isArray(keys) && keys.every((k: unknown) => typeof k === 'string'), {
            expected: 'an array of strings',
            seen: `keys ${show(keys)} in ${describe(e)}`,
          });
        if (Array.isArray(keys))
          check
            .soft('EVT-10', 'a config.bulk_deleted page holds at most 500 keys', { id: 'payload.bulk-members' })
            .atMost(keys.length, 500, ' keys');
      }
    },
  );

  test(
    'endUserHandle in every callback names the acting user, never an org handle (EVT-11)',
    { tag: clauseTags('EVT-11') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const h = payload(e).endUserHandle;
        check
          .soft('EVT-11', `endUserHandle of ${nameOf(e)} names the acting user`)
          .that(h === run.endUserHandle, { expected: show(run.endUserHandle), seen: `${show(h)} in ${describe(e)}` });
        check
          .soft('EVT-11', `endUserHandle of ${nameOf(e)} is never an org handle`)
          .that(!String(h).startsWith(ORG_PREFIX), {
            expected: `a handle not starting with ${ORG_PREFIX}`,
            seen: `${show(h)} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'configEnd in every callback payload carries a leading slash (EVT-12)',
    { tag: clauseTags('EVT-12') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const c = payload(e).configEnd;
        check
          .soft('EVT-12', `configEnd of ${nameOf(e)} carries a leading slash`, { id: 'payload.configend-slash' })
          .that(typeof c === 'string' && c.startsWith('/') && c.length > 1, {
            expected: 'a configEnd like "/addresses"',
            seen: `${show(c)} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'conversationId is an integer naming the conversation (EVT-13)',
    { tag: clauseTags('EVT-13') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      const known = Object.values(run.conversations);
      for (const e of run.all) {
        const id = payload(e).conversationId;
        check
          .soft('EVT-13', `conversationId of ${nameOf(e)} is an integer`, { id: 'payload.conversation-id-integer' })
          .that(Number.isInteger(id), { expected: 'an integer', seen: `${show(id)} in ${describe(e)}` });
        check
          .soft('EVT-13', `conversationId of ${nameOf(e)} names one of the scenario's conversations`)
          .that(known.includes(id as number), {
            expected: `one of ${known.join(', ')}`,
            seen: `${show(id)} in ${describe(e)}`,
          });
      }
    },
  );

  test(
    'timestamp is a date-time with milliseconds and no zone offset, near the sending time (EVT-14)',
    { tag: clauseTags('EVT-14') },
    async ({ ws, driver, timing }) => {
      const run = await runEveryEvent(ws, driver);
      // EVT-14 reading: read as UTC; plausibility within the delivery deadline plus clock slack.
      const slackMs = timing.deliveryDeadlineMs() + 5_000;
      for (const e of run.all) {
        const ts = payload(e).timestamp;
        const formed = typeof ts === 'string' && TIMESTAMP_PATTERN.test(ts);
        check
          .soft('EVT-14', `timestamp of ${nameOf(e)} is YYYY-MM-DDTHH:MM:SS.mmm without a zone`, {
            id: 'payload.timestamp-form',
          })
          .that(formed, { expected: 'YYYY-MM-DDTHH:MM:SS.mmm, no Z or offset', seen: `${show(ts)} in ${describe(e)}` });
        // An unreadable timestamp has failed above; the distance is measured on a readable one.
        if (!formed) continue;
        const delta = Math.abs(timestampMs(ts) - e.arrival.wallMs);
        check
          .soft('EVT-14', `timestamp of ${nameOf(e)} is the sending time, read as UTC`, {
            id: 'payload.timestamp-sending-time',
          })
          .that(delta <= slackMs, {
            expected: `within ${slackMs} ms of the arrival`,
            seen: `${ts} is ${delta} ms from the arrival of #${e.seq}`,
          });
      }
    },
  );

  test(
    'the event field holds one of the exact strings of section 6 (EVT-15)',
    { tag: clauseTags('EVT-15') },
    async ({ ws, driver }) => {
      const run = await runEveryEvent(ws, driver);
      for (const e of run.all) {
        const ev = payload(e).event ?? eventOf(e);
        check
          .soft('EVT-15', 'the event of a lifecycle callback is one of the exact strings of section 6')
          .that((LIFECYCLE_EVENTS as readonly unknown[]).includes(ev), {
            expected: `one of ${LIFECYCLE_EVENTS.join(', ')}`,
            seen: `${show(ev)} in ${describe(e)}`,
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
