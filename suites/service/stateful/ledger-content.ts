/**
 * What a callback the ledger matched to its expectation must carry: the acting user (EVT-11), an
 * onComplete's keys and a new delivery id for a repeat (EVT-6, DELIV-13), a config.saved's status and
 * changed fields (EVT-8, EVT-17, EVT-18), a config.bulk_deleted's pages (PAGE-1, PAGE-2, PAGE-4, PAGE-5).
 */
import type { JournalEntry } from '../../../mock-host/index.ts';
import { CONTRACT } from '../../../protocol/index.ts';
import { describe, header, payload } from '../../../judge/service/journal.ts';
import { show } from '../../shared/index.ts';
import { must, type Judge } from './violation.ts';
import type { Expected } from './expected.ts';

/** How many POSTs an expectation takes: one, or one per page of a bulk manifest (PAGE-3). */
export function capacity(x: Expected): number {
  return x.manifest ? Math.max(1, Math.ceil(x.manifest.length / CONTRACT.bulkPageSize)) : 1;
}

/** EVT-8: a dotted field path (name, address.city). */
const DOTTED_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

const keysOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []);
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Judges the content of an entry matched to expectation x; users: the sequence's end user handles. */
export function judgeContent(j: Judge, users: readonly string[], x: Expected, e: JournalEntry): void {
  const p = payload(e);
  // EVT-11: the acting user of the conversation, never an org handle.
  must(
    j,
    p.endUserHandle === users[x.user],
    'EVT-11',
    'a callback names the acting user of its conversation in endUserHandle',
    { expected: show(users[x.user]), seen: `endUserHandle ${show(p.endUserHandle)} in ${describe(e)}` },
    { id: 'model.acting-user' },
  );
  if (x.event === 'onComplete') {
    const keys = keysOf(p.serviceKeys);
    const want = x.keys ?? [];
    // EVT-6 reading: what a completion finalizes is the live instances it closes; one that names no keys closes
    // every live instance its conversation touched, so the service's own tracking decides, and is judged.
    const rule =
      x.by === 'service'
        ? 'onComplete of a completion that names no keys names every live instance its conversation touched (none deleted before it), and no other'
        : 'onComplete names every instance the completion finalizes, and no other';
    must(
      j,
      sameSet(keys, want) && keys.length === new Set(keys).size,
      'EVT-6',
      rule,
      {
        expected: `serviceKeys ${show([...want].sort())}${x.by === 'service' ? ` (the live instances conversation ${x.conversationId} touched)` : ''}`,
        seen: `serviceKeys ${show(p.serviceKeys)} in ${describe(e)}`,
      },
      { id: 'model.oncomplete-keys' },
    );
    const id = header(e, 'x-service-delivery-id');
    if ((x.earlierIds ?? []).length > 0)
      must(
        j,
        id !== undefined && !x.earlierIds!.includes(id),
        'DELIV-13',
        'a later completion of a key fires onComplete with a new delivery id',
        { expected: `a delivery id other than ${x.earlierIds!.map((i) => show(i)).join(', ')}`, seen: show(id) },
      );
  } else if (x.event === 'config.saved') {
    must(
      j,
      p.callbackStatus === 'PENDING' || p.callbackStatus === 'DELIVERED',
      'EVT-8',
      'config.saved carries callbackStatus PENDING or DELIVERED',
      { expected: 'PENDING or DELIVERED', seen: `callbackStatus ${show(p.callbackStatus)} in ${describe(e)}` },
    );
    must(
      j,
      x.callbackStatus === undefined
        ? p.callbackStatus === 'PENDING' || p.callbackStatus === 'DELIVERED'
        : p.callbackStatus === x.callbackStatus,
      'EVT-18',
      `config.saved carries the record's callbackStatus at save time (${x.callbackStatus ?? 'PENDING or DELIVERED'})`,
      {
        expected: x.callbackStatus ?? 'PENDING or DELIVERED',
        seen: `callbackStatus ${show(p.callbackStatus)} in ${describe(e)}`,
      },
      { id: 'model.saved-status' },
    );
    const changed = keysOf(p.changedFields);
    const want = x.changedFields ?? [];
    const notPaths = (Array.isArray(p.changedFields) ? p.changedFields : [p.changedFields]).filter(
      (f: unknown) => !(typeof f === 'string' && DOTTED_PATH.test(f)),
    );
    must(j, notPaths.length === 0, 'EVT-8', 'changedFields holds dotted field paths, never values', {
      expected: 'dotted field paths',
      seen: `changedFields ${show(p.changedFields)} in ${describe(e)}`,
    });
    must(
      j,
      want.every((f) => changed.includes(f)),
      'EVT-17',
      'the one config.saved of an instance names every field the turn saved to it',
      {
        expected: `changedFields with ${show(want)}`,
        seen: `changedFields ${show(p.changedFields)} in ${describe(e)}`,
      },
      { id: 'model.saved-once-per-instance' },
    );
    must(
      j,
      changed.every((f) => want.includes(f)),
      'EVT-8',
      'changedFields names what the turn changed, nothing else',
      {
        expected: `changedFields within ${show(want)}`,
        seen: `changedFields ${show(p.changedFields)} in ${describe(e)}`,
      },
    );
  } else if (x.event === 'config.bulk_deleted') {
    judgePage(j, x, e);
  }
}

function judgePage(j: Judge, x: Expected, e: JournalEntry): void {
  const p = payload(e);
  const n = x.manifest!.length;
  const keys = keysOf(p.keys);
  must(
    j,
    keys.length <= CONTRACT.bulkPageSize,
    'PAGE-1',
    `a config.bulk_deleted page holds at most ${CONTRACT.bulkPageSize} keys`,
    { expected: `at most ${CONTRACT.bulkPageSize} keys`, seen: `${keys.length} keys in #${e.seq}` },
  );
  must(j, p.count === n, 'PAGE-4', 'every page carries count, the total number of keys deleted', {
    expected: `count ${n}`,
    seen: `count ${show(p.count)} in ${describe(e)}`,
  });
  const pages = capacity(x);
  if (x.matched.length < pages) return;
  const all = x.matched.flatMap((m) => keysOf(payload(m).keys));
  const twice = all.filter((k, i) => all.indexOf(k) !== i);
  const missing = x.manifest!.filter((k) => !all.includes(k));
  const foreign = all.filter((k) => !x.manifest!.includes(k));
  must(
    j,
    twice.length === 0 && missing.length === 0 && foreign.length === 0,
    'PAGE-5',
    x.by === 'service'
      ? "the pages of a scope delete that names no keys name exactly the user's records at its configEnd, each once"
      : 'the pages of a scope delete name exactly the records of the scope, each once',
    {
      expected: `the ${n} keys of the scope${x.by === 'service' ? ' (every record of the user at its configEnd)' : ''}`,
      seen: `missing ${show(missing, 160)}; not of the scope ${show(foreign, 160)}; twice ${show(twice, 160)}`,
    },
    { id: 'model.manifest' },
  );
  const numbers = x.matched.map((m) => payload(m).page).sort((a, b) => Number(a) - Number(b));
  const totals = new Set(x.matched.map((m) => payload(m).totalPages));
  must(
    j,
    numbers.every((v, i) => v === i + 1) && totals.size === 1 && totals.has(pages),
    'PAGE-2',
    `the pages are numbered 1 to totalPages = ceil(${n} / ${CONTRACT.bulkPageSize})`,
    {
      expected: `pages 1..${pages}, totalPages ${pages}`,
      seen: `pages ${show(numbers)}, totalPages ${show([...totals])}`,
    },
  );
}
