/**
 * The members of each event's payload (2.2) over real deliveries of every event of section 6: serviceKeys, path,
 * serviceKey, changedFields, callbackStatus and the bulk-delete page.
 * Each test runs the every-event scenario on its own fresh workspace and checks one rule, so a failure names its
 * clause. The scenario's waits are preconditions (they read the event leniently, scenario.ts eventOf): each test's
 * own checks decide its clause.
 */
import { test } from './fixtures.ts';
import { describe, payload } from '../../judge/service/journal.ts';
import { runEveryEvent } from './areas/scenario.ts';
import { check, precondition, show } from '../shared/index.ts';
import { clauseTags } from '../../spec/index.ts';

test.describe('lifecycle payloads over every event', () => {
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
});
