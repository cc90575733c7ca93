/**
 * Lifecycle payloads (2.1, 2.2) over real deliveries of every event of section 6: the members every payload
 * carries, their types and values.
 * Each test runs the every-event scenario on its own fresh workspace and checks one rule, so a failure names its
 * clause. The scenario's waits are preconditions (they read the event leniently, scenario.ts eventOf): each test's
 * own checks decide its clause.
 */
import { test } from './fixtures.ts';
import { LIFECYCLE_EVENTS } from '../../protocol/index.ts';
import {
  COMMON_FIELDS,
  EVENT_FIELDS,
  TIMESTAMP_PATTERN,
  describe,
  payload,
  rawBody,
  timestampMs,
} from '../../judge/service/journal.ts';
import { eventOf, runEveryEvent } from './areas/scenario.ts';
import { check, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';
import { nameOf } from './areas/event-names.ts';

const ORG_PREFIX = 'org-';

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
});
