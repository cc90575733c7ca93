/**
 * Lifecycle callbacks: payloads (2.1, 2.2), headers (4.1) and addressing, over real deliveries of
 * every event of section 6. Each test runs the every-event scenario on its own fresh workspace
 * and checks one rule, so a failure names its clause.
 */
import { test, expect } from './fixtures.ts';
import { LIFECYCLE_EVENTS } from '../../protocol/index.ts';
import { COMMON_FIELDS, EVENT_FIELDS, TIMESTAMP_PATTERN, describe, header, payload, rawBody, timestampMs } from './areas/journal.ts';
import { eventOf, runEveryEvent } from './areas/scenario.ts';
import { clauseTags } from '../../spec/index.ts';

const ORG_PREFIX = 'org-';

test.describe('lifecycle payloads over every event', () => {
  test('a lifecycle callback body is a JSON object (EVT-1)', { tag: clauseTags('EVT-1') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      let parsed: unknown;
      expect(() => { parsed = JSON.parse(rawBody(e).toString('utf8')); }, `EVT-1: body of ${describe(e)} is not JSON`).not.toThrow();
      expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), `EVT-1: body of ${describe(e)} is not a JSON object`).toBe(true);
    }
  });

  test('a lifecycle callback is sent with Content-Type application/json (HDR-1)', { tag: clauseTags('HDR-1') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const ct = (header(e, 'content-type') ?? '').toLowerCase();
      // HDR-1 reading: a charset parameter is accepted.
      expect(ct.split(';')[0]!.trim(), `HDR-1: Content-Type of ${describe(e)}`).toBe('application/json');
    }
  });

  test('no payload carries a data or values object, nor any member section 2.2 does not list (EVT-2)', { tag: clauseTags('EVT-2') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const p = payload(e);
      expect(Object.keys(p), `EVT-2: ${describe(e)} carries inline values`).not.toContain('data');
      expect(Object.keys(p), `EVT-2: ${describe(e)} carries inline values`).not.toContain('values');
      const ev = eventOf(e) ?? '';
      const allowed = new Set<string>([...COMMON_FIELDS, ...(EVENT_FIELDS[ev] ?? [])]);
      // eventType is EVT-3's rule: left to that test so this one names only EVT-2.
      const extra = Object.keys(p).filter((k) => !allowed.has(k) && k !== 'eventType');
      expect(extra, `EVT-2: ${describe(e)} has members outside section 2.2`).toEqual([]);
    }
  });

  test('the discriminating field is named event, never eventType (EVT-3)', { tag: clauseTags('EVT-3') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const p = payload(e);
      expect(p.eventType, `EVT-3: ${describe(e)} carries eventType`).toBeUndefined();
      expect(typeof p.event, `EVT-3: ${describe(e)} has no event member`).toBe('string');
    }
  });

  test('every lifecycle payload carries event, workspaceKey, configEnd, endUserHandle, conversationId and timestamp (EVT-4)', { tag: clauseTags('EVT-4') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const p = payload(e);
      // event is EVT-3's own rule; the other common fields are EVT-4's.
      const missing = COMMON_FIELDS.filter((f) => f !== 'event' && !(f in p));
      expect(missing, `EVT-4: ${describe(e)} lacks common fields`).toEqual([]);
      expect(p.workspaceKey, `EVT-4: workspaceKey of ${describe(e)}`).toBe(ws.workspaceKey);
    }
  });

  test('onStart, onSessionInterrupted and onSessionTimeout carry serviceKeys as an empty array (EVT-5)', { tag: clauseTags('EVT-5') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const ev of ['onStart', 'onSessionInterrupted', 'onSessionTimeout']) {
      const entries = run.byEvent.get(ev) ?? [];
      expect(entries.length, `EVT-5: no ${ev} arrived`).toBeGreaterThan(0);
      for (const e of entries) expect(payload(e).serviceKeys, `EVT-5: serviceKeys of ${describe(e)}`).toEqual([]);
    }
  });

  test('onComplete carries serviceKeys naming every instance the completion finalizes (EVT-6)', { tag: clauseTags('EVT-6') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    const [e] = run.byEvent.get('onComplete') ?? [];
    expect(e, 'EVT-6: no onComplete arrived').toBeDefined();
    const keys = payload(e!).serviceKeys;
    expect(Array.isArray(keys), `EVT-6: serviceKeys of ${describe(e!)} is not an array`).toBe(true);
    expect([...(keys as string[])].sort(), `EVT-6: the completion finalized two instances: ${describe(e!)}`).toEqual([run.keys.kept, run.keys.deleted].sort());
  });

  test('onComplete carries path echoing the callback hook path (EVT-7)', { tag: clauseTags('EVT-7') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    const [e] = run.byEvent.get('onComplete') ?? [];
    expect(e, 'EVT-7: no onComplete arrived').toBeDefined();
    expect(payload(e!).path, `EVT-7: path of ${describe(e!)}`).toBe(ws.hookPath);
  });

  test('config.saved carries serviceKey, changedFields as dotted paths without values, and callbackStatus (EVT-8)', { tag: clauseTags('EVT-8') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    const saved = run.byEvent.get('config.saved') ?? [];
    expect(saved.length, 'EVT-8: no config.saved arrived').toBeGreaterThan(0);
    for (const e of saved) {
      const p = payload(e);
      expect(typeof p.serviceKey, `EVT-8: serviceKey of ${describe(e)}`).toBe('string');
      expect([run.keys.kept, run.keys.deleted], `EVT-8: serviceKey of ${describe(e)} names a saved instance`).toContain(p.serviceKey);
      expect(Array.isArray(p.changedFields) && (p.changedFields as unknown[]).length > 0, `EVT-8: changedFields of ${describe(e)}`).toBe(true);
      for (const f of p.changedFields as unknown[]) {
        expect(typeof f === 'string' && /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/.test(f), `EVT-8: changedFields entry ${JSON.stringify(f)} of ${describe(e)} is not a dotted field path`).toBe(true);
      }
      expect(['PENDING', 'DELIVERED'], `EVT-8: callbackStatus of ${describe(e)}`).toContain(p.callbackStatus);
    }
  });

  test('config.deleted carries serviceKey (singular) and no serviceKeys (EVT-9)', { tag: clauseTags('EVT-9') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    const deleted = run.byEvent.get('config.deleted') ?? [];
    expect(deleted.length, 'EVT-9: no config.deleted arrived').toBeGreaterThan(0);
    const single = deleted.filter((e) => payload(e).serviceKey === run.keys.deleted);
    expect(single.length, `EVT-9: no config.deleted names the deleted key; got ${deleted.map(describe).join(' | ')}`).toBeGreaterThan(0);
    for (const e of deleted) {
      expect(typeof payload(e).serviceKey, `EVT-9: serviceKey of ${describe(e)}`).toBe('string');
      expect('serviceKeys' in payload(e), `EVT-9: ${describe(e)} carries serviceKeys`).toBe(false);
    }
  });

  test('config.bulk_deleted carries count, page, totalPages as integers and keys as at most 500 strings (EVT-10)', { tag: clauseTags('EVT-10') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    const pages = run.byEvent.get('config.bulk_deleted') ?? [];
    expect(pages.length, 'EVT-10: no config.bulk_deleted arrived').toBeGreaterThan(0);
    for (const e of pages) {
      const p = payload(e);
      for (const f of ['count', 'page', 'totalPages']) expect(Number.isInteger(p[f]), `EVT-10: ${f} of ${describe(e)}`).toBe(true);
      expect(Array.isArray(p.keys), `EVT-10: keys of ${describe(e)}`).toBe(true);
      const keys = p.keys as unknown[];
      expect(keys.every((k) => typeof k === 'string'), `EVT-10: keys of ${describe(e)} are strings`).toBe(true);
      expect(keys.length, `EVT-10: keys of ${describe(e)}`).toBeLessThanOrEqual(500);
    }
  });

  test('endUserHandle in every callback names the acting user, never an org handle (EVT-11)', { tag: clauseTags('EVT-11') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const h = payload(e).endUserHandle;
      expect(h, `EVT-11: endUserHandle of ${describe(e)}`).toBe(run.endUserHandle);
      expect(String(h).startsWith(ORG_PREFIX), `EVT-11: ${describe(e)} names an org handle`).toBe(false);
    }
  });

  test('configEnd in every callback payload carries a leading slash (EVT-12)', { tag: clauseTags('EVT-12') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const c = payload(e).configEnd;
      expect(typeof c === 'string' && c.startsWith('/') && c.length > 1, `EVT-12: configEnd of ${describe(e)}`).toBe(true);
    }
  });

  test('conversationId is an integer naming the conversation (EVT-13)', { tag: clauseTags('EVT-13') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    const known = Object.values(run.conversations);
    for (const e of run.all) {
      const id = payload(e).conversationId;
      expect(Number.isInteger(id), `EVT-13: conversationId of ${describe(e)} is not an integer`).toBe(true);
      expect(known, `EVT-13: conversationId of ${describe(e)}`).toContain(id);
    }
  });

  test('timestamp is a date-time with milliseconds and no zone offset, near the sending time (EVT-14)', { tag: clauseTags('EVT-14') }, async ({ ws, driver, timing }) => {
    const run = await runEveryEvent(ws, driver);
    // EVT-14 reading: read as UTC; plausibility within the delivery deadline plus clock slack.
    const slackMs = timing.deliveryDeadlineMs() + 5_000;
    for (const e of run.all) {
      const ts = payload(e).timestamp;
      expect(typeof ts === 'string' && TIMESTAMP_PATTERN.test(ts), `EVT-14: timestamp ${JSON.stringify(ts)} of ${describe(e)} is not YYYY-MM-DDTHH:MM:SS.mmm without a zone`).toBe(true);
      const delta = Math.abs(timestampMs(ts as string) - e.arrival.wallMs);
      expect(delta, `EVT-14: timestamp ${String(ts)} is ${delta} ms from the arrival of ${describe(e)}`).toBeLessThanOrEqual(slackMs);
    }
  });

  test('the event field holds one of the exact strings of section 6 (EVT-15)', { tag: clauseTags('EVT-15') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) expect(LIFECYCLE_EVENTS as readonly string[], `EVT-15: event of ${describe(e)}`).toContain(payload(e).event ?? eventOf(e));
  });

  test('X-Service-Event is present and equals body.event (HDR-2)', { tag: clauseTags('HDR-2') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const p = payload(e);
      const bodyEvent = (p.event ?? p.eventType) as string | undefined;
      expect(header(e, 'x-service-event'), `HDR-2: X-Service-Event of ${describe(e)}`).toBe(bodyEvent);
    }
  });

  test('X-Service-Delivery-Id is lc-<conversationId>-<event> (HDR-3)', { tag: clauseTags('HDR-3') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      const p = payload(e);
      const ev = (p.event ?? eventOf(e)) as string;
      expect(header(e, 'x-service-delivery-id'), `HDR-3: delivery id of ${describe(e)}`).toBe(`lc-${String(p.conversationId)}-${ev}`);
    }
  });

  test('X-Service-Delivery-Attempt is 1 on a first onComplete attempt (HDR-4)', { tag: clauseTags('HDR-4') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    const [e] = run.byEvent.get('onComplete') ?? [];
    expect(e, 'HDR-4: no onComplete arrived').toBeDefined();
    expect(header(e!, 'x-service-delivery-attempt'), `HDR-4: attempt header of ${describe(e!)}`).toBe('1');
  });

  test('X-Service-Delivery-Attempt is sent on onComplete only, never on another event (HDR-5)', { tag: clauseTags('HDR-5') }, async ({ ws, driver }) => {
    const run = await runEveryEvent(ws, driver);
    for (const e of run.all) {
      if (eventOf(e) === 'onComplete') continue;
      expect(header(e, 'x-service-delivery-attempt'), `HDR-5: ${describe(e)} carries X-Service-Delivery-Attempt`).toBeUndefined();
    }
  });

  test('a lifecycle callback is an HTTP POST to hostBaseUrl + hookPath (HOOK-1)', { tag: clauseTags('HOOK-1') }, async ({ ws, driver, host }) => {
    const run = await runEveryEvent(ws, driver);
    expect(ws.hostBaseUrl, 'the test workspace points at the mock host').toBe(host.url);
    // Every request of this user's conversations that reached the mock host, whatever its path.
    const seen = host.journal.entries({ predicate: (e) => e.kind !== 'facts' && e.kind !== 'admin' && payload(e).endUserHandle === run.endUserHandle });
    expect(seen.length, 'HOOK-1: no callback reached the mock host').toBeGreaterThanOrEqual(run.all.length);
    for (const e of seen) {
      expect(e.method, `HOOK-1: method of ${describe(e)}`).toBe('POST');
      expect(e.path, `HOOK-1: path of ${describe(e)}`).toBe(ws.hookPath);
    }
  });
});
